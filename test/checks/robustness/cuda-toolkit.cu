// A CUDA source against the installed toolkit, as a user runs tensor-tidy
// on it (issue 23, item 4): with CUDA 13, clang 19's CUDA wrapper included
// texture_fetch_functions.h, which CUDA 13 no longer ships ("file not
// found", with or without --cuda-host-only), CUDA 13's headers include
// <cuda/std/...> from include/cccl, which nvcc adds and clang does not, and
// clang warns that it does not know the version. tensor-tidy adds what is
// missing (tools/tensor-tidy/CudaArgs.h): the file is analysed and the bug
// in its host code found, with no error and no warning of clang's.
// REQUIRES: cuda
// RUN: %tensor_tidy %s --checks='-*,tensor-*,clang-diagnostic-*' -- -std=c++17 %mock_torch > %t.out 2> %t.err
// RUN: %FileCheck %s --implicit-check-not=error: --implicit-check-not=unknown-cuda-version < %t.out
// Also with the user's --cuda-path, the toolkit named in CUDA_PATH, and
// host-only.
// RUN: %tensor_tidy %s --checks='-*,tensor-*,clang-diagnostic-*' -- -std=c++17 %mock_torch --cuda-path=%cuda_path --cuda-host-only \
// RUN:   | %FileCheck %s --implicit-check-not=error: --implicit-check-not=unknown-cuda-version
// RUN: env CUDA_PATH=%cuda_path PATH=/usr/bin:/bin %tensor_tidy %s --checks='-*,tensor-*,clang-diagnostic-*' -- -std=c++17 %mock_torch \
// RUN:   | %FileCheck %s --implicit-check-not=error: --implicit-check-not=unknown-cuda-version
// CHECK: cuda-toolkit.cu:[[@LINE+19]]:5: warning: result of 'x.to(...)' is discarded

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <torch/torch.h>

namespace cg = cooperative_groups;

__global__ void scale(__half *data, float factor, int n) {
  auto block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = __float2half(__half2float(data[i]) * factor);
  block.sync();
}

void host(torch::Tensor x) {
  scale<<<1, 32>>>(nullptr, 2.0f, 0);
  x.to(torch::kCUDA);
}
