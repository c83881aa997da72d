// Half precision on cuda: clean programs compute (LibTorch 1.13's cpu build
// lacks the float16 kernels cuda has; tensor-run computes those in float32),
// a model in half fed float32 is a dtype bug.
#include "cases.h"

using cases::cuda;
using cases::expect;

TT_CASE(half_clean) {
  torch::manual_seed(0);
  torch::nn::Linear fc(8, 4);
  auto x = torch::randn({2, 8});
  auto reference = torch::softmax(fc->forward(x), 1);
  fc->to(cuda(), torch::kHalf);
  auto y = torch::softmax(fc->forward(x.to(cuda(), torch::kHalf)), 1);
  expect(y.is_cuda() && y.scalar_type() == torch::kHalf, "a float16 result on cuda");
  expect(torch::allclose(y.cpu().to(torch::kFloat), reference, 1e-2, 1e-2), "float16 within tolerance");
  y.sum().backward();
  expect(fc->weight.grad().scalar_type() == torch::kHalf, "float16 gradients");
  auto b = torch::randn({4, 4}, cuda()).to(torch::kBFloat16);
  expect(torch::mm(b, b).scalar_type() == torch::kBFloat16, "bfloat16 matmul");
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, 2, 3));
  conv->to(cuda(), torch::kHalf);
  expect(conv->forward(torch::randn({1, 1, 5, 5}, cuda()).to(torch::kHalf)).scalar_type() == torch::kHalf,
         "float16 convolution");
}

TT_CASE(half_bug) {
  torch::nn::Linear fc(8, 4);
  fc->to(cuda(), torch::kHalf);
  auto x = torch::randn({2, 8}, cuda());
  auto y = fc->forward(x); // BUG(tensor-mixed-dtype)
  auto w = torch::randn({8, 3}, cuda());
  auto z = torch::mm(x.to(torch::kHalf), w); // BUG(tensor-mixed-dtype)
  expect(y.defined() && z.defined(), "record mode continues");
}

// Element-wise ops promote: a float16 tensor plus a float32 one is fine.
TT_CASE(promotion_clean) {
  auto a = torch::ones({3}, cuda()).to(torch::kHalf);
  auto b = torch::ones({3}, cuda());
  expect((a + b).scalar_type() == torch::kFloat, "type promotion");
  expect((a * 2.5).scalar_type() == torch::kHalf, "a Python scalar does not promote");
}
