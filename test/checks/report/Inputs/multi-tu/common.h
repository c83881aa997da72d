// Multi-TU report test: a header both translation units include.
#include <torch/torch.h>
inline torch::Tensor to_half(torch::Tensor x) {
  x.to(torch::kHalf); // BUG: reported by both TUs, confirmed at run time
  return x;
}
