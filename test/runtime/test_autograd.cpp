// Autograd: numerical gradient checks (central differences in float64) for
// every differentiable op, and the API rules (grad dtype, NoGradGuard,
// leaves, errors with PyTorch's wording, conversions).
#include <cmath>
#include <functional>

#include "test_util.h"

using namespace tt;
using tt_test::values;

namespace {

using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

// Compares the analytical gradient of sum(f(inputs) * w), w a fixed random
// weighting (so every output element matters differently), with central
// differences, element by element. Inputs are float64 leaves.
void gradcheck(const Fn& f, std::vector<Tensor> inputs, double eps = 1e-6, double tol = 1e-5) {
  for (auto& x : inputs) x = x.to(kDouble).detach().requires_grad_();
  Tensor out = f(inputs);
  ASSERT_TRUE(out.requires_grad()) << "output has no history";
  manual_seed(7);
  Tensor w = randn(out.sizes().vec(), kDouble);
  (out * w).sum().backward();
  for (size_t i = 0; i < inputs.size(); ++i) {
    ASSERT_TRUE(inputs[i].grad().defined()) << "input " << i << " got no gradient";
    EXPECT_EQ(inputs[i].grad().sizes(), inputs[i].sizes());
    const auto analytic = values<double>(inputs[i].grad());
    double* p = inputs[i].data_ptr<double>();
    NoGradGuard no_grad;
    for (int64_t k = 0; k < inputs[i].numel(); ++k) {
      const double orig = p[k];
      p[k] = orig + eps;
      const double hi = (f(inputs) * w).sum().item<double>();
      p[k] = orig - eps;
      const double lo = (f(inputs) * w).sum().item<double>();
      p[k] = orig;
      const double numeric = (hi - lo) / (2 * eps);
      EXPECT_NEAR(analytic[k], numeric, tol * (1 + std::abs(numeric))) << "input " << i << " element " << k;
    }
  }
}

Tensor r(std::vector<int64_t> s, double lo = -1, double hi = 1) { return rand(s, kDouble) * (hi - lo) + lo; }

class Autograd : public tt_test::RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    manual_seed(1);
  }
};

}  // namespace

TEST_F(Autograd, ArithmeticWithBroadcasting) {
  gradcheck([](auto& v) { return v[0] + v[1]; }, {r({2, 3}), r({3})});
  gradcheck([](auto& v) { return add(v[0], v[1], 2.5); }, {r({2, 1}), r({1, 3})});
  gradcheck([](auto& v) { return v[0] - v[1]; }, {r({4, 1, 2}), r({3, 1})});
  gradcheck([](auto& v) { return sub(v[0], v[1], 0.5); }, {r({2, 3}), r({2, 3})});
  gradcheck([](auto& v) { return v[0] * v[1]; }, {r({2, 3}), r({2, 1})});
  gradcheck([](auto& v) { return v[0] / v[1]; }, {r({2, 3}), r({3}, 1, 2)});
  gradcheck([](auto& v) { return -v[0]; }, {r({3})});
}

TEST_F(Autograd, ScalarOperands) {
  gradcheck([](auto& v) { return v[0] + 3; }, {r({3})});
  gradcheck([](auto& v) { return 2 - v[0]; }, {r({3})});
  gradcheck([](auto& v) { return v[0] * 1.5; }, {r({3})});
  gradcheck([](auto& v) { return v[0] / 4; }, {r({3})});
  gradcheck([](auto& v) { return 2 / v[0]; }, {r({3}, 1, 2)});
  gradcheck([](auto& v) { return pow(v[0], 3); }, {r({3})});
  gradcheck([](auto& v) { return pow(v[0], v[1]); }, {r({3}, 0.5, 2), r({3})});
}

TEST_F(Autograd, UnaryOps) {
  gradcheck([](auto& v) { return relu(v[0]); }, {tensor({-1.5, -0.2, 0.3, 2.0})});
  gradcheck([](auto& v) { return sigmoid(v[0]); }, {r({2, 3}, -3, 3)});
  gradcheck([](auto& v) { return tt::tanh(v[0]); }, {r({2, 3}, -2, 2)});
  gradcheck([](auto& v) { return tt::exp(v[0]); }, {r({2, 3})});
  gradcheck([](auto& v) { return tt::log(v[0]); }, {r({2, 3}, 0.5, 3)});
  gradcheck([](auto& v) { return tt::sqrt(v[0]); }, {r({2, 3}, 0.5, 3)});
  gradcheck([](auto& v) { return tt::abs(v[0]); }, {tensor({-1.5, -0.2, 0.3, 2.0})});
  gradcheck([](auto& v) { return clamp(v[0], -0.5, 0.5); }, {tensor({-1.5, -0.2, 0.3, 2.0})});
  gradcheck([](auto& v) { return clamp(v[0], std::nullopt, 0.0); }, {tensor({-1.5, -0.2, 0.3, 2.0})});
}

TEST_F(Autograd, MatmulAllShapes) {
  gradcheck([](auto& v) { return matmul(v[0], v[1]); }, {r({3, 4}), r({4, 2})});
  gradcheck([](auto& v) { return mm(v[0], v[1]); }, {r({3, 4}), r({4, 2})});
  gradcheck([](auto& v) { return matmul(v[0], v[1]); }, {r({4}), r({4})});
  gradcheck([](auto& v) { return matmul(v[0], v[1]); }, {r({4}), r({4, 2})});
  gradcheck([](auto& v) { return matmul(v[0], v[1]); }, {r({3, 4}), r({4})});
  gradcheck([](auto& v) { return matmul(v[0], v[1]); }, {r({2, 3, 4}), r({4, 2})});
  gradcheck([](auto& v) { return matmul(v[0], v[1]); }, {r({2, 1, 3, 4}), r({3, 4, 2})});
  gradcheck([](auto& v) { return matmul(v[0], v[1].t()); }, {r({3, 4}), r({2, 4})});
  gradcheck([](auto& v) { return matmul(v[0].t(), v[1]); }, {r({4, 3}), r({4, 2})});
}

// MmBackward computes only the gradients its inputs need (the first Linear
// of a network never needs its data's): with one side requiring grad, that
// side gets exactly the gradient it gets when both do, the other none.
TEST_F(Autograd, MatmulComputesOnlyTheGradientsItsInputsNeed) {
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> shapes = {
      {{3, 4}, {4, 2}}, {{4}, {4}}, {{4}, {4, 2}}, {{3, 4}, {4}}, {{2, 3, 4}, {4, 2}}};
  for (const auto& [sa, sb] : shapes) {
    Tensor a0 = randn(sa), b0 = randn(sb);
    Tensor a = a0.clone().requires_grad_(), b = b0.clone().requires_grad_();
    matmul(a, b).sum().backward();
    for (int side = 0; side < 2; ++side) {
      Tensor x = a0.clone(), y = b0.clone();
      (side == 0 ? x : y).requires_grad_();
      matmul(x, y).sum().backward();
      const Tensor& got = side == 0 ? x.grad() : y.grad();
      const Tensor& none = side == 0 ? y.grad() : x.grad();
      ASSERT_TRUE(got.defined());
      EXPECT_EQ(values<float>(got), values<float>(side == 0 ? a.grad() : b.grad()));
      EXPECT_FALSE(none.defined());
    }
  }
}

TEST_F(Autograd, TransposedOperandsMultiplyWithoutCopiesAndAgreeWithCopies) {
  // The BLAS path reads transposed views in place; compare with copies.
  for (ScalarType t : {kFloat, kDouble}) {
    Tensor a = randn({5, 7}, t), b = randn({3, 7}, t), c = randn({5, 3}, t);
    const auto expect = values<double>(matmul(a, b.t().contiguous()));
    const auto got = values<double>(matmul(a, b.t()));
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expect[i], 1e-5);
    const auto expect2 = values<double>(matmul(a.t().contiguous(), c));
    const auto got2 = values<double>(matmul(a.t(), c));
    for (size_t i = 0; i < got2.size(); ++i) EXPECT_NEAR(got2[i], expect2[i], 1e-5);
  }
  // A slice with a row stride larger than its width is read in place too.
  Tensor m = arange(24, kFloat).view({4, 6}).slice(1, 0, 3);
  EXPECT_EQ(values<float>(matmul(m, ones({3, 1}))), std::vector<float>({3, 21, 39, 57}));
}

TEST_F(Autograd, Reductions) {
  gradcheck([](auto& v) { return v[0].sum(); }, {r({2, 3})});
  gradcheck([](auto& v) { return v[0].sum({1}); }, {r({2, 3, 2})});
  gradcheck([](auto& v) { return v[0].sum({0, -1}, true); }, {r({2, 3, 2})});
  gradcheck([](auto& v) { return v[0].mean(); }, {r({2, 3})});
  gradcheck([](auto& v) { return v[0].mean({-1}); }, {r({2, 3})});
  gradcheck([](auto& v) { return v[0].mean({0}, true); }, {r({2, 3})});
}

TEST_F(Autograd, SoftmaxAndLogSoftmax) {
  gradcheck([](auto& v) { return softmax(v[0], 1); }, {r({3, 4}, -2, 2)});
  gradcheck([](auto& v) { return softmax(v[0], 0); }, {r({3, 4}, -2, 2)});
  gradcheck([](auto& v) { return log_softmax(v[0], -1); }, {r({3, 4}, -2, 2)});
  gradcheck([](auto& v) { return log_softmax(v[0], 1); }, {r({2, 3, 2}, -2, 2)});
}

TEST_F(Autograd, CatStackWhere) {
  gradcheck([](auto& v) { return cat({v[0], v[1]}, 0); }, {r({2, 3}), r({1, 3})});
  gradcheck([](auto& v) { return cat({v[0], v[1]}, 1); }, {r({2, 3}), r({2, 2})});
  gradcheck([](auto& v) { return stack({v[0], v[1]}, 1); }, {r({2, 3}), r({2, 3})});
  gradcheck([](auto& v) { return where(gt(v[0], 0), v[0], v[1]); }, {tensor({-1.0, 0.5, 2.0}), r({3})});
  gradcheck([](auto& v) { return where(lt(v[0], 0), v[0], 0.5); }, {tensor({-1.0, 0.5, 2.0})});
}

TEST_F(Autograd, Views) {
  gradcheck([](auto& v) { return v[0].view({3, 2}) * v[1]; }, {r({2, 3}), r({3, 2})});
  gradcheck([](auto& v) { return v[0].t().reshape({6}) * v[1]; }, {r({2, 3}), r({6})});
  gradcheck([](auto& v) { return v[0].transpose(0, 2); }, {r({2, 3, 4})});
  gradcheck([](auto& v) { return v[0].permute({2, 0, 1}); }, {r({2, 3, 4})});
  gradcheck([](auto& v) { return v[0].slice(1, 1, 4, 2); }, {r({2, 5})});
  gradcheck([](auto& v) { return v[0].narrow(0, 1, 2); }, {r({4, 2})});
  gradcheck([](auto& v) { return v[0].select(1, -1); }, {r({2, 3})});
  gradcheck([](auto& v) { return v[0].unsqueeze(1).squeeze(); }, {r({2, 3})});
  gradcheck([](auto& v) { return v[0].squeeze(0); }, {r({1, 3})});
  gradcheck([](auto& v) { return v[0].expand({4, 2, 3}); }, {r({2, 1})});
  gradcheck([](auto& v) { return v[0].flatten(1); }, {r({2, 3, 2})});
  gradcheck([](auto& v) { return v[0].t().contiguous() + 0; }, {r({2, 3})});
  gradcheck([](auto& v) { return v[0].clone(); }, {r({2, 3})});
}

TEST_F(Autograd, GradientFlowsBackThroughDtypeConversions) {
  Tensor x = tensor({1.0f, 2.0f, 3.0f}).requires_grad_();
  Tensor y = (x.to(kDouble) * tensor({1.0, 2.0, 3.0}, kDouble)).sum();
  y.backward();
  EXPECT_EQ(x.grad().dtype(), kFloat);  // the leaf's dtype, not float64
  EXPECT_EQ(values<float>(x.grad()), std::vector<float>({1, 2, 3}));
  Tensor h = tensor({1.0f, -2.0f}).requires_grad_();
  (h.half() * 2).sum().backward();
  EXPECT_EQ(h.grad().dtype(), kFloat);
  EXPECT_EQ(values<float>(h.grad()), std::vector<float>({2, 2}));
}

TEST_F(Autograd, GradientFlowsBackToTheSourceDevice) {
  set_cuda_emulation(1);
  Tensor w = tensor({1.0f, 2.0f}).requires_grad_();  // cpu leaf
  Tensor x = ones({2}, kCUDA);
  Tensor loss = (w.cuda() * x * 3).sum();
  EXPECT_EQ(loss.device(), Device("cuda:0"));
  loss.backward();
  EXPECT_EQ(w.grad().device(), Device(kCPU));
  EXPECT_EQ(values<float>(w.grad()), std::vector<float>({3, 3}));
}

TEST_F(Autograd, GradientsAccumulateAndMixedPrecisionLeafKeepsItsDtype) {
  Tensor w = tensor({1.0, 2.0}, kDouble).requires_grad_();
  Tensor x = tensor({3.0f, 4.0f});  // float32 operand promotes to float64
  (w * x).sum().backward();
  (w * x).sum().backward();
  EXPECT_EQ(w.grad().dtype(), kDouble);
  EXPECT_EQ(values<double>(w.grad()), std::vector<double>({6, 8}));
  Tensor f = tensor({1.0f, 2.0f}).requires_grad_();
  (f * tensor({2.0, 2.0}, kDouble)).sum().backward();  // float64 result, float32 leaf
  EXPECT_EQ(f.grad().dtype(), kFloat);
}

TEST_F(Autograd, SharedSubexpressionsSumTheirGradients) {
  Tensor x = tensor({2.0}).requires_grad_();
  Tensor y = x * x;
  Tensor z = y * x + y;  // x^3 + x^2 -> 3x^2 + 2x = 16
  z.sum().backward();
  EXPECT_FLOAT_EQ(x.grad().item<float>(), 16.0f);
}

TEST_F(Autograd, ExplicitGradientAndErrors) {
  Tensor x = tensor({1.0f, 2.0f}).requires_grad_();
  Tensor y = x * 2;
  EXPECT_TT_ERROR(y.backward(), Error, "grad can be implicitly created only for scalar outputs");
  EXPECT_TT_ERROR(y.backward(ones({3})), ShapeError,
                  "Mismatch in shape: grad_output[0] has a shape of [3] and output[0] has a shape of [2].");
  y.backward(tensor({1.0f, 10.0f}), /*retain_graph=*/true);
  EXPECT_EQ(values<float>(x.grad()), std::vector<float>({2, 20}));
  y.backward(tensor({1.0f, 1.0f}));
  EXPECT_EQ(values<float>(x.grad()), std::vector<float>({4, 22}));
  EXPECT_TT_ERROR(y.backward(tensor({1.0f, 1.0f})), Error,
                  "Trying to backward through the graph a second time (or directly access saved tensors after they "
                  "have already been freed). Saved intermediate values of the graph are freed when you call "
                  ".backward(). Specify retain_graph=true if you need to backward through the graph a second time.");
  Tensor c = ones({2});
  EXPECT_TT_ERROR(c.sum().backward(), Error, "element 0 of tensors does not require grad and does not have a grad_fn");
}

TEST_F(Autograd, RequiresGradRules) {
  EXPECT_TT_ERROR(arange(3).requires_grad_(), ValueError,
                  "Only Tensors of floating point and complex dtype can require gradients");
  Tensor x = ones({2}).requires_grad_();
  EXPECT_TRUE(x.is_leaf());
  Tensor y = x * 2;
  EXPECT_FALSE(y.is_leaf());
  EXPECT_TRUE(y.requires_grad());
  EXPECT_EQ(y.grad_fn_name(), "MulBackward0");
  EXPECT_TT_ERROR(y.requires_grad_(false), ValueError,
                  "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
                  "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
  EXPECT_TT_ERROR(x.add_(1), ValueError, "a leaf Variable that requires grad is being used in an in-place operation.");
  Tensor d = y.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(d.is_leaf());
  EXPECT_EQ(d.data_ptr(), y.data_ptr());  // shares storage
  EXPECT_FALSE((x > 0).requires_grad());  // comparisons are not differentiable
  EXPECT_FALSE(x.argmax().requires_grad());
}

TEST_F(Autograd, NoGradGuardRecordsNothingAndAllowsParameterUpdates) {
  Tensor x = ones({2}).requires_grad_();
  {
    NoGradGuard guard;
    EXPECT_FALSE(GradMode::is_enabled());
    Tensor y = x * 2;
    EXPECT_FALSE(y.requires_grad());
    EXPECT_FALSE(x.view({2, 1}).requires_grad());
    x.sub_(ones({2}), 0.5);  // what an optimizer step does
  }
  EXPECT_TRUE(GradMode::is_enabled());
  EXPECT_EQ(values<float>(x), std::vector<float>({0.5f, 0.5f}));
  EXPECT_TRUE((x * 2).requires_grad());
}

TEST_F(Autograd, BackwardOnALeafAndHalfLeaves) {
  Tensor x = ones({1}).requires_grad_();
  x.backward();
  EXPECT_EQ(values<float>(x.grad()), std::vector<float>({1}));
  Tensor h = ones({2}, kHalf).requires_grad_();
  (h * h).sum().backward();
  EXPECT_EQ(h.grad().dtype(), kHalf);
  EXPECT_EQ(values<float>(h.grad()), std::vector<float>({2, 2}));
}
