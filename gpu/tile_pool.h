// The device side of the hybrid scheduler: tiles kept resident on the GPU
// between epochs, indexed by tile, behind a plain C++ header (no CUDA
// types). make_tile_pool() returns the CUDA pool where a device is usable
// and the CPU stand-in otherwise, so callers need no #ifdef and CI runs the
// scheduler's logic with no GPU: the stand-in keeps the same regions, rings,
// epochs and history, with copies instead of transfers.
//
// A region is a rectangle of tiles the GPU owns. The pool holds, for each
// region, its owned tiles and a one-tile ghost ring around them (the tiles
// the CPU owns or that are absent), both generations t and t-1 of every
// owned tile, and steps the whole rectangle for an epoch of k generations
// with dead cells beyond the ring. The ring is uploaded at generation t
// before the epoch and its results are dropped: ghost cells lack their outer
// neighbours, so errors creep inward one cell a generation and, for
// k <= kMaxEpochGenerations < 64, never reach the owned tiles (the light
// cone). Every epoch leaves the ring empty, so a ring tile not uploaded
// before the next epoch counts as absent (dead), never as stale. On a torus,
// a region whose rectangle plus ring would cover the torus in either axis
// must cover the whole torus; it then has no ring and wraps.
//
// Between step_async() and wait() only name(), stats() and
// finish_downloads() may be called; anything else is a logic error
// (checked, aborts), since the CUDA pool would race with its own epoch.
//
// Transfers are counted as the CUDA pool makes them: every tile image that
// crosses the bus (512 bytes) travels with its 4-byte pool slot index, which
// goes up for downloads too; activity() brings down 4 bytes of flags per
// owned tile and an 8-byte population.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/core/rule.h"
#include "engine/core/tile.h"

namespace gol::gpu {

inline constexpr int kMaxEpochGenerations = 32;

// A rectangle of tiles: [tx, tx + width) x [ty, ty + height). On a torus the
// coordinates wrap (tx, ty within the torus's tile range).
struct TileRect {
  int64_t tx = 0;
  int64_t ty = 0;
  int64_t width = 0;
  int64_t height = 0;
  int64_t area() const { return width * height; }
  friend bool operator==(const TileRect&, const TileRect&) = default;
};

// What one region reports after an epoch, one entry per owned tile in
// row-major order over the rectangle.
struct RegionActivity {
  // The last step changed the tile: generation t+k differs from t+k-2.
  std::vector<uint8_t> changed;
  // The tile holds a live cell at t+k.
  std::vector<uint8_t> nonempty;
  uint64_t population = 0;  // live cells in the owned tiles at t+k
};

struct TilePoolStats {
  double device_seconds = 0;    // stepping, timed on the device
  double transfer_seconds = 0;  // host<->device copies (staging included)
  uint64_t bytes_uploaded = 0;
  uint64_t bytes_downloaded = 0;
  uint64_t cells_computed = 0;  // ring and halo recomputation included
  uint64_t epochs = 0;
};

class TilePool {
 public:
  virtual ~TilePool() = default;
  // "cuda" or "cpu-standin".
  virtual std::string name() const = 0;
  // Drops every region and zeroes the stats. `torus_tiles_x/y` are 0 on the
  // plane. Throws InputError for a rule with B0 on the plane.
  virtual void reset(const Rule& rule, int64_t torus_tiles_x, int64_t torus_tiles_y) = 0;

  // A new region owning `owned`, all tiles empty (both generations). Returns
  // its id. Owned rectangles of live regions must be at least one tile apart
  // (rings hold CPU tiles only). Throws RuntimeError on device failure or
  // when the device memory would not hold it.
  virtual int add_region(const TileRect& owned) = 0;
  virtual void remove_region(int region) = 0;
  // Enlarges a region in place to own `owned`, which must hold its owned
  // rectangle (and, like add_region's, not conflict with other regions).
  // The tiles it owned keep both generations where they are, so growing
  // moves nothing across the bus but the region's new table; the tiles
  // newly owned start empty in both generations (upload the live ones) and
  // the ring dead. Throws RuntimeError when the device memory would not
  // hold it.
  virtual void grow_region(int region, const TileRect& owned) = 0;

  // Writes tiles of a region, in one batch. Each coord lies in the owned
  // rectangle or its ring (on a torus, any representative). `current` is
  // generation t; `previous` (same length, or empty) is t-1, used for owned
  // tiles only (ring tiles have no history). Without `previous`, t-1 of the
  // owned tiles is taken to be t, so a following 1-generation epoch reports
  // every tile that moves as changed (never the reverse).
  virtual void upload(int region, std::span<const TileCoord> coords, std::span<const Tile> current,
                      std::span<const Tile> previous) = 0;
  // Starts an epoch of `generations` on every region and returns at once;
  // the host may work meanwhile. 1..kMaxEpochGenerations, the reach of the
  // ring's errors; any positive count while the only region wraps the whole
  // torus (no ring, and nothing outside it to exchange with).
  virtual void step_async(int generations) = 0;
  // Blocks until the epoch started last is done. Required before download,
  // activity or another step.
  virtual void wait() = 0;
  // Reads owned tiles of a region at t (current) and t-1 (previous), in one
  // batch; `previous` may be empty when not wanted. After an epoch of k
  // generations from t, these are t+k and t+k-1.
  virtual void download(int region, std::span<const TileCoord> coords, std::span<Tile> current,
                        std::span<Tile> previous) = 0;
  // download() queued instead of waited for: the copies go ahead of any
  // later step_async(), so they read the tiles as they are now, and
  // `current` and `previous` are filled by finish_downloads(), until which
  // they must stay valid. The host can then work on an epoch's results
  // while the next epoch runs. Between a download_async() and its
  // finish_downloads(), only upload(), step_async(), wait(), more
  // download_async() and activity_async() calls, name() and stats() may be
  // called.
  virtual void download_async(int region, std::span<const TileCoord> coords,
                              std::span<Tile> current, std::span<Tile> previous) = 0;
  // Waits for the downloads queued since the last call and fills their
  // spans. May be called while an epoch runs (between step_async() and
  // wait()), which it does not wait for.
  virtual void finish_downloads() = 0;
  virtual RegionActivity activity(int region) = 0;
  // activity() queued like download_async(): the copy goes ahead of any
  // later step_async(), so it reads what the epoch waited for last left,
  // and `out` is filled by finish_downloads(), until which it must stay
  // valid. The host can then plan from an epoch's activity while the next
  // epoch runs.
  virtual void activity_async(int region, RegionActivity& out) = 0;
  virtual TilePoolStats stats() const = 0;
};

// The CUDA pool when a device is usable (gpu::device_available()), else the
// CPU stand-in. `force_standin` picks the stand-in on any machine (tests).
std::unique_ptr<TilePool> make_tile_pool(bool force_standin = false);

}  // namespace gol::gpu
