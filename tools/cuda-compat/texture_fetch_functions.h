// tensor-tidy's stand-in for a header that CUDA 13 no longer ships and that
// clang 19's CUDA wrapper (__clang_cuda_runtime_wrapper.h) still includes.
// It declared the texture-reference fetch functions, an API CUDA 12 removed;
// nothing is left to declare. tensor-tidy adds this directory with
// -idirafter, searched after every other one, so a toolkit that still has
// the header uses its own (docs/getting-started.md, "CUDA sources").
#pragma once
