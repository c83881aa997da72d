// A program outside this repository that uses the installed tt runtime: it
// is built by test/install/run.sh against an installed prefix, once with
// find_package(tt) and once with pkg-config, and must compute, find the
// emulated cuda device, and report a device bug at its own line.
#include <tt/tt.h>

#include <cstdio>
#include <string>

int main() {
  tt::Tensor a = tt::arange(6, tt::kFloat).reshape({2, 3});
  tt::Tensor b = tt::ones({3, 2});
  float total = tt::matmul(a, b).sum().item<float>();
  std::printf("sum %g\n", total);  // rows 0+1+2 and 3+4+5, twice: 30

  std::printf("cuda available %d\n", tt::cuda::is_available() ? 1 : 0);
  if (!tt::cuda::is_available())
    return 0;
  tt::Tensor on_gpu = a.to(tt::kCUDA);
  try {
    tt::Tensor mixed = on_gpu + a;  // the bug: cuda + cpu
    std::printf("no error\n");
    return 1;
  } catch (const tt::DeviceMismatchError& e) {
    std::printf("DeviceMismatchError: %s\n", e.what());
  }
  return 0;
}
