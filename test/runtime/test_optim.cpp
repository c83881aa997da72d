// Optimizers: the update rules step by step against hand computation
// (PyTorch's formulas), and convergence on a small regression.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "test_util.h"

using namespace tt;
using tt_test::values;

namespace {
class Optim : public tt_test::RuntimeTest {};

// One step with gradient g on parameter p, returning p afterwards.
template <class Opt, class Options>
std::vector<float> steps(Options o, std::vector<std::vector<float>> grads, float p0 = 1.0f) {
  Tensor p = tensor({p0}).requires_grad_();
  Opt opt({p}, o);
  for (auto& g : grads) {
    opt.zero_grad();
    (p * tensor(std::vector<float>(g))).sum().backward();  // d/dp = g
    opt.step();
  }
  return values<float>(p);
}

// A parameter of 80002 elements (more than one thread's grain) and four
// gradients, in `dtype`.
struct Trajectory {
  Tensor start;
  std::vector<Tensor> grads;
};
Trajectory trajectory(ScalarType dtype, uint64_t seed) {
  manual_seed(seed);
  Trajectory t{randn({2, 40001}).to(dtype), {}};
  for (int s = 0; s < 4; ++s) t.grads.push_back(randn({2, 40001}).to(dtype));
  return t;
}

// The parameter after Opt's steps along t, each gradient set as given.
template <class Opt, class Options>
Tensor optimized(const Options& o, const Trajectory& t) {
  Tensor p = t.start.clone().requires_grad_();
  Opt opt({p}, o);
  for (const Tensor& g : t.grads) {
    opt.zero_grad();
    p.mutable_grad() = g.clone();
    opt.step();
  }
  return p.detach();
}

// Elements whose bits differ: the sign of a zero and a NaN's payload count.
size_t differing(const Tensor& a, const Tensor& b) {
  if (a.sizes() != b.sizes() || a.dtype() != b.dtype()) return static_cast<size_t>(std::max(a.numel(), b.numel()));
  const Tensor x = a.cpu().contiguous(), y = b.cpu().contiguous();
  const size_t size = element_size(a.dtype());
  const auto *px = static_cast<const unsigned char*>(x.data_ptr()),
             *py = static_cast<const unsigned char*>(y.data_ptr());
  size_t n = 0;
  for (int64_t i = 0; i < a.numel(); ++i) n += std::memcmp(px + i * size, py + i * size, size) != 0;
  return n;
}

// The unfused SGD update along t, op by op (PyTorch's torch/optim/sgd.py).
Tensor unfused_sgd(const optim::SGDOptions& o, const Trajectory& t) {
  NoGradGuard no_grad;
  Tensor q = t.start.clone(), buf;
  for (const Tensor& g : t.grads) {
    Tensor d = o.weight_decay() != 0 ? add(g, q, o.weight_decay()) : g;
    if (!buf.defined())
      buf = d.clone();
    else
      buf.mul_(o.momentum()).add_(d, 1 - o.dampening());
    q.add_(o.nesterov() ? add(d, buf, o.momentum()) : buf, -o.lr());
  }
  return q;
}

// The unfused Adam update along t (PyTorch's torch/optim/adam.py, single-tensor).
Tensor unfused_adam(const optim::AdamOptions& o, const Trajectory& t) {
  NoGradGuard no_grad;
  const auto [b1, b2] = o.betas();
  Tensor q = t.start.clone(), m = zeros_like(q), v = zeros_like(q), vmax = zeros_like(q);
  int64_t step = 0;
  for (const Tensor& grad : t.grads) {
    ++step;
    Tensor g = o.weight_decay() != 0 ? add(grad, q, o.weight_decay()) : grad;
    m.mul_(b1).add_(g, 1 - b1);
    v.mul_(b2).add_(g * g, 1 - b2);
    const double bc1 = 1 - std::pow(b1, static_cast<double>(step));
    const double bc2 = 1 - std::pow(b2, static_cast<double>(step));
    Tensor vv = v;
    if (o.amsgrad()) {
      vmax.copy_(where(gt(vmax, v), vmax, v));
      vv = vmax;
    }
    q.add_(m / ((vv.sqrt() / std::sqrt(bc2)) + o.eps()), -o.lr() / bc1);
  }
  return q;
}

const std::vector<optim::SGDOptions> kSgdOptions{
    optim::SGDOptions(0.05).momentum(0.9), optim::SGDOptions(0.1).momentum(0.8).dampening(0.3),
    optim::SGDOptions(0.01).momentum(0.9).nesterov(true).weight_decay(1e-4),
    optim::SGDOptions(0.2).momentum(0.5).dampening(0.1).weight_decay(0.05)};
const std::vector<optim::AdamOptions> kAdamOptions{
    optim::AdamOptions(1e-3), optim::AdamOptions(0.01).betas({0.8, 0.99}).eps(1e-6).weight_decay(0.1),
    optim::AdamOptions(5e-3).amsgrad(true),
    optim::AdamOptions(0.02).betas({0.0, 0.9}).weight_decay(1e-3).amsgrad(true)};
}  // namespace

// zero_grad as LibTorch 2.x: gradients undefined by default (step() skips a
// parameter without one), zeroed in place with set_to_none = false.
TEST_F(Optim, ZeroGradSetsToNoneByDefault) {
  Tensor p = tensor({1.0f}).requires_grad_();
  optim::SGD opt({p}, optim::SGDOptions(0.1));
  (p * 2).sum().backward();
  opt.zero_grad(/*set_to_none=*/false);
  ASSERT_TRUE(p.grad().defined());
  EXPECT_EQ(p.grad().item<float>(), 0.0f);
  opt.zero_grad();
  EXPECT_FALSE(p.grad().defined());
  opt.step();  // no gradient: p unchanged
  EXPECT_EQ(p.item<float>(), 1.0f);
}

TEST_F(Optim, SgdPlainMomentumNesterovWeightDecay) {
  EXPECT_FLOAT_EQ(steps<optim::SGD>(optim::SGDOptions(0.1), {{2}})[0], 1 - 0.2f);
  // momentum 0.9: buf1 = g1 = 2, p = 1 - 0.1*2 = 0.8; buf2 = 0.9*2 + 1 = 2.8, p = 0.8 - 0.28 = 0.52
  EXPECT_NEAR(steps<optim::SGD>(optim::SGDOptions(0.1).momentum(0.9), {{2}, {1}})[0], 0.52f, 1e-6);
  // dampening 0.5: buf2 = 0.9*2 + 0.5*1 = 2.3 -> p = 0.8 - 0.23
  EXPECT_NEAR(steps<optim::SGD>(optim::SGDOptions(0.1).momentum(0.9).dampening(0.5), {{2}, {1}})[0], 0.57f, 1e-6);
  // nesterov: d = g + 0.9*buf; step 1: buf=2, d=3.8 -> p = 0.62
  EXPECT_NEAR(steps<optim::SGD>(optim::SGDOptions(0.1).momentum(0.9).nesterov(true), {{2}})[0], 0.62f, 1e-6);
  // weight decay 0.5: d = 2 + 0.5*1 = 2.5 -> p = 0.75
  EXPECT_NEAR(steps<optim::SGD>(optim::SGDOptions(0.1).weight_decay(0.5), {{2}})[0], 0.75f, 1e-6);
  EXPECT_TT_ERROR(optim::SGD({ones({1})}, -1.0), ValueError, "Invalid learning rate: -1.000000");
  EXPECT_TT_ERROR(optim::SGD({}, 0.1), ValueError, "optimizer got an empty parameter list");
}

// From its second step SGD with momentum runs one fused kernel per plain
// parameter (optimizer_step.cpp); its results must be the unfused in-place
// ops' bit for bit, in every floating dtype, with every option, over a
// parameter large enough to be split across threads.
TEST_F(Optim, SgdFusedStepIsTheUnfusedOpsBitForBit) {
  for (ScalarType dtype : {kFloat, kDouble, kHalf, kBFloat16}) {
    for (const auto& o : kSgdOptions) {
      SCOPED_TRACE(std::string(to_string(dtype)) + " lr " + std::to_string(o.lr()));
      const Trajectory t = trajectory(dtype, 7);
      EXPECT_EQ(differing(optimized<optim::SGD>(o, t), unfused_sgd(o, t)), 0u);
    }
  }
}

// A gradient over its parameter's memory one element before it takes the
// unfused ops, whether it is a view of the same storage or a from_blob
// tensor over the same buffer: the fused kernel would read elements it had
// already written. The result is the ops'.
TEST_F(Optim, SgdStepWithAGradientOverlappingItsParameterIsTheUnfusedOps) {
  const int64_t n = 100'001;
  manual_seed(8);
  const Tensor start = randn({n + 1});
  const optim::SGDOptions o = optim::SGDOptions(0.1).momentum(0.9);
  NoGradGuard no_grad;
  Tensor ref = start.clone(), q = ref.narrow(0, 1, n), buf;
  for (int s = 0; s < 3; ++s) {
    const Tensor g = ref.narrow(0, 0, n);
    if (!buf.defined())
      buf = g.clone();
    else
      buf.mul_(o.momentum()).add_(g, 1 - o.dampening());
    q.add_(buf, -o.lr());
  }
  for (bool blob : {false, true}) {
    SCOPED_TRACE(blob ? "from_blob" : "views");
    Tensor storage = start.clone();
    float* base = storage.data_ptr<float>();
    Tensor p = blob ? from_blob(base + 1, {n}) : storage.narrow(0, 1, n);
    optim::SGD opt({p}, o);
    for (int s = 0; s < 3; ++s) {
      p.mutable_grad() = blob ? from_blob(base, {n}) : storage.narrow(0, 0, n);
      opt.step();
    }
    EXPECT_EQ(differing(storage, ref), 0u);
  }
}

// Adam runs one fused kernel per plain parameter; its results must be the
// unfused ops' (PyTorch's torch/optim/adam.py, single-tensor) bit for bit
// (float16 with eps 1e-8, which rounds to 0 there, reaches NaN in both).
TEST_F(Optim, AdamFusedStepIsTheUnfusedOpsBitForBit) {
  for (ScalarType dtype : {kFloat, kDouble, kHalf, kBFloat16}) {
    for (const auto& o : kAdamOptions) {
      SCOPED_TRACE(std::string(to_string(dtype)) + " lr " + std::to_string(o.lr()));
      const Trajectory t = trajectory(dtype, 11);
      EXPECT_EQ(differing(optimized<optim::Adam>(o, t), unfused_adam(o, t)), 0u);
    }
  }
}

// Float steps meet subnormals when a gradient stops: the momentum buffer
// and Adam's averages decay through float's subnormal range, and the square
// of a gradient of 1e-20 is one. The kernels compute groups whose state
// holds such values in double (optimizer_step.cpp); the results must still
// be the unfused ops' bit for bit, which compute them in float. In the
// first half, gradients cycle through magnitudes from normal to the
// smallest subnormal from the first step, so nearly every group's state is
// tiny; in the second half the state starts normal (float groups meeting
// subnormal gradients later) but for one element in 37, so tiny and plain
// groups alternate. Zeros, an infinity and a NaN are among them (NaNs of
// one payload: which of two different NaNs survives is the compiler's
// choice); gradients stop on most steps.
TEST_F(Optim, FusedStepsAreTheUnfusedOpsThroughSubnormals) {
  const int64_t n = 80'002;
  const float kScales[] = {1e-3f, 0.0f, 1e-37f, 1e-40f, 1e-20f, 1e-44f, 1e-30f, 1.0f, 1e-38f, 3e-19f};
  std::mt19937 rng(3);
  std::normal_distribution<float> normal;
  std::vector<float> start(n), first(n), later(n);
  for (int64_t i = 0; i < n; ++i) {
    start[i] = normal(rng) * (i % 13 == 5 ? 1e-39f : 1.0f);
    later[i] = normal(rng) * kScales[i % 10];
    first[i] = i < n / 2 ? later[i] : i % 37 == 0 ? 1e-40f : normal(rng);
  }
  first[17] = later[17] = std::numeric_limits<float>::infinity();
  first[29] = later[29] = std::numeric_limits<float>::quiet_NaN();
  Trajectory t{tensor(start), {tensor(first)}};
  const Tensor g = tensor(later), none = zeros_like(g);
  for (int s = 1; s < 40; ++s) t.grads.push_back(s % 10 == 0 ? g : s % 10 == 5 ? g * 1e-3 : none);
  for (const auto& o : kSgdOptions) {
    SCOPED_TRACE("SGD lr " + std::to_string(o.lr()));
    EXPECT_EQ(differing(optimized<optim::SGD>(o, t), unfused_sgd(o, t)), 0u);
  }
  for (const auto& o : kAdamOptions) {
    SCOPED_TRACE("Adam lr " + std::to_string(o.lr()));
    EXPECT_EQ(differing(optimized<optim::Adam>(o, t), unfused_adam(o, t)), 0u);
  }
}

TEST_F(Optim, AdamMatchesTheFormula) {
  // First step: m = 0.1 g, v = 0.001 g^2, mhat = g, vhat = g^2: p -= lr * g / (|g| + eps).
  EXPECT_NEAR(steps<optim::Adam>(optim::AdamOptions(0.1), {{2}})[0], 1 - 0.1f, 1e-6);
  // Two steps by hand.
  const double b1 = 0.9, b2 = 0.999, lr = 0.01, eps = 1e-8;
  double p = 1, m = 0, v = 0;
  const double gs[] = {2, -1};
  for (int t = 1; t <= 2; ++t) {
    const double g = gs[t - 1] + 0.1 * p;  // weight decay 0.1
    m = b1 * m + (1 - b1) * g;
    v = b2 * v + (1 - b2) * g * g;
    p -= lr / (1 - std::pow(b1, t)) * m / (std::sqrt(v) / std::sqrt(1 - std::pow(b2, t)) + eps);
  }
  EXPECT_NEAR(steps<optim::Adam>(optim::AdamOptions(lr).weight_decay(0.1), {{2}, {-1}})[0], p, 1e-6);
  EXPECT_NEAR(steps<optim::Adam>(optim::AdamOptions(lr).amsgrad(true), {{2}, {-1}})[0],
              steps<optim::Adam>(optim::AdamOptions(lr).amsgrad(true), {{2}, {-1}})[0], 0);  // deterministic
  EXPECT_TT_ERROR(optim::Adam({ones({1})}, optim::AdamOptions(0.1).betas({1.0, 0.9})), ValueError,
                  "Invalid beta parameter at index 0: 1.000000");
}

TEST_F(Optim, ParametersWithoutGradientsAreSkipped) {
  Tensor a = ones({1}).requires_grad_(), b = ones({1}).requires_grad_();
  optim::SGD opt({a, b}, 0.5);
  (a * 3).sum().backward();
  opt.step();
  EXPECT_FLOAT_EQ(a.item<float>(), -0.5f);
  EXPECT_FLOAT_EQ(b.item<float>(), 1.0f);
}

TEST_F(Optim, BothConvergeOnLinearRegressionOnAnEmulatedGpu) {
  set_cuda_emulation(1);
  manual_seed(0);
  Tensor x = randn({64, 3});
  Tensor y = matmul(x, tensor({{1.0f}, {-2.0f}, {0.5f}})) + 0.3;
  for (int which = 0; which < 2; ++which) {
    nn::Linear model(3, 1);
    model.to(kCUDA);  // after construction, before the optimizer
    std::unique_ptr<optim::Optimizer> opt;
    if (which == 0)
      opt = std::make_unique<optim::SGD>(model.parameters(), optim::SGDOptions(0.1).momentum(0.9));
    else
      opt = std::make_unique<optim::Adam>(model.parameters(), optim::AdamOptions(0.05));
    Tensor xc = x.cuda(), yc = y.cuda();
    double loss = 0;
    for (int i = 0; i < 300; ++i) {
      opt->zero_grad();
      Tensor l = nn::functional::mse_loss(model(xc), yc);
      l.backward();
      opt->step();
      loss = l.item<double>();
    }
    EXPECT_LT(loss, 1e-4) << (which ? "Adam" : "SGD");
    EXPECT_NEAR(values<float>(model.weight)[1], -2.0f, 1e-2);
    EXPECT_EQ(model.weight.grad().device(), Device("cuda:0"));
  }
}
