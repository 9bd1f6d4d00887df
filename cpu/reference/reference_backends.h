// The reference CPU paths: slow, simple oracles that every fast path is
// tested against. Each runs the plane (a dense grid that grows with a margin
// as the pattern grows) and the torus (the grid as given, wrapping).
#pragma once

#include <memory>

#include "engine/core/backend.h"

namespace gol::cpu {

// One byte a cell; the birth/survival rules applied as written.
std::unique_ptr<Backend> make_serial_backend();
// 16 cells per uint64_t, four bits a cell, neighbour counts by nibble adds.
std::unique_ptr<Backend> make_nibble_backend();
// 64 cells per uint64_t; neighbour counts by a full/half-adder tree.
std::unique_ptr<Backend> make_bit_backend();

}  // namespace gol::cpu
