#!/usr/bin/env bash
# Builds Rokicki's lifealg harness (`lifealgo`, which runs lifelib's sparse
# CPU algorithm as `ulifelib`) from checkouts that already exist, for
# `gol bench --ulifelib PATH` to time beside QuickLife. Nothing is fetched
# and nothing of theirs enters gol's sources: objects and the binary go to
# OUT_DIR.
#
#   bench/build_ulifelib.sh LIFEALG_DIR [LIFELIB_DIR] [OUT_DIR]
#
#   LIFEALG_DIR  a checkout of github.com/rokicki/lifealg (measured: 4ab7a8a)
#   LIFELIB_DIR  lifelib ll2.5.7 (default LIFEALG_DIR/lifelib); it must hold
#                upattern.h and classic/vtile28.h
#   OUT_DIR      where to build (default LIFEALG_DIR/build-gol); the binary
#                is OUT_DIR/lifealgo, printed on the last line
#
# Two build-only fixes, no source changed:
#   -include cstring   parts of the harness call memcpy without <cstring>,
#                      which g++ 12 rejects;
#   64-byte calloc     its AVX code keeps __m256i arrays in calloc() memory
#                      and g++ emits aligned loads for them, but glibc's
#                      calloc only aligns to 16 bytes: those objects get a
#                      calloc that aligns to 64 (-faligned-new does the same
#                      for operator new).
# Flags otherwise as the harness's own Makefile: -O3 -march=native.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 3 ]; then
  sed -n '2,22p' "$0" >&2
  exit 2
fi
lifealg=$(cd "$1" && pwd)
lifelib=$(cd "${2:-$lifealg/lifelib}" && pwd)
out=${3:-$lifealg/build-gol}

[ -f "$lifealg/lifealgo.cpp" ] || { echo "$lifealg: no lifealgo.cpp (not a lifealg checkout)" >&2; exit 2; }
for needed in upattern.h classic/vtile28.h; do
  [ -f "$lifelib/$needed" ] || { echo "$lifelib: no $needed (want lifelib ll2.5.7)" >&2; exit 2; }
done
mkdir -p "$out/obj"

# The aligned calloc, written here (it is ours, not theirs).
cat >"$out/aligned_calloc.h" <<'EOF'
#include <cstdlib>
#include <stdlib.h>
extern "C" void* gol_aligned_calloc(size_t count, size_t size);
#define calloc gol_aligned_calloc
EOF
cat >"$out/aligned_calloc.c" <<'EOF'
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
void* gol_aligned_calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return NULL;
  void* memory = NULL;
  if (posix_memalign(&memory, 64, count * size ? count * size : 1) != 0) return NULL;
  memset(memory, 0, count * size);
  return memory;
}
EOF

cxxflags=(-O3 -march=native -std=c++11 -faligned-new -w -I "$lifelib" -include cstring)
jobs=${JOBS:-2}
objects=("$out/obj/aligned_calloc.o")
gcc -O2 -c "$out/aligned_calloc.c" -o "$out/obj/aligned_calloc.o"

compile() {
  local source=$1 object=$2
  local extra=()
  # Only the files that keep vectors in calloc() memory get the aligned one.
  if grep -q calloc "$source" && grep -q __m256i "$source"; then
    extra=(-include "$out/aligned_calloc.h")
  fi
  g++ "${cxxflags[@]}" "${extra[@]}" -c "$source" -o "$object"
}

pids=()
for source in "$lifealg"/*.cpp; do
  object="$out/obj/$(basename "${source%.cpp}").o"
  objects+=("$object")
  if [ ! -f "$object" ] || [ "$source" -nt "$object" ]; then
    compile "$source" "$object" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$jobs" ]; then
      wait "${pids[0]}"
      pids=("${pids[@]:1}")
    fi
  fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
g++ -O3 -o "$out/lifealgo" "${objects[@]}" -lpthread
echo "$out/lifealgo"
