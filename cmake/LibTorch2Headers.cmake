# LibTorch 2.x's headers, for the tests that check code against a second
# LibTorch (issue 25): Debian has only LibTorch 1.13, and 2.x libraries
# cannot be had on the build machines, so ../shared/libtorch holds the
# include/ folder of the LibTorch that PyTorch 2.11.0 bundles (headers
# only; its README.md). They are unpacked into the build tree, at
# build/libtorch-2.11/include, by the target libtorch-2.11-headers.
#
# Sets TT_LIBTORCH2_VERSION, TT_LIBTORCH2_INCLUDE (the folder holding
# torch/, ATen/, c10/) and TT_LIBTORCH2_FLAGS (the include flags a TU needs:
# before the system include path, where Debian's 1.13 ATen/ and c10/ live),
# or leaves TT_LIBTORCH2_INCLUDE empty when the archive is not there.
set(TT_LIBTORCH2_TARBALL "${PROJECT_SOURCE_DIR}/../shared/libtorch/libtorch-2.11.0-include.tar.xz"
    CACHE FILEPATH "LibTorch 2.x's include/ folder as a .tar.xz, for the tests against a second LibTorch")
set(TT_LIBTORCH2_VERSION "2.11")
set(TT_LIBTORCH2_INCLUDE "")
set(TT_LIBTORCH2_FLAGS "")
if(NOT EXISTS "${TT_LIBTORCH2_TARBALL}")
  message(STATUS "LibTorch ${TT_LIBTORCH2_VERSION} headers not found at ${TT_LIBTORCH2_TARBALL}: "
                 "the tests against them are not run")
  return()
endif()

set(_root "${PROJECT_BINARY_DIR}/libtorch-${TT_LIBTORCH2_VERSION}")
set(TT_LIBTORCH2_INCLUDE "${_root}/include")
set(TT_LIBTORCH2_FLAGS -isystem ${TT_LIBTORCH2_INCLUDE} -isystem ${TT_LIBTORCH2_INCLUDE}/torch/csrc/api/include)
set(TT_LIBTORCH2_STAMP "${_root}/unpacked.stamp")
if(NOT TARGET libtorch-2.11-headers)
  # The folder is replaced whole, so no header of another archive stays.
  add_custom_command(OUTPUT ${TT_LIBTORCH2_STAMP}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${TT_LIBTORCH2_INCLUDE}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_root}
    COMMAND ${CMAKE_COMMAND} -E chdir ${_root} ${CMAKE_COMMAND} -E tar xf ${TT_LIBTORCH2_TARBALL}
    COMMAND ${CMAKE_COMMAND} -E touch ${TT_LIBTORCH2_STAMP}
    DEPENDS ${TT_LIBTORCH2_TARBALL}
    COMMENT "Unpacking LibTorch ${TT_LIBTORCH2_VERSION}'s headers into ${_root}")
  add_custom_target(libtorch-2.11-headers ALL DEPENDS ${TT_LIBTORCH2_STAMP})
endif()
