# cmake --install: the tilecc binary, the runtime headers and the package config that gives
# outside projects find_package(tilecc CONFIG) and tilecc_add_kernels(). The binary finds the
# headers at ../include from its own directory, so the layout is fixed: bin/, include/.
include(CMakePackageConfigHelpers)
set(TILECC_CMAKE_INSTALL_DIR lib/cmake/tilecc)

install(TARGETS tilecc tilecc_runtime EXPORT tileccTargets RUNTIME DESTINATION bin)
install(DIRECTORY runtime/include/tilecc DESTINATION include)
install(EXPORT tileccTargets NAMESPACE tilecc:: DESTINATION ${TILECC_CMAKE_INSTALL_DIR})

configure_package_config_file(cmake/tileccConfig.cmake.in ${PROJECT_BINARY_DIR}/tileccConfig.cmake
  INSTALL_DESTINATION ${TILECC_CMAKE_INSTALL_DIR})
# 0.x: a minor version may change the language; ask for the minor version you built against.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tileccConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tileccConfig.cmake ${PROJECT_BINARY_DIR}/tileccConfigVersion.cmake
              cmake/tileccAddKernels.cmake cmake/tileccCheckGolden.cmake cmake/tileccCheckPtxas.cmake
        DESTINATION ${TILECC_CMAKE_INSTALL_DIR})
