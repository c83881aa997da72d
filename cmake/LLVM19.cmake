# Finds LLVM/Clang 19 (Debian: /usr/lib/llvm-19) for the checks, the front
# ends and the lit suite; fails with the fix when it is missing or another major.
set(TT_LLVM_ROOT "/usr/lib/llvm-19" CACHE PATH "Root of the LLVM/Clang 19 installation")
find_package(Clang CONFIG QUIET
  HINTS "${TT_LLVM_ROOT}/lib/cmake/clang" NO_DEFAULT_PATH)
if(NOT Clang_FOUND)
  message(FATAL_ERROR
    "LLVM/Clang 19 was not found under TT_LLVM_ROOT=${TT_LLVM_ROOT}. "
    "Install llvm-19-dev libclang-19-dev clang-tidy-19 (tools/setup does), "
    "or pass -DTT_LLVM_ROOT=<prefix>, or configure with -DTT_BUILD_CHECKS=OFF.")
endif()
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR
    "The tensor checks need LLVM/Clang 19, found ${LLVM_PACKAGE_VERSION} "
    "under ${TT_LLVM_ROOT}: clang-tidy's C++ API changes between majors.")
endif()
message(STATUS "tensor checks: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_INSTALL_PREFIX}")

