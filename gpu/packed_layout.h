// Host images of device fields and plane regions: conversion between a
// CellSet and the packed layout described in gpu_backend.h, plus the
// region a plane pattern is embedded in. Plain C++ (no device code), so it
// is tested without a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/core/cell_set.h"

namespace gol::gpu {

// A rectangle of whole tiles: tile (origin_tx, origin_ty) is the field's
// top-left tile. Fields of a torus have origin (0, 0).
struct TileRegion {
  int64_t origin_tx = 0;
  int64_t origin_ty = 0;
  int64_t tile_cols = 0;
  int64_t tile_rows = 0;
  int64_t width() const { return tile_cols * kTileSize; }
  int64_t height() const { return tile_rows * kTileSize; }
  int64_t width_words() const { return width() / 32; }
  int64_t tile_row_count() const { return tile_cols * height(); }  // uint64_t rows in all
  bool contains(TileCoord c) const {
    return c.tx >= origin_tx && c.tx < origin_tx + tile_cols && c.ty >= origin_ty &&
           c.ty < origin_ty + tile_rows;
  }
};

// Host image: tile_cols uint64_t a cell row, row-major; memcpy-compatible
// with the device's 32-bit words.
using HostField = std::vector<uint64_t>;

// Cells into a field covering `region`. With wrap (torus), tiles outside are
// taken modulo the region; otherwise they must lie inside it.
HostField pack_cells(const CellSet& cells, const TileRegion& region, bool wrap);
CellSet unpack_cells(const HostField& field, const TileRegion& region);

// The plane region for live cells in `live` (nullopt: no live cells): the
// live tiles plus a margin of at least two tiles that grows with the
// pattern's extent, so a growing pattern regrows only logarithmically often.
// Throws RuntimeError when the region would exceed kMaxRegionCells.
TileRegion plane_region_around(const std::optional<BBox>& live);
inline constexpr int64_t kMaxRegionCells = int64_t{1} << 36;

}  // namespace gol::gpu
