// A program built by clang, which writes no .debug_aranges (the address
// table libdw's lookups use): its records must still name its lines.
#include <torch/torch.h>

torch::Tensor pick(const torch::Tensor& x, const torch::Tensor& index) {
  return x.index_select(0, index);  // the cpu index meets a cuda tensor
}

int main() {
  auto x = torch::randn({4, 3}, torch::kCUDA);
  auto y = pick(x, torch::tensor({0, 2}));
  return y.defined() ? 0 : 1;
}
