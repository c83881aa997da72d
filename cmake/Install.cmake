# `cmake --install BUILD [--prefix DIR]` and `cpack -G DEB`: the tools, the
# plugin, the scripts and the tt runtime with a CMake package config
# (find_package(tt) gives tt::runtime) and a pkg-config file (tt.pc).
#
# Everything goes under PREFIX/lib, not the multiarch libdir: the plugin
# finds its checks beside itself and tensor-run finds its library at
# ../lib from its own directory, so the layout must not depend on the
# prefix. docs/install.md lists what goes where; test/install tests it.
set(TT_INSTALL_LIBDIR lib)
set(TT_INSTALL_CMAKEDIR ${TT_INSTALL_LIBDIR}/cmake/tt)
set(TT_INSTALL_DATADIR share/tensor-tidy)

# Installed binaries carry the same run path in the build tree and when
# installed: the directories of the shared libraries they link outside the
# build (LLVM's). Rewriting it at install time fails on these binaries:
# their build run path ends in an empty entry the linker drops.
function(tt_install_rpath)
  foreach(t IN LISTS ARGN)
    if(TARGET ${t})
      set_target_properties(${t} PROPERTIES BUILD_WITH_INSTALL_RPATH ON
                                            INSTALL_RPATH_USE_LINK_PATH ON)
    endif()
  endforeach()
endfunction()
tt_install_rpath(tensor-tidy tensor-clangd tensor-tidy-report TensorTidyModule
                 TensorTidyChecks tensor-run tensor_run)

# The checks' front ends and the report.
if(TT_BUILD_CHECKS)
  install(TARGETS tensor-tidy tensor-clangd tensor-tidy-report
          RUNTIME DESTINATION bin COMPONENT tools)
  install(TARGETS TensorTidyModule TensorTidyChecks
          LIBRARY DESTINATION ${TT_INSTALL_LIBDIR} COMPONENT tools)
  # The scripts, named for the package so they do not clash on PATH; each
  # finds the binaries beside itself.
  install(PROGRAMS tools/ci-check DESTINATION bin RENAME tensor-tidy-ci-check
          COMPONENT tools)
  install(PROGRAMS tools/pre-commit-hook DESTINATION bin
          RENAME tensor-tidy-pre-commit-hook COMPONENT tools)
  install(FILES tools/recommended.clang-tidy DESTINATION ${TT_INSTALL_DATADIR}
          COMPONENT tools)
  # SARIF rule help for tensor-tidy-report (it looks here first).
  install(DIRECTORY docs/checks/ DESTINATION ${TT_INSTALL_DATADIR}/docs/checks
          COMPONENT tools FILES_MATCHING PATTERN "*.md")
  if(TARGET tensor-run)
    install(TARGETS tensor-run RUNTIME DESTINATION bin COMPONENT tools)
    install(TARGETS tensor_run LIBRARY DESTINATION ${TT_INSTALL_LIBDIR} COMPONENT tools)
  endif()
endif()

# The tt runtime: headers, static libraries and the package files.
if(TARGET tt_runtime)
  set(_tt_targets tt_runtime tt_validation_log tt_runtime_with_backends)
  set_target_properties(tt_runtime PROPERTIES EXPORT_NAME runtime_core)
  set_target_properties(tt_runtime_with_backends PROPERTIES EXPORT_NAME runtime)
  set_target_properties(tt_validation_log PROPERTIES EXPORT_NAME validation_log)
  target_include_directories(tt_runtime PUBLIC $<INSTALL_INTERFACE:include>)
  target_include_directories(tt_validation_log PUBLIC $<INSTALL_INTERFACE:include>)
  install(DIRECTORY runtime/include/ DESTINATION include COMPONENT runtime)
  set(TT_PC_BACKEND_LIBS "")
  set(TT_PC_CUDA_LIBS "")
  if(TARGET tt_cuda)
    list(APPEND _tt_targets tt_cuda)
    set_target_properties(tt_cuda PROPERTIES EXPORT_NAME cuda)
    target_include_directories(tt_cuda PUBLIC $<INSTALL_INTERFACE:include>)
    install(DIRECTORY cuda/include/ DESTINATION include COMPONENT runtime)
    set(TT_PC_BACKEND_LIBS "-Wl,--whole-archive -ltt_cuda -Wl,--no-whole-archive")
    set(TT_PC_CUDA_LIBS "-L${TT_CUDA_LIBRARY_DIR} -Wl,-rpath,${TT_CUDA_LIBRARY_DIR} -lcublas -lcublasLt -lcurand -lcudart")
  endif()
  install(TARGETS ${_tt_targets} EXPORT ttTargets
          ARCHIVE DESTINATION ${TT_INSTALL_LIBDIR} COMPONENT runtime
          INCLUDES DESTINATION include)
  install(EXPORT ttTargets NAMESPACE tt:: DESTINATION ${TT_INSTALL_CMAKEDIR}
          COMPONENT runtime)

  include(CMakePackageConfigHelpers)
  set(TT_WITH_CUDA OFF)
  if(TARGET tt_cuda)
    set(TT_WITH_CUDA ON)
  endif()
  set(TT_PC_OPENMP "")
  if(TT_WITH_OPENMP)
    set(TT_WITH_OPENMP ON)
    set(TT_PC_OPENMP "-fopenmp")
  else()
    set(TT_WITH_OPENMP OFF)
  endif()
  configure_package_config_file(cmake/install/ttConfig.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/ttConfig.cmake
    INSTALL_DESTINATION ${TT_INSTALL_CMAKEDIR})
  write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ttConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ttConfig.cmake
                ${CMAKE_CURRENT_BINARY_DIR}/ttConfigVersion.cmake
          DESTINATION ${TT_INSTALL_CMAKEDIR} COMPONENT runtime)

  # pkg-config: the link line for programs built without CMake. The
  # libraries are static, so their dependencies are in Libs, not
  # Libs.private; OpenBLAS by its absolute path, as the build found it.
  set(TT_PC_OPENBLAS "${TT_OPENBLAS_LIBRARIES} ${TT_ONEDNN_LIBRARIES}")
  configure_file(cmake/install/tt.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tt.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tt.pc
          DESTINATION ${TT_INSTALL_LIBDIR}/pkgconfig COMPONENT runtime)
endif()

# cpack -G DEB: one package, tensor-tidy, with what `cmake --install`
# installs; dpkg-shlibdeps derives Depends from the binaries' libraries.
set(CPACK_PACKAGE_NAME tensor-tidy)
set(CPACK_PACKAGE_VENDOR "tensor-tidy")
set(CPACK_PACKAGE_CONTACT "tensor-tidy maintainers <tensor-tidy@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "clang-tidy checks and a runtime for tensor device and dtype bugs")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The scripts are Python; the plugin is loaded by clang-tidy-19.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-tidy-19, libopenblas-dev, libdnnl-dev, zlib1g-dev, pkgconf")
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
include(CPack)
