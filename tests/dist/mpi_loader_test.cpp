// The MPI module's loader refuses what it cannot use with the path it tried
// and the dynamic loader's reason. That the module itself loads and works is
// proven by gol under mpirun (mpirun_test.cpp).
#include "dist/mpi_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/core/error.h"
#include "tests/scratch_dir_test.h"

namespace gol::dist {
namespace {

namespace fs = std::filesystem;

// The message load_mpi_calls(path) throws; fails the test if it throws none.
std::string load_error(const fs::path& path) {
  try {
    load_mpi_calls(path);
  } catch (const RuntimeError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a RuntimeError loading " << path;
  return "";
}

using MpiLoader = testing::ScratchDirTest;

TEST_F(MpiLoader, AMissingModuleIsRefusedNamingThePathTried) {
  const fs::path path = dir_ / "lib" / "gol" / "libgol_mpi.so";
  const std::string message = load_error(path);
  EXPECT_NE(message.find("cannot load the MPI module " + path.string() +
                         ", which a run across MPI ranks needs: "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
}

TEST_F(MpiLoader, AFileThatIsNoLibraryIsRefusedWithTheLoadersReason) {
  const fs::path path = dir_ / "libgol_mpi.so";
  std::ofstream(path) << std::string(256, '#') << "\n";
  const std::string message = load_error(path);
  EXPECT_NE(message.find("cannot load the MPI module " + path.string()), std::string::npos)
      << message;
  EXPECT_NE(message.find("invalid ELF header"), std::string::npos) << message;
}

TEST_F(MpiLoader, ALibraryWithoutTheCallsIsRefusedNamingTheSymbolExpected) {
  // zlib, which gol links anyway: a library, but not gol's MPI module.
  const std::string message = load_error("libz.so.1");
  EXPECT_NE(message.find("cannot load the MPI module libz.so.1"), std::string::npos) << message;
  EXPECT_NE(message.find(std::string("expected it to export ") + kMpiCallsSymbol),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace gol::dist
