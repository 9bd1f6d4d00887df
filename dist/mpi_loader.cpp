#include "dist/mpi_loader.h"

#include <dlfcn.h>

#include <string>
#include <system_error>

#include "engine/core/error.h"

namespace gol::dist {
namespace {

std::string loader_error() {
  const char* reason = dlerror();
  return reason != nullptr ? reason : "no reason given";
}

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& reason) {
  throw RuntimeError("cannot load the MPI module " + path.string() +
                     ", which a run across MPI ranks needs: " + reason);
}

}  // namespace

std::filesystem::path mpi_module_path() {
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    throw RuntimeError(std::string("cannot find the MPI module " GOL_MPI_MODULE
                                   " beside the running executable: /proc/self/exe: ") +
                       error.message());
  }
  return (executable.parent_path() / GOL_MPI_MODULE).lexically_normal();
}

const MpiCalls& load_mpi_calls(const std::filesystem::path& path) {
  // RTLD_GLOBAL: Open MPI's plugins (mca_*.so), which MPI_Init loads, do not
  // link libmpi or libopen-pal but take their symbols from the global scope.
  // The module is never closed: MPI cannot start again once finalised, so
  // no process would load it twice.
  void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (module == nullptr) refuse(path, loader_error());
  const auto entry = reinterpret_cast<MpiCallsEntry>(dlsym(module, kMpiCallsSymbol));
  if (entry == nullptr) {
    const std::string reason = loader_error();
    dlclose(module);
    refuse(path, std::string("expected it to export ") + kMpiCallsSymbol + ": " + reason);
  }
  const MpiCalls* calls = entry();
  if (calls->version != kMpiCallsVersion) {
    const int version = calls->version;
    dlclose(module);
    refuse(path, "its calls are version " + std::to_string(version) + ", expected version " +
                     std::to_string(kMpiCallsVersion) + " (a module from another build of gol?)");
  }
  return *calls;
}

}  // namespace gol::dist
