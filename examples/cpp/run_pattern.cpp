// Runs a pattern through gol's C++ API and prints where it ends up:
//   run_pattern SPEC GENERATIONS [OUT_FILE]
// e.g. `run_pattern builtin:acorn 5206` ends with 633 cells.
#include <gol/gol.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: %s SPEC GENERATIONS [OUT_FILE]\n", argv[0]);
    return 2;
  }
  try {
    gol::World world = gol::World::load(argv[1]);
    world.advance(std::strtoull(argv[2], nullptr, 10));
    std::printf("gol %s, backend %s: generation %llu, population %llu", gol::version().c_str(),
                world.backend().c_str(), static_cast<unsigned long long>(world.generation()),
                static_cast<unsigned long long>(world.population()));
    if (const std::optional<gol::BBox> box = world.bbox()) {
      std::printf(", bbox %lld,%lld .. %lld,%lld", static_cast<long long>(box->xmin),
                  static_cast<long long>(box->ymin), static_cast<long long>(box->xmax),
                  static_cast<long long>(box->ymax));
    }
    std::printf("\n");
    if (argc == 4) world.save(argv[3]);
    return 0;
  } catch (const gol::Error& e) {
    std::fprintf(stderr, "run_pattern: %s\n", e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "run_pattern: %s\n", e.what());
    return 4;
  }
}
