# `cmake --install`: bin/gol, include/gol/, the static libraries and a CMake
# package, so that find_package(gol) and target_link_libraries(app PRIVATE
# gol::gol) work from any prefix. (dist/CMakeLists.txt installs the MPI
# module gol loads for runs across ranks, lib/gol/libgol_mpi.so.)
include(CMakePackageConfigHelpers)

set(GOL_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gol)

install(TARGETS gol RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gol DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# gol::gol is a static library: everything it links, even privately, is
# installed and exported too, for the user's final link.
install(TARGETS gol_api gol_engine gol_core gol_patterns gol_cpu gol_sparse gol_gpu
  EXPORT gol-targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT gol-targets NAMESPACE gol:: DESTINATION ${GOL_PACKAGE_DIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gol-config.cmake.in
  ${PROJECT_BINARY_DIR}/gol-config.cmake INSTALL_DESTINATION ${GOL_PACKAGE_DIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gol-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gol-config.cmake ${PROJECT_BINARY_DIR}/gol-config-version.cmake
  DESTINATION ${GOL_PACKAGE_DIR})
