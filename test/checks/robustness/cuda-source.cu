// A CUDA source parsed by clang: kernels and host code together.
// RUN: %tensor_tidy %s --checks='-*,tensor-*' -- -x cuda --cuda-host-only -nocudainc -nocudalib -std=c++17 %mock_torch 2>&1 | %FileCheck %s
// CHECK-NOT: Stack dump
// CHECK: cuda-source.cu:[[@LINE+11]]:5: warning: result of 'x.to(...)' is discarded
// CHECK: cuda-source.cu:[[@LINE+11]]:29: warning: 'operator+' combines tensors on different devices

#define __global__ __attribute__((global))
#include <torch/torch.h>

__global__ void scale(float *data, int n) {
  (void)data, (void)n;
}

void host(torch::Tensor x) {
  x.to(torch::kCUDA);
  auto y = torch::ones({2}) + torch::ones({2}, torch::kCUDA);
  (void)y;
}
