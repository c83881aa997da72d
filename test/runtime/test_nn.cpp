// nn: modules, registration, in-place moves, the module-call device and
// dtype checks (raise and record), and the losses against hand-computed
// values and PyTorch's.
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "test_util.h"

using namespace tt;
using tt_test::values;
namespace F = tt::nn::functional;

namespace {

class NN : public tt_test::RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    manual_seed(3);
  }
};

struct Net : nn::Module {
  Net() {
    fc1 = register_module("fc1", std::make_shared<nn::Linear>(4, 3));
    fc2 = register_module("fc2", nn::Linear(3, 2));
    scale = register_buffer("scale", ones({2}));
  }
  Tensor forward(const Tensor& x, SourceLoc loc = SourceLoc::current()) override {
    return fc2->forward(relu(fc1->forward(x, loc)), loc) * scale;
  }
  std::shared_ptr<nn::Linear> fc1, fc2;
  Tensor scale;
};

}  // namespace

TEST_F(NN, LinearShapesInitAndForward) {
  nn::Linear fc(784, 10);
  EXPECT_EQ(fc.weight.sizes(), IntArrayRef({10, 784}));
  EXPECT_EQ(fc.bias.sizes(), IntArrayRef({10}));
  EXPECT_TRUE(fc.weight.requires_grad());
  const double bound = 1.0 / std::sqrt(784.0);
  EXPECT_LE(fc.weight.abs().max().item<double>(), bound);
  EXPECT_GT(fc.weight.abs().max().item<double>(), bound * 0.9);  // uniform over the whole range
  Tensor y = fc(ones({5, 784}));
  EXPECT_EQ(y.sizes(), IntArrayRef({5, 10}));
  // y = x W^T + b, checked by hand for one row.
  Tensor expect = fc.weight.sum({1}) + fc.bias;
  for (size_t i = 0; i < 10; ++i) EXPECT_NEAR(values<float>(y)[i], values<float>(expect)[i], 1e-5);
  nn::Linear nobias(3, 2, false);
  EXPECT_FALSE(nobias.bias.defined());
  EXPECT_EQ(nobias.parameters().size(), 1u);
}

TEST_F(NN, RegistrationNamesAndTraversal) {
  Net net;
  std::vector<std::string> names;
  for (auto& [n, t] : net.named_parameters()) names.push_back(n);
  EXPECT_EQ(names, std::vector<std::string>({"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"}));
  EXPECT_EQ(net.parameters().size(), 4u);
  EXPECT_EQ(net.named_buffers().at(0).first, "scale");
  EXPECT_EQ(net.children().size(), 2u);
  EXPECT_EQ(net.name(), "Net");
  EXPECT_EQ(net.fc1->name(), "Linear");
  EXPECT_TT_ERROR(net.register_parameter("fc1.w", ones({1})), ValueError,
                  "parameter name can't contain \".\", got: fc1.w");
  EXPECT_TT_ERROR(net.register_buffer("scale", ones({1})), ValueError,
                  "attempt to register buffer 'scale' which already exists");
}

TEST_F(NN, TrainEvalAndDropout) {
  nn::Sequential seq(nn::Linear(4, 4), nn::Dropout(0.5), nn::ReLU());
  EXPECT_TRUE(seq.is_training());
  seq.eval();
  EXPECT_FALSE(seq[1]->is_training());
  nn::Dropout drop(0.5);
  Tensor x = ones({10000});
  Tensor y = drop(x);
  const auto v = values<float>(y);
  size_t zeros_seen = 0;
  for (float f : v) {
    EXPECT_TRUE(f == 0.0f || f == 2.0f);
    zeros_seen += f == 0.0f;
  }
  EXPECT_NEAR(static_cast<double>(zeros_seen) / 10000.0, 0.5, 0.03);
  drop.eval();
  EXPECT_EQ(values<float>(drop(x)), values<float>(x));
  EXPECT_TT_ERROR(nn::Dropout(1.5), ValueError, "dropout probability has to be between 0 and 1, but got 1.500000");
}

TEST_F(NN, ActivationsFlattenSequential) {
  Tensor x = tensor({-1.0f, 0.0f, 2.0f});
  EXPECT_EQ(values<float>(nn::ReLU()(x)), std::vector<float>({0, 0, 2}));
  EXPECT_NEAR(values<float>(nn::Sigmoid()(x))[2], 1 / (1 + std::exp(-2.0)), 1e-6);
  EXPECT_NEAR(values<float>(nn::Tanh()(x))[0], std::tanh(-1.0), 1e-6);
  EXPECT_EQ(nn::Flatten()(zeros({2, 1, 28, 28})).sizes(), IntArrayRef({2, 784}));
  nn::Sequential seq(nn::Flatten(), nn::Linear(784, 16), nn::ReLU(), nn::Linear(16, 10));
  EXPECT_EQ(seq.size(), 4u);
  EXPECT_EQ(seq(zeros({3, 1, 28, 28})).sizes(), IntArrayRef({3, 10}));
  EXPECT_EQ(seq.named_parameters().at(0).first, "1.weight");
}

TEST_F(NN, ModulesWithoutAForwardOverrideSayHowToCallThem) {
  struct Plain : nn::Module {
    Tensor forward(Tensor x) { return x; }  // LibTorch style: its own signature
  } plain;
  EXPECT_EQ(plain.forward(ones({1})).numel(), 1);
  try {
    plain(ones({1}));
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("Module Plain does not override forward(const Tensor&, SourceLoc)"), std::string::npos);
  }
}

TEST_F(NN, ToMovesParametersInPlaceAndEveryHandleSeesIt) {
  set_cuda_emulation(1);
  Net net;
  Tensor w = net.fc1->weight;  // a handle taken before the move
  auto params = net.parameters();
  nn::Module& same = net.to(kCUDA);
  EXPECT_EQ(&same, static_cast<nn::Module*>(&net));
  EXPECT_EQ(w.device(), Device("cuda:0"));
  EXPECT_EQ(params[3].device(), Device("cuda:0"));
  EXPECT_EQ(net.scale.device(), Device("cuda:0"));
  EXPECT_TRUE(w.requires_grad());
  EXPECT_TRUE(w.is_leaf());
  net.to(kDouble);
  EXPECT_EQ(w.dtype(), kDouble);
  EXPECT_EQ(w.device(), Device("cuda:0"));
  net.to(Device(kCPU), kFloat);
  EXPECT_EQ(w.dtype(), kFloat);
  EXPECT_EQ(w.device(), Device(kCPU));
  net.half();
  EXPECT_EQ(net.fc2->bias.dtype(), kHalf);
  EXPECT_TT_ERROR(net.to(kLong), ValueError,
                  "nn.Module.to only accepts floating point dtypes, but got desired dtype=Long");
}

TEST_F(NN, GradientsReachEveryParameterAndZeroGradClearsThem) {
  Net net;
  Tensor loss = net(randn({8, 4})).pow(2).mean();
  loss.backward();
  for (auto& [n, p] : net.named_parameters()) {
    ASSERT_TRUE(p.grad().defined()) << n;
    EXPECT_EQ(p.grad().sizes(), p.sizes()) << n;
  }
  EXPECT_GT(net.fc2->weight.grad().abs().sum().item<float>(), 0);
  // LibTorch 1.13's behaviour, kept under set_to_none = false: zeroed in place.
  const void* kept = net.fc2->weight.grad().data_ptr();
  net.zero_grad(/*set_to_none=*/false);
  for (auto& p : net.parameters()) EXPECT_EQ(p.grad().abs().sum().item<float>(), 0);
  EXPECT_EQ(net.fc2->weight.grad().data_ptr(), kept);
  // LibTorch 2.x's default: undefined, and the next backward() stores its
  // gradient (not added to stale values).
  net.zero_grad();
  for (auto& p : net.parameters()) EXPECT_FALSE(p.grad().defined());
  Tensor x = randn({8, 4});
  net(x).pow(2).mean().backward();
  Tensor once = net.fc2->weight.grad().clone();
  net.zero_grad();
  net(x).pow(2).mean().backward();
  EXPECT_EQ((net.fc2->weight.grad() - once).abs().max().item<float>(), 0.0f);
}

TEST_F(NN, UnmovedInputRaisesNamingTheModuleAndBothDevices) {
  set_cuda_emulation(1);
  nn::Linear fc(4, 2);
  fc.to(kCUDA);
  Tensor x = ones({1, 4});
  EXPECT_TT_ERROR(fc.forward(x), DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! "
                  "(module Linear's parameters are on cuda:0, its input is on cpu)");
  EXPECT_TT_ERROR(fc(x), DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! "
                  "(module Linear's parameters are on cuda:0, its input is on cpu)");
  Net net;  // user module via operator(): checked at the outer call
  net.to(kCUDA);
  EXPECT_TT_ERROR(net(x), DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! "
                  "(module Net's parameters are on cuda:0, its input is on cpu)");
  EXPECT_EQ(fc(x.to(kCUDA)).device(), Device("cuda:0"));  // the fix
}

TEST_F(NN, MixedDtypeRaisesPyTorchsMessage) {
  nn::Linear fc(4, 2);
  fc.to(kHalf);
  EXPECT_TT_ERROR(fc.forward(ones({1, 4})), DTypeMismatchError, "mat1 and mat2 must have the same dtype");
  EXPECT_EQ(fc(ones({1, 4}, kHalf)).dtype(), kHalf);
}

TEST_F(NN, RecordModeRecordsUnmovedInputAndMixedDtypeAtTheCallSiteAndContinues) {
  tt_test::TempFile log("nn-record");
  set_validation_mode(ValidationMode::Record, log.path);
  set_cuda_emulation(1);
  nn::Linear fc(4, 2);
  fc.to(kCUDA);
  const unsigned line1 = __LINE__ + 1;
  Tensor y = fc.forward(ones({3, 4}));
  EXPECT_EQ(y.device(), Device("cuda:0"));  // the input was moved and the call went on
  fc.to(kHalf);
  const unsigned line2 = __LINE__ + 1;
  Tensor z = fc(ones({3, 4}, kCUDA));
  EXPECT_EQ(z.dtype(), kHalf);
  const auto lines = log.lines();
  ASSERT_EQ(lines.size(), 2u);
  auto r1 = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(r1["check"], "tensor-unmoved-input");
  EXPECT_EQ(r1["file"], __FILE__);
  EXPECT_EQ(r1["line"], line1);
  EXPECT_EQ(r1["op"], "Linear.forward");
  EXPECT_EQ(r1["devices"], nlohmann::json({"cuda:0", "cpu"}));
  auto r2 = nlohmann::json::parse(lines[1]);
  EXPECT_EQ(r2["check"], "tensor-mixed-dtype");
  EXPECT_EQ(r2["line"], line2);
  EXPECT_EQ(r2["message"], "mat1 and mat2 must have the same dtype");
  EXPECT_EQ(r2["dtypes"], nlohmann::json({"float32", "float16"}));
}

TEST_F(NN, MseLoss) {
  Tensor a = tensor({1.0f, 2.0f, 3.0f}), b = tensor({1.0f, 0.0f, 0.0f});
  EXPECT_FLOAT_EQ(F::mse_loss(a, b).item<float>(), 13.0f / 3);
  EXPECT_FLOAT_EQ(F::mse_loss(a, b, nn::kSum).item<float>(), 13.0f);
  EXPECT_EQ(values<float>(F::mse_loss(a, b, nn::kNone)), std::vector<float>({0, 4, 9}));
}

TEST_F(NN, CrossEntropyAndNllLossMatchPyTorch) {
  Tensor logits = tensor({{1.0f, 2.0f, 0.5f}, {0.1f, 0.2f, 3.0f}});
  Tensor target = tensor({1, 2});
  // torch.nn.functional.cross_entropy(logits, target) = 0.2662... (computed by hand:
  // mean(-log softmax(row)[t])).
  const double l0 = -(2.0 - std::log(std::exp(1.0) + std::exp(2.0) + std::exp(0.5)));
  const double l1 = -(3.0 - std::log(std::exp(0.1) + std::exp(0.2) + std::exp(3.0)));
  EXPECT_NEAR(F::cross_entropy(logits, target).item<double>(), (l0 + l1) / 2, 1e-6);
  EXPECT_NEAR(F::cross_entropy(logits, target, {}, nn::kSum).item<double>(), l0 + l1, 1e-6);
  auto none = values<float>(F::cross_entropy(logits, target, {}, nn::kNone));
  EXPECT_NEAR(none[0], l0, 1e-6);
  EXPECT_NEAR(none[1], l1, 1e-6);
  // Class weights: weighted mean divides by the targets' summed weights.
  Tensor w = tensor({1.0f, 2.0f, 0.5f});
  EXPECT_NEAR(F::cross_entropy(logits, target, w).item<double>(), (2 * l0 + 0.5 * l1) / 2.5, 1e-6);
  // ignore_index skips a row.
  EXPECT_NEAR(F::cross_entropy(logits, tensor({1, -100})).item<double>(), l0, 1e-6);
  EXPECT_TT_ERROR(F::nll_loss(logits, tensor({0.0f, 1.0f})), DTypeMismatchError,
                  "expected scalar type Long but found Float");
  EXPECT_TT_ERROR(F::cross_entropy(logits, tensor({0, 3})), ValueError, "Target 3 is out of bounds.");
  // Gradient: softmax - onehot, over the batch.
  Tensor l = logits.clone().requires_grad_();
  F::cross_entropy(l, target).backward();
  auto g = values<float>(l.grad());
  auto p = values<float>(softmax(logits, 1));
  EXPECT_NEAR(g[1], (p[1] - 1) / 2, 1e-6);
  EXPECT_NEAR(g[0], p[0] / 2, 1e-6);
}

// nll_loss against its definition, computed here in double from the
// values: every reduction, class weights, ignored rows, a strided input,
// value and gradient: the loss kernels' path (cpu tensors). The composite
// that device memory takes is checked against these kernels by
// CudaKernels.NllLossOnTheDeviceMatchesTheCpuKernels.
TEST_F(NN, NllLossMatchesItsDefinitionWithWeightsAndIgnoredRows) {
  manual_seed(5);
  const int64_t n = 37, c = 11, ignore = 4;
  for (ScalarType dtype : {kFloat, kDouble}) {
    SCOPED_TRACE(to_string(dtype));
    // A transposed view: the kernels read x through its strides.
    const Tensor x0 = log_softmax(randn({c, n}).to(dtype), 0).t();
    const Tensor t = (rand({n}) * c).to(kLong);
    const Tensor w = (rand({c}) + 0.5).to(dtype);
    const auto xv = values<double>(x0.contiguous().to(kDouble));
    const auto tv = values<int64_t>(t);
    const auto wv = values<double>(w.to(kDouble));
    double sum = 0, total = 0;
    std::vector<double> rows(n, 0.0);
    for (int64_t i = 0; i < n; ++i) {
      if (tv[i] == ignore) continue;
      rows[i] = -wv[tv[i]] * xv[i * c + tv[i]];
      sum += rows[i];
      total += wv[tv[i]];
    }
    const double tol = dtype == kFloat ? 1e-5 : 1e-12;
    for (nn::Reduction r : {nn::kMean, nn::kSum, nn::kNone}) {
      Tensor x = x0.detach().requires_grad_();
      Tensor loss = F::nll_loss(x, t, w, r, ignore);
      if (r == nn::kNone) {
        const auto got = values<double>(loss.to(kDouble));
        ASSERT_EQ(got.size(), static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(got[i], rows[i], tol) << "row " << i;
        loss.sum().backward();
      } else {
        EXPECT_NEAR(loss.item<double>(), r == nn::kSum ? sum : sum / total, tol);
        loss.backward();
      }
      const auto g = values<double>(x.grad().to(kDouble));
      for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < c; ++k) {
          const double want = k != tv[i] || tv[i] == ignore ? 0.0 : -wv[k] / (r == nn::kMean ? total : 1.0);
          EXPECT_NEAR(g[i * c + k], want, tol) << "grad [" << i << ", " << k << "]";
        }
    }
  }
  // A 1-D input is one sample: a 0-dim loss for every reduction.
  EXPECT_EQ(F::nll_loss(tensor({-1.0f, -2.0f}), tensor({1}), {}, nn::kNone).dim(), 0);
  EXPECT_FLOAT_EQ(F::nll_loss(tensor({-1.0f, -2.0f}), tensor({1}), {}, nn::kNone).item<float>(), 2.0f);
}

// A class whose log-probability underflowed to -inf is not the target's
// concern: PyTorch reads only x[n, target_n], so the loss stays finite.
TEST_F(NN, NllLossReadsOnlyTheTargetsLogProbability) {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor x = tensor({{-inf, -0.5f, -1.0f}, {-2.0f, -inf, -0.25f}}).requires_grad_();
  Tensor loss = F::nll_loss(x, tensor({1, 2}));
  EXPECT_FLOAT_EQ(loss.item<float>(), 0.375f);
  loss.backward();
  EXPECT_EQ(values<float>(x.grad()), std::vector<float>({0, -0.5f, 0, 0, 0, -0.5f}));
}

TEST_F(NN, CrossEntropyTargetOnAnotherDeviceIsAMixedDeviceError) {
  set_cuda_emulation(1);
  Tensor logits = zeros({2, 3}, kCUDA);
  EXPECT_THROW(F::cross_entropy(logits, tensor({0, 1})), DeviceMismatchError);
}

TEST_F(NN, BinaryCrossEntropyWithLogitsIsStable) {
  Tensor x = tensor({-100.0f, 0.0f, 3.0f}), t = tensor({0.0f, 1.0f, 1.0f});
  auto v = values<float>(F::binary_cross_entropy_with_logits(x, t, {}, {}, nn::kNone));
  EXPECT_NEAR(v[0], 0.0, 1e-6);  // naive log(1 - sigmoid(-100)) would be fine, log(sigmoid) would not
  EXPECT_NEAR(v[1], std::log(2.0), 1e-6);
  EXPECT_NEAR(v[2], std::log1p(std::exp(-3.0)), 1e-6);
  EXPECT_NEAR(
      values<float>(F::binary_cross_entropy_with_logits(tensor({100.0f}), tensor({0.0f}), {}, {}, nn::kNone))[0], 100.0,
      1e-4);
  // pos_weight scales the positive term: t * pw * -log(sigmoid(x)).
  EXPECT_NEAR(F::binary_cross_entropy_with_logits(tensor({0.0f}), tensor({1.0f}), {}, tensor({3.0f})).item<float>(),
              3 * std::log(2.0), 1e-6);
  EXPECT_TT_ERROR(F::binary_cross_entropy_with_logits(x, tensor({1.0f})), ValueError,
                  "Target size ([1]) must be the same as input size ([3])");
}
