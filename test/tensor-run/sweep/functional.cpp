// The op sweep's functional family: every public function of
// torch::nn::functional in LibTorch 1.13 (functional/*.h outside namespace
// detail), called as a program calls it: `namespace F =
// torch::nn::functional;`, inputs and weights created on the device (weights
// as leaves that require grad, as a hand-written layer holds them), forward
// and backward. Variants that real programs use are cases of their own,
// named "F::name(variant)".
#include <tuple>

#include "sweep.h"

namespace F = torch::nn::functional;
using sweep::Results;
using torch::Tensor;

namespace {

Tensor plus_minus_one(torch::IntArrayRef sizes, torch::Device device) {
  return sweep::randint(2, sizes, device).to(torch::kFloat) * 2 - 1;
}

}  // namespace

// ============================================================================
// Activations
// ============================================================================

SWEEP_CASE("functional", "F::celu") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::celu(x, F::CELUFuncOptions().alpha(0.5))}, {x});
}

SWEEP_CASE("functional", "F::elu") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::elu(x), F::elu(x, F::ELUFuncOptions().alpha(2.0))}, {x});
}

SWEEP_CASE("functional", "F::elu(inplace)") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  Tensor w = sweep::randn({4, 4}, device, true);
  Tensor y = F::elu(x.matmul(w), F::ELUFuncOptions().inplace(true));
  return sweep::forward_backward({y}, {x, w});
}

SWEEP_CASE("functional", "F::gelu") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::gelu(x), F::gelu(x, F::GELUFuncOptions().approximate("tanh"))}, {x});
}

SWEEP_CASE("functional", "F::glu") {
  Tensor x = sweep::randn({2, 6, 4}, device, true);
  return sweep::forward_backward({F::glu(x), F::glu(x, F::GLUFuncOptions(1))}, {x});
}

SWEEP_RANDOM_CASE("functional", "F::gumbel_softmax") {
  Tensor logits = sweep::randn({4, 5}, device, true);
  Tensor soft = F::gumbel_softmax(logits, F::GumbelSoftmaxFuncOptions().tau(0.5));
  Tensor hard = F::gumbel_softmax(logits, F::GumbelSoftmaxFuncOptions().hard(true).dim(1));
  return sweep::forward_backward({soft * sweep::randn({4, 5}, device), hard}, {logits});
}

SWEEP_CASE("functional", "F::hardshrink") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::hardshrink(x, F::HardshrinkFuncOptions().lambda(0.3))}, {x});
}

SWEEP_CASE("functional", "F::hardtanh") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::hardtanh(x, F::HardtanhFuncOptions().min_val(-0.5).max_val(0.8))}, {x});
}

SWEEP_CASE("functional", "F::leaky_relu") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::leaky_relu(x, F::LeakyReLUFuncOptions().negative_slope(0.2))}, {x});
}

SWEEP_CASE("functional", "F::leaky_relu(inplace)") {
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  Tensor w = sweep::randn({4, 3, 3, 3}, device, true);
  Tensor y = F::leaky_relu(F::conv2d(x, w), F::LeakyReLUFuncOptions().negative_slope(0.2).inplace(true));
  return sweep::forward_backward({y}, {x, w});
}

SWEEP_CASE("functional", "F::log_softmax") {
  Tensor x = sweep::randn({2, 5, 3}, device, true);
  return sweep::forward_backward({F::log_softmax(x, 1), F::log_softmax(x, F::LogSoftmaxFuncOptions(-1))}, {x});
}

SWEEP_CASE("functional", "F::log_softmax(dtype)") {
  // Mixed precision: a float16 input, a float32 result (on cuda, ATen takes
  // _log_softmax's half_to_float kernel; the cpu converts the input first).
  Tensor x = sweep::randn({2, 5}, device, true);
  Tensor y = F::log_softmax(x.to(torch::kHalf), F::LogSoftmaxFuncOptions(1).dtype(torch::kFloat));
  return sweep::forward_backward({y}, {x});
}

SWEEP_CASE("functional", "F::logsigmoid") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::logsigmoid(x)}, {x});
}

SWEEP_CASE("functional", "F::mish") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::mish(x)}, {x});
}

SWEEP_CASE("functional", "F::multi_head_attention_forward") {
  // A hand-written self-attention layer: packed in-projection, out-projection.
  const int64_t E = 8, H = 2;
  Tensor x = sweep::randn({5, 2, E}, device, true);
  Tensor in_w = sweep::randn({3 * E, E}, device, true);
  Tensor in_b = sweep::randn({3 * E}, device, true);
  Tensor out_w = sweep::randn({E, E}, device, true);
  Tensor out_b = sweep::randn({E}, device, true);
  Tensor attn_mask = torch::ones({5, 5}, torch::kBool).triu(1).to(device);
  auto [out, weights] = F::multi_head_attention_forward(
      x, x, x,
      F::MultiheadAttentionForwardFuncOptions(E, H, in_w, in_b, Tensor(), Tensor(), false, 0.0, out_w, out_b)
          .attn_mask(attn_mask));
  return sweep::forward_backward({out, weights}, {x, in_w, in_b, out_w, out_b});
}

SWEEP_CASE("functional", "F::multi_head_attention_forward(separate projections)") {
  // Separate q/k/v weights, bias_k/bias_v, a key padding mask, per-head weights.
  const int64_t E = 8, H = 2;
  Tensor q = sweep::randn({4, 2, E}, device, true);
  Tensor kv = sweep::randn({6, 2, E}, device, true);
  Tensor q_w = sweep::randn({E, E}, device, true);
  Tensor k_w = sweep::randn({E, E}, device, true);
  Tensor v_w = sweep::randn({E, E}, device, true);
  Tensor in_b = sweep::randn({3 * E}, device, true);
  Tensor bias_k = sweep::randn({1, 1, E}, device, true);
  Tensor bias_v = sweep::randn({1, 1, E}, device, true);
  Tensor out_w = sweep::randn({E, E}, device, true);
  Tensor out_b = sweep::randn({E}, device, true);
  Tensor padding = torch::zeros({2, 6}, torch::kBool);
  padding[1].slice(0, 4) = true;
  padding = padding.to(device);
  auto [out, weights] = F::multi_head_attention_forward(
      q, kv, kv,
      F::MultiheadAttentionForwardFuncOptions(E, H, Tensor(), in_b, bias_k, bias_v, true, 0.0, out_w, out_b)
          .use_separate_proj_weight(true)
          .q_proj_weight(q_w)
          .k_proj_weight(k_w)
          .v_proj_weight(v_w)
          .key_padding_mask(padding)
          .average_attn_weights(false));
  return sweep::forward_backward({out, weights}, {q, kv, q_w, k_w, v_w, in_b, bias_k, bias_v, out_w, out_b});
}

SWEEP_CASE("functional", "F::prelu") {
  Tensor x = sweep::randn({2, 3, 4, 4}, device, true);
  Tensor w = (sweep::rand({3}, device) * 0.5).requires_grad_(true);
  return sweep::forward_backward({F::prelu(x, w)}, {x, w});
}

SWEEP_CASE("functional", "F::relu") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::relu(x)}, {x});
}

SWEEP_CASE("functional", "F::relu(inplace)") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  Tensor w = sweep::randn({4, 5}, device, true);
  Tensor b = sweep::randn({5}, device, true);
  Tensor y = F::relu(F::linear(x, w.t(), b), F::ReLUFuncOptions().inplace(true));
  return sweep::forward_backward({y}, {x, w, b});
}

SWEEP_CASE("functional", "F::relu6") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::relu6(x * 5)}, {x});
}

SWEEP_RANDOM_CASE("functional", "F::rrelu(training)") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::rrelu(x, F::RReLUFuncOptions().lower(0.1).upper(0.3).training(true))}, {x});
}

SWEEP_CASE("functional", "F::rrelu") {
  // Not training (the default): the slope is the mean of lower and upper.
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::rrelu(x, F::RReLUFuncOptions().lower(0.1).upper(0.3))}, {x});
}

SWEEP_CASE("functional", "F::selu") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::selu(x)}, {x});
}

SWEEP_CASE("functional", "F::silu") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::silu(x)}, {x});
}

SWEEP_CASE("functional", "F::softmax") {
  Tensor x = sweep::randn({2, 5, 3}, device, true);
  Tensor y = F::softmax(x, F::SoftmaxFuncOptions(1)) * sweep::randn({2, 5, 3}, device);
  return sweep::forward_backward({y}, {x});
}

SWEEP_CASE("functional", "F::softmax(dtype)") {
  // In double; and a float16 input with a float32 result (on cuda, ATen's
  // half-to-float softmax kernel).
  Tensor x = sweep::randn({2, 5}, device, true);
  Tensor y = F::softmax(x, F::SoftmaxFuncOptions(-1).dtype(torch::kDouble)) * sweep::randn({2, 5}, device);
  Tensor h = F::softmax(x.to(torch::kHalf), F::SoftmaxFuncOptions(1).dtype(torch::kFloat));
  h = h * sweep::randn({2, 5}, device);
  return sweep::forward_backward({y, h}, {x});
}

SWEEP_CASE("functional", "F::softmin") {
  Tensor x = sweep::randn({2, 5}, device, true);
  Tensor y = F::softmin(x, F::SoftminFuncOptions(1)) * sweep::randn({2, 5}, device);
  return sweep::forward_backward({y}, {x});
}

SWEEP_CASE("functional", "F::softplus") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::softplus(x * 4, F::SoftplusFuncOptions().beta(2).threshold(5))}, {x});
}

SWEEP_CASE("functional", "F::softshrink") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::softshrink(x, F::SoftshrinkFuncOptions(0.3))}, {x});
}

SWEEP_CASE("functional", "F::softsign") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::softsign(x)}, {x});
}

SWEEP_CASE("functional", "F::tanhshrink") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::tanhshrink(x)}, {x});
}

SWEEP_CASE("functional", "F::threshold") {
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({F::threshold(x, F::ThresholdFuncOptions(0.2, -1.0))}, {x});
}

// ============================================================================
// Normalization
// ============================================================================

SWEEP_CASE("functional", "F::batch_norm") {
  // Training: batch statistics, running statistics updated in place.
  Tensor x = sweep::randn({3, 4, 5, 5}, device, true);
  Tensor running_mean = torch::zeros({4}).to(device);
  Tensor running_var = torch::ones({4}).to(device);
  Tensor w = sweep::rand({4}, device, true);
  Tensor b = sweep::randn({4}, device, true);
  Tensor y = F::batch_norm(x, running_mean, running_var,
                           F::BatchNormFuncOptions().weight(w).bias(b).training(true).momentum(0.2));
  y = y * sweep::randn({3, 4, 5, 5}, device);
  return sweep::forward_backward({y, running_mean, running_var}, {x, w, b});
}

SWEEP_CASE("functional", "F::batch_norm(eval)") {
  Tensor x = sweep::randn({3, 4, 5}, device, true);
  Tensor running_mean = sweep::randn({4}, device);
  Tensor running_var = sweep::rand({4}, device) + 0.5;
  Tensor w = sweep::rand({4}, device, true);
  Tensor b = sweep::randn({4}, device, true);
  Tensor y = F::batch_norm(x, running_mean, running_var, F::BatchNormFuncOptions().weight(w).bias(b).eps(1e-3));
  return sweep::forward_backward({y}, {x, w, b});
}

SWEEP_CASE("functional", "F::group_norm") {
  Tensor x = sweep::randn({2, 6, 4, 4}, device, true);
  Tensor w = sweep::rand({6}, device, true);
  Tensor b = sweep::randn({6}, device, true);
  Tensor y = F::group_norm(x, F::GroupNormFuncOptions(3).weight(w).bias(b)) * sweep::randn({2, 6, 4, 4}, device);
  return sweep::forward_backward({y}, {x, w, b});
}

SWEEP_CASE("functional", "F::instance_norm") {
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  Tensor w = sweep::rand({3}, device, true);
  Tensor b = sweep::randn({3}, device, true);
  Tensor y = F::instance_norm(x, F::InstanceNormFuncOptions().weight(w).bias(b)) * sweep::randn({2, 3, 5, 5}, device);
  return sweep::forward_backward({y}, {x, w, b});
}

SWEEP_CASE("functional", "F::instance_norm(running stats)") {
  Tensor x = sweep::randn({2, 3, 6}, device, true);
  Tensor running_mean = torch::zeros({3}).to(device);
  Tensor running_var = torch::ones({3}).to(device);
  Tensor y = F::instance_norm(
      x, F::InstanceNormFuncOptions().running_mean(running_mean).running_var(running_var).momentum(0.3));
  y = y * sweep::randn({2, 3, 6}, device);
  return sweep::forward_backward({y, running_mean, running_var}, {x});
}

SWEEP_CASE("functional", "F::layer_norm") {
  Tensor x = sweep::randn({2, 5, 8}, device, true);
  Tensor w = sweep::rand({8}, device, true);
  Tensor b = sweep::randn({8}, device, true);
  Tensor y = F::layer_norm(x, F::LayerNormFuncOptions({8}).weight(w).bias(b).eps(1e-6));
  Tensor plain = F::layer_norm(x, F::LayerNormFuncOptions({5, 8}));
  Tensor r = sweep::randn({2, 5, 8}, device);
  return sweep::forward_backward({y * r, plain * r}, {x, w, b});
}

SWEEP_CASE("functional", "F::local_response_norm") {
  Tensor x = sweep::randn({2, 5, 4, 4}, device, true);
  return sweep::forward_backward({F::local_response_norm(x, F::LocalResponseNormFuncOptions(3).alpha(1e-2))}, {x});
}

SWEEP_CASE("functional", "F::local_response_norm(3d input)") {
  Tensor x = sweep::randn({2, 5, 6}, device, true);
  return sweep::forward_backward({F::local_response_norm(x, F::LocalResponseNormFuncOptions(2))}, {x});
}

SWEEP_CASE("functional", "F::normalize") {
  Tensor x = sweep::randn({3, 6}, device, true);
  Tensor y = F::normalize(x, F::NormalizeFuncOptions().p(2).dim(1));
  Tensor y1 = F::normalize(x, F::NormalizeFuncOptions().p(1).dim(0));
  Tensor r = sweep::randn({3, 6}, device);
  return sweep::forward_backward({y * r, y1 * r}, {x});
}

// ============================================================================
// Convolutions
// ============================================================================

SWEEP_CASE("functional", "F::conv1d") {
  Tensor x = sweep::randn({2, 3, 8}, device, true);
  Tensor w = sweep::randn({4, 3, 3}, device, true);
  Tensor b = sweep::randn({4}, device, true);
  Tensor y = F::conv1d(x, w, F::Conv1dFuncOptions().bias(b).padding(1));
  return sweep::forward_backward({y}, {x, w, b});
}

SWEEP_CASE("functional", "F::conv1d(depthwise, dilated, same)") {
  Tensor x = sweep::randn({2, 4, 9}, device, true);
  Tensor w = sweep::randn({4, 1, 3}, device, true);
  Tensor y = F::conv1d(x, w, F::Conv1dFuncOptions().groups(4).dilation(2).padding(torch::kSame));
  return sweep::forward_backward({y}, {x, w});
}

SWEEP_CASE("functional", "F::conv2d") {
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  Tensor w = sweep::randn({4, 3, 3, 3}, device, true);
  Tensor b = sweep::randn({4}, device, true);
  Tensor y = F::conv2d(x, w, F::Conv2dFuncOptions().bias(b).padding(1));
  return sweep::forward_backward({y}, {x, w, b});
}

SWEEP_CASE("functional", "F::conv2d(strided, valid)") {
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  Tensor w = sweep::randn({4, 3, 3, 3}, device, true);
  Tensor y = F::conv2d(x, w, F::Conv2dFuncOptions().stride(2));
  Tensor valid = F::conv2d(x, w, F::Conv2dFuncOptions().padding(torch::kValid));
  return sweep::forward_backward({y, valid}, {x, w});
}

SWEEP_CASE("functional", "F::conv2d(depthwise)") {
  Tensor x = sweep::randn({2, 4, 6, 6}, device, true);
  Tensor w = sweep::randn({4, 1, 3, 3}, device, true);
  Tensor y = F::conv2d(x, w, F::Conv2dFuncOptions().padding(1).groups(4));
  return sweep::forward_backward({y}, {x, w});
}

SWEEP_CASE("functional", "F::conv2d(dilated)") {
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  Tensor w = sweep::randn({4, 3, 3, 3}, device, true);
  Tensor b = sweep::randn({4}, device, true);
  Tensor y = F::conv2d(x, w, F::Conv2dFuncOptions().bias(b).padding(2).dilation(2));
  return sweep::forward_backward({y}, {x, w, b});
}

SWEEP_CASE("functional", "F::conv2d(grouped)") {
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  Tensor w = sweep::randn({6, 2, 3, 3}, device, true);
  Tensor y = F::conv2d(x, w, F::Conv2dFuncOptions().padding(1).groups(2));
  return sweep::forward_backward({y}, {x, w});
}

SWEEP_CASE("functional", "F::conv3d") {
  Tensor x = sweep::randn({2, 2, 5, 5, 5}, device, true);
  Tensor w = sweep::randn({3, 2, 3, 3, 3}, device, true);
  Tensor b = sweep::randn({3}, device, true);
  Tensor y = F::conv3d(x, w, F::Conv3dFuncOptions().bias(b).padding(1).stride({1, 2, 2}));
  return sweep::forward_backward({y}, {x, w, b});
}

SWEEP_CASE("functional", "F::conv3d(depthwise, dilated)") {
  Tensor x = sweep::randn({2, 3, 5, 5, 5}, device, true);
  Tensor w = sweep::randn({3, 1, 3, 3, 3}, device, true);
  Tensor y = F::conv3d(x, w, F::Conv3dFuncOptions().groups(3).dilation(2).padding(2));
  return sweep::forward_backward({y}, {x, w});
}

SWEEP_CASE("functional", "F::conv_transpose1d") {
  Tensor x = sweep::randn({2, 4, 5}, device, true);
  Tensor w = sweep::randn({4, 2, 4}, device, true);  // (in, out, k)
  Tensor b = sweep::randn({2}, device, true);
  Tensor y = F::conv_transpose1d(x, w, F::ConvTranspose1dFuncOptions().bias(b).stride(2).padding(1));
  return sweep::forward_backward({y}, {x, w, b});
}

SWEEP_CASE("functional", "F::conv_transpose2d") {
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  Tensor w = sweep::randn({3, 4, 3, 3}, device, true);
  Tensor b = sweep::randn({4}, device, true);
  Tensor y = F::conv_transpose2d(x, w, F::ConvTranspose2dFuncOptions().bias(b).padding(1));
  return sweep::forward_backward({y}, {x, w, b});
}

SWEEP_CASE("functional", "F::conv_transpose2d(stride2)") {
  // DCGAN: kernel 4, stride 2, padding 1.
  Tensor x = sweep::randn({2, 4, 4, 4}, device, true);
  Tensor w = sweep::randn({4, 3, 4, 4}, device, true);
  Tensor y = F::conv_transpose2d(x, w, F::ConvTranspose2dFuncOptions().stride(2).padding(1));
  return sweep::forward_backward({y}, {x, w});
}

SWEEP_CASE("functional", "F::conv_transpose2d(output_padding, groups, dilation)") {
  Tensor x = sweep::randn({2, 4, 4, 4}, device, true);
  Tensor w = sweep::randn({4, 1, 3, 3}, device, true);  // groups 2: out 2
  Tensor y =
      F::conv_transpose2d(x, w, F::ConvTranspose2dFuncOptions().stride(2).padding(1).output_padding(1).groups(2));
  Tensor dilated = F::conv_transpose2d(x, w, F::ConvTranspose2dFuncOptions().groups(2).dilation(2));
  return sweep::forward_backward({y, dilated}, {x, w});
}

SWEEP_CASE("functional", "F::conv_transpose3d") {
  Tensor x = sweep::randn({2, 4, 3, 3, 3}, device, true);
  Tensor w = sweep::randn({4, 2, 2, 2, 2}, device, true);
  Tensor b = sweep::randn({2}, device, true);
  Tensor y = F::conv_transpose3d(x, w, F::ConvTranspose3dFuncOptions().bias(b).stride(2));
  return sweep::forward_backward({y}, {x, w, b});
}

// ============================================================================
// Distances
// ============================================================================

SWEEP_CASE("functional", "F::cosine_similarity") {
  Tensor x1 = sweep::randn({3, 6}, device, true);
  Tensor x2 = sweep::randn({3, 6}, device, true);
  Tensor y = F::cosine_similarity(x1, x2, F::CosineSimilarityFuncOptions().dim(1));
  // Broadcast: one query against a batch.
  Tensor q = sweep::randn({1, 6}, device, true);
  Tensor z = F::cosine_similarity(q, x2);
  return sweep::forward_backward({y, z}, {x1, x2, q});
}

SWEEP_CASE("functional", "F::pairwise_distance") {
  Tensor x1 = sweep::randn({3, 6}, device, true);
  Tensor x2 = sweep::randn({3, 6}, device, true);
  Tensor y = F::pairwise_distance(x1, x2);
  Tensor y1 = F::pairwise_distance(x1, x2, F::PairwiseDistanceFuncOptions().p(1).keepdim(true));
  return sweep::forward_backward({y, y1}, {x1, x2});
}

SWEEP_CASE("functional", "F::pdist") {
  Tensor x = sweep::randn({4, 5}, device, true);
  return sweep::forward_backward({F::pdist(x), F::pdist(x, 1.0)}, {x});
}

// ============================================================================
// Dropout
// ============================================================================

SWEEP_RANDOM_CASE("functional", "F::dropout") {
  Tensor x = sweep::randn({4, 8}, device, true);
  return sweep::forward_backward({F::dropout(x, F::DropoutFuncOptions().p(0.3))}, {x});
}

SWEEP_CASE("functional", "F::dropout(not training)") {
  Tensor x = sweep::randn({4, 8}, device, true);
  return sweep::forward_backward({F::dropout(x, F::DropoutFuncOptions().p(0.3).training(false))}, {x});
}

SWEEP_RANDOM_CASE("functional", "F::dropout(inplace)") {
  Tensor x = sweep::randn({4, 6}, device, true);
  Tensor w = sweep::randn({6, 8}, device, true);
  Tensor y = F::dropout(x.matmul(w), F::DropoutFuncOptions().p(0.5).inplace(true));
  return sweep::forward_backward({y}, {x, w});
}

SWEEP_RANDOM_CASE("functional", "F::dropout2d") {
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  return sweep::forward_backward({F::dropout2d(x, F::Dropout2dFuncOptions().p(0.5))}, {x});
}

SWEEP_RANDOM_CASE("functional", "F::dropout3d") {
  Tensor x = sweep::randn({2, 3, 3, 4, 4}, device, true);
  return sweep::forward_backward({F::dropout3d(x, F::Dropout3dFuncOptions().p(0.5))}, {x});
}

SWEEP_RANDOM_CASE("functional", "F::alpha_dropout") {
  Tensor x = sweep::randn({4, 8}, device, true);
  return sweep::forward_backward({F::alpha_dropout(x, F::AlphaDropoutFuncOptions().p(0.2).training(true))}, {x});
}

SWEEP_CASE("functional", "F::alpha_dropout(not training)") {
  Tensor x = sweep::randn({4, 8}, device, true);
  return sweep::forward_backward({F::alpha_dropout(x, F::AlphaDropoutFuncOptions().p(0.2))}, {x});
}

SWEEP_RANDOM_CASE("functional", "F::feature_alpha_dropout") {
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  Tensor y = F::feature_alpha_dropout(x, F::FeatureAlphaDropoutFuncOptions().p(0.2).training(true));
  return sweep::forward_backward({y}, {x});
}

SWEEP_CASE("functional", "F::feature_alpha_dropout(not training)") {
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  return sweep::forward_backward({F::feature_alpha_dropout(x, F::FeatureAlphaDropoutFuncOptions().p(0.2))}, {x});
}

// ============================================================================
// Embeddings
// ============================================================================

SWEEP_CASE("functional", "F::embedding") {
  Tensor weight = sweep::randn({10, 4}, device, true);
  Tensor indices = sweep::randint(10, {2, 5}, device);
  Tensor y = F::embedding(indices, weight, F::EmbeddingFuncOptions().padding_idx(0));
  return sweep::forward_backward({y}, {weight});
}

SWEEP_CASE("functional", "F::embedding(max_norm)") {
  // max_norm renormalises the looked-up rows in place: on a weight that
  // needs no grad (a frozen table), as LibTorch requires.
  Tensor weight = sweep::randn({10, 4}, device);
  Tensor indices = sweep::randint(10, {6}, device);
  Tensor y = F::embedding(indices, weight, F::EmbeddingFuncOptions().max_norm(1.0));
  return {y, weight};
}

SWEEP_CASE("functional", "F::embedding_bag") {
  Tensor weight = sweep::randn({10, 4}, device, true);
  Tensor indices = sweep::randint(10, {8}, device);
  Tensor offsets = torch::tensor({0, 3, 5}, torch::kLong).to(device);
  Tensor mean = F::embedding_bag(indices, weight, F::EmbeddingBagFuncOptions().offsets(offsets));
  Tensor max = F::embedding_bag(indices, weight, F::EmbeddingBagFuncOptions().offsets(offsets).mode(torch::kMax));
  return sweep::forward_backward({mean, max}, {weight});
}

SWEEP_CASE("functional", "F::embedding_bag(sum, per_sample_weights, include_last_offset)") {
  Tensor weight = sweep::randn({10, 4}, device, true);
  Tensor indices = sweep::randint(10, {8}, device);
  Tensor offsets = torch::tensor({0, 2, 6, 8}, torch::kLong).to(device);
  Tensor per_sample = sweep::rand({8}, device, true);
  Tensor y = F::embedding_bag(indices, weight,
                              F::EmbeddingBagFuncOptions()
                                  .offsets(offsets)
                                  .mode(torch::kSum)
                                  .per_sample_weights(per_sample)
                                  .include_last_offset(true));
  return sweep::forward_backward({y}, {weight, per_sample});
}

SWEEP_CASE("functional", "F::embedding_bag(2d, padding_idx)") {
  Tensor weight = sweep::randn({10, 4}, device, true);
  Tensor indices = sweep::randint(10, {3, 4}, device);
  Tensor y = F::embedding_bag(indices, weight, F::EmbeddingBagFuncOptions().padding_idx(2).mode(torch::kSum));
  return sweep::forward_backward({y}, {weight});
}

SWEEP_CASE("functional", "F::one_hot") {
  Tensor labels = sweep::randint(5, {2, 3}, device);
  Tensor y = F::one_hot(labels, 6);
  Tensor inferred = F::one_hot(torch::tensor({0, 3, 1}, torch::kLong).to(device));
  // As a float target, as programs use it.
  Tensor logits = sweep::randn({2, 3, 6}, device, true);
  Tensor loss = F::binary_cross_entropy_with_logits(logits, y.to(torch::kFloat));
  return sweep::forward_backward({y, inferred, loss}, {logits});
}

// ============================================================================
// Fold, linear, padding, pixel shuffle
// ============================================================================

SWEEP_CASE("functional", "F::fold") {
  Tensor x = sweep::randn({2, 3 * 4, 12}, device, true);
  return sweep::forward_backward({F::fold(x, F::FoldFuncOptions({4, 5}, {2, 2}))}, {x});
}

SWEEP_CASE("functional", "F::fold(strided, padded)") {
  // The inverse of the unfold below: blocks of 3x3, stride 2, padding 1.
  Tensor x = sweep::randn({2, 2 * 9, 9}, device, true);
  Tensor y = F::fold(x, F::FoldFuncOptions({5, 5}, {3, 3}).stride(2).padding(1));
  return sweep::forward_backward({y}, {x});
}

SWEEP_CASE("functional", "F::unfold") {
  Tensor x = sweep::randn({2, 2, 5, 5}, device, true);
  Tensor y = F::unfold(x, F::UnfoldFuncOptions({3, 3}).stride(2).padding(1));
  Tensor dilated = F::unfold(x, F::UnfoldFuncOptions(2).dilation(2));
  return sweep::forward_backward({y, dilated}, {x});
}

SWEEP_CASE("functional", "F::linear") {
  Tensor x = sweep::randn({2, 5, 8}, device, true);
  Tensor w = sweep::randn({4, 8}, device, true);
  Tensor b = sweep::randn({4}, device, true);
  return sweep::forward_backward({F::linear(x, w, b), F::linear(x, w)}, {x, w, b});
}

SWEEP_CASE("functional", "F::bilinear") {
  Tensor x1 = sweep::randn({3, 4}, device, true);
  Tensor x2 = sweep::randn({3, 5}, device, true);
  Tensor w = sweep::randn({2, 4, 5}, device, true);
  Tensor b = sweep::randn({2}, device, true);
  return sweep::forward_backward({F::bilinear(x1, x2, w, b), F::bilinear(x1, x2, w)}, {x1, x2, w, b});
}

SWEEP_CASE("functional", "F::pad") {
  Tensor x = sweep::randn({2, 3, 4, 5}, device, true);
  Tensor constant = F::pad(x, F::PadFuncOptions({1, 2, 0, 1}).value(-1.5));
  Tensor reflect = F::pad(x, F::PadFuncOptions({2, 1, 1, 2}).mode(torch::kReflect));
  Tensor replicate = F::pad(x, F::PadFuncOptions({1, 1, 2, 2}).mode(torch::kReplicate));
  Tensor circular = F::pad(x, F::PadFuncOptions({1, 2, 1, 0}).mode(torch::kCircular));
  Tensor cropped = F::pad(x, F::PadFuncOptions({-1, 0, 0, -1}));
  return sweep::forward_backward({constant, reflect, replicate, circular, cropped}, {x});
}

SWEEP_CASE("functional", "F::pad(1d, 3d)") {
  Tensor x1 = sweep::randn({2, 3, 6}, device, true);
  Tensor x3 = sweep::randn({2, 2, 3, 4, 4}, device, true);
  Tensor r1 = F::pad(x1, F::PadFuncOptions({2, 3}).mode(torch::kReflect));
  Tensor c1 = F::pad(x1, F::PadFuncOptions({2, 1}).mode(torch::kCircular));
  Tensor p1 = F::pad(x1, F::PadFuncOptions({1, 1}).mode(torch::kReplicate));
  Tensor r3 = F::pad(x3, F::PadFuncOptions({1, 1, 1, 1, 1, 1}).mode(torch::kReflect));
  Tensor p3 = F::pad(x3, F::PadFuncOptions({1, 0, 0, 1, 1, 0}).mode(torch::kReplicate));
  Tensor c3 = F::pad(x3, F::PadFuncOptions({1, 1, 1, 0, 0, 1}).mode(torch::kCircular));
  return sweep::forward_backward({r1, c1, p1, r3, p3, c3}, {x1, x3});
}

SWEEP_CASE("functional", "F::pixel_shuffle") {
  Tensor x = sweep::randn({2, 8, 3, 3}, device, true);
  return sweep::forward_backward({F::pixel_shuffle(x, F::PixelShuffleFuncOptions(2))}, {x});
}

SWEEP_CASE("functional", "F::pixel_unshuffle") {
  Tensor x = sweep::randn({2, 2, 6, 6}, device, true);
  return sweep::forward_backward({F::pixel_unshuffle(x, F::PixelUnshuffleFuncOptions(3))}, {x});
}

// ============================================================================
// Losses
// ============================================================================

SWEEP_CASE("functional", "F::binary_cross_entropy") {
  Tensor logits = sweep::randn({4, 3}, device, true);
  Tensor target = sweep::rand({4, 3}, device);
  Tensor weight = sweep::rand({4, 3}, device);
  Tensor loss = F::binary_cross_entropy(torch::sigmoid(logits), target);
  Tensor weighted = F::binary_cross_entropy(torch::sigmoid(logits), target,
                                            F::BinaryCrossEntropyFuncOptions().weight(weight).reduction(torch::kSum));
  return sweep::forward_backward({loss, weighted}, {logits});
}

SWEEP_CASE("functional", "F::binary_cross_entropy_with_logits") {
  Tensor x = sweep::randn({4, 3}, device, true);
  Tensor target = sweep::randint(2, {4, 3}, device).to(torch::kFloat);
  Tensor pos_weight = sweep::rand({3}, device) * 3;
  Tensor loss = F::binary_cross_entropy_with_logits(x, target);
  Tensor weighted = F::binary_cross_entropy_with_logits(
      x, target, F::BinaryCrossEntropyWithLogitsFuncOptions().pos_weight(pos_weight).reduction(torch::kNone));
  return sweep::forward_backward({loss, weighted}, {x});
}

SWEEP_CASE("functional", "F::cosine_embedding_loss") {
  Tensor x1 = sweep::randn({4, 6}, device, true);
  Tensor x2 = sweep::randn({4, 6}, device, true);
  Tensor y = plus_minus_one({4}, device);
  Tensor loss = F::cosine_embedding_loss(x1, x2, y, F::CosineEmbeddingLossFuncOptions().margin(0.1));
  return sweep::forward_backward({loss}, {x1, x2});
}

SWEEP_CASE("functional", "F::cross_entropy") {
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randint(5, {4}, device);
  return sweep::forward_backward({F::cross_entropy(x, target)}, {x});
}

SWEEP_CASE("functional", "F::cross_entropy(weight, ignore_index, label_smoothing)") {
  Tensor x = sweep::randn({6, 5}, device, true);
  Tensor target = torch::tensor({0, 2, 4, 1, 2, 3}, torch::kLong).to(device);
  Tensor weight = sweep::rand({5}, device) + 0.5;
  Tensor loss =
      F::cross_entropy(x, target, F::CrossEntropyFuncOptions().weight(weight).ignore_index(2).label_smoothing(0.2));
  return sweep::forward_backward({loss}, {x});
}

SWEEP_CASE("functional", "F::cross_entropy(segmentation, probabilities)") {
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  Tensor target = sweep::randint(4, {2, 5, 5}, device);
  Tensor soft = torch::softmax(sweep::randn({2, 4, 5, 5}, device), 1);
  Tensor hard_loss = F::cross_entropy(x, target, F::CrossEntropyFuncOptions().reduction(torch::kNone));
  Tensor soft_loss = F::cross_entropy(x, soft);
  return sweep::forward_backward({hard_loss, soft_loss}, {x});
}

SWEEP_CASE("functional", "F::ctc_loss") {
  const int64_t T = 12, N = 2, C = 5, S = 4;
  Tensor logits = sweep::randn({T, N, C}, device, true);
  Tensor log_probs = F::log_softmax(logits, 2);
  Tensor targets = sweep::randint(C - 1, {N, S}, device) + 1;
  // The lengths on the device, as programs that build them from a batch do.
  Tensor input_lengths = torch::tensor({T, T - 3}, torch::kLong).to(device);
  Tensor target_lengths = torch::tensor({S, S - 2}, torch::kLong).to(device);
  Tensor loss = F::ctc_loss(log_probs, targets, input_lengths, target_lengths);
  Tensor per_sample = F::ctc_loss(log_probs, targets, input_lengths.cpu(), target_lengths.cpu(),
                                  F::CTCLossFuncOptions().reduction(torch::kNone).zero_infinity(true));
  return sweep::forward_backward({loss, per_sample}, {logits});
}

SWEEP_CASE("functional", "F::hinge_embedding_loss") {
  Tensor x = sweep::rand({4, 5}, device, true);
  Tensor y = plus_minus_one({4, 5}, device);
  return sweep::forward_backward({F::hinge_embedding_loss(x, y, F::HingeEmbeddingLossFuncOptions().margin(0.5))}, {x});
}

SWEEP_CASE("functional", "F::huber_loss") {
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randn({4, 5}, device);
  Tensor loss = F::huber_loss(x, target);
  Tensor delta = F::huber_loss(x, target, F::HuberLossFuncOptions().delta(0.3));
  return sweep::forward_backward({loss, delta}, {x});
}

SWEEP_CASE("functional", "F::kl_div") {
  Tensor logits = sweep::randn({4, 5}, device, true);
  Tensor target = torch::softmax(sweep::randn({4, 5}, device), 1);
  Tensor log_target = torch::log_softmax(sweep::randn({4, 5}, device), 1);
  Tensor input = F::log_softmax(logits, 1);
  Tensor loss = F::kl_div(input, target, F::KLDivFuncOptions().reduction(torch::kBatchMean));
  Tensor logged = F::kl_div(input, log_target, F::KLDivFuncOptions().reduction(torch::kSum).log_target(true));
  return sweep::forward_backward({loss, logged}, {logits});
}

SWEEP_CASE("functional", "F::l1_loss") {
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randn({4, 5}, device);
  return sweep::forward_backward({F::l1_loss(x, target)}, {x});
}

SWEEP_CASE("functional", "F::margin_ranking_loss") {
  Tensor x1 = sweep::randn({6}, device, true);
  Tensor x2 = sweep::randn({6}, device, true);
  Tensor y = plus_minus_one({6}, device);
  return sweep::forward_backward({F::margin_ranking_loss(x1, x2, y, F::MarginRankingLossFuncOptions().margin(0.2))},
                                 {x1, x2});
}

SWEEP_CASE("functional", "F::mse_loss") {
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randn({4, 5}, device);
  Tensor none = F::mse_loss(x, target, F::MSELossFuncOptions().reduction(torch::kNone));
  return sweep::forward_backward({F::mse_loss(x, target), none}, {x});
}

SWEEP_CASE("functional", "F::multi_margin_loss") {
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randint(5, {4}, device);
  Tensor weight = sweep::rand({5}, device) + 0.5;
  Tensor loss = F::multi_margin_loss(x, target);
  Tensor weighted = F::multi_margin_loss(x, target, F::MultiMarginLossFuncOptions().p(2).margin(0.5).weight(weight));
  return sweep::forward_backward({loss, weighted}, {x});
}

SWEEP_CASE("functional", "F::multilabel_margin_loss") {
  Tensor x = sweep::randn({2, 5}, device, true);
  Tensor target = torch::tensor({{3, 0, -1, 1, 1}, {1, 2, 4, -1, 0}}, torch::kLong).to(device);
  return sweep::forward_backward({F::multilabel_margin_loss(x, target)}, {x});
}

SWEEP_CASE("functional", "F::multilabel_soft_margin_loss") {
  Tensor x = sweep::randn({3, 5}, device, true);
  Tensor target = sweep::randint(2, {3, 5}, device).to(torch::kFloat);
  Tensor weight = sweep::rand({5}, device);
  Tensor loss = F::multilabel_soft_margin_loss(x, target);
  Tensor weighted = F::multilabel_soft_margin_loss(x, target, F::MultilabelSoftMarginLossFuncOptions().weight(weight));
  return sweep::forward_backward({loss, weighted}, {x});
}

SWEEP_CASE("functional", "F::nll_loss") {
  Tensor logits = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randint(5, {4}, device);
  Tensor weight = sweep::rand({5}, device) + 0.5;
  Tensor input = F::log_softmax(logits, 1);
  Tensor loss = F::nll_loss(input, target);
  Tensor weighted = F::nll_loss(input, target, F::NLLLossFuncOptions().weight(weight).ignore_index(1));
  return sweep::forward_backward({loss, weighted}, {logits});
}

SWEEP_CASE("functional", "F::nll_loss(2d)") {
  Tensor logits = sweep::randn({2, 3, 4, 4}, device, true);
  Tensor target = sweep::randint(3, {2, 4, 4}, device);
  Tensor loss = F::nll_loss(F::log_softmax(logits, 1), target, F::NLLLossFuncOptions().reduction(torch::kSum));
  return sweep::forward_backward({loss}, {logits});
}

SWEEP_CASE("functional", "F::poisson_nll_loss") {
  Tensor log_rate = sweep::randn({4, 5}, device, true);
  Tensor rate = sweep::rand({4, 5}, device, true);
  Tensor target = sweep::randint(6, {4, 5}, device).to(torch::kFloat);
  Tensor loss = F::poisson_nll_loss(log_rate, target);
  Tensor full = F::poisson_nll_loss(rate + 0.1, target, F::PoissonNLLLossFuncOptions().log_input(false).full(true));
  return sweep::forward_backward({loss, full}, {log_rate, rate});
}

SWEEP_CASE("functional", "F::smooth_l1_loss") {
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randn({4, 5}, device);
  Tensor loss = F::smooth_l1_loss(x, target);
  Tensor beta = F::smooth_l1_loss(x, target, F::SmoothL1LossFuncOptions().beta(0.5).reduction(torch::kSum));
  return sweep::forward_backward({loss, beta}, {x});
}

SWEEP_CASE("functional", "F::_smooth_l1_loss") {
  // The element-wise helper smooth_l1_loss is built on (public in 1.13).
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randn({4, 5}, device);
  return sweep::forward_backward({F::_smooth_l1_loss(x, target, 0.5)}, {x});
}

SWEEP_CASE("functional", "F::soft_margin_loss") {
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor y = plus_minus_one({4, 5}, device);
  return sweep::forward_backward({F::soft_margin_loss(x, y)}, {x});
}

SWEEP_CASE("functional", "F::triplet_margin_loss") {
  Tensor a = sweep::randn({4, 6}, device, true);
  Tensor p = sweep::randn({4, 6}, device, true);
  Tensor n = sweep::randn({4, 6}, device, true);
  Tensor loss = F::triplet_margin_loss(a, p, n);
  Tensor swapped = F::triplet_margin_loss(a, p, n, F::TripletMarginLossFuncOptions().margin(2).p(1).swap(true));
  return sweep::forward_backward({loss, swapped}, {a, p, n});
}

SWEEP_CASE("functional", "F::triplet_margin_with_distance_loss") {
  Tensor a = sweep::randn({4, 6}, device, true);
  Tensor p = sweep::randn({4, 6}, device, true);
  Tensor n = sweep::randn({4, 6}, device, true);
  Tensor loss = F::triplet_margin_with_distance_loss(a, p, n);
  Tensor cosine = F::triplet_margin_with_distance_loss(
      a, p, n,
      F::TripletMarginWithDistanceLossFuncOptions()
          .distance_function([](const Tensor& x, const Tensor& y) { return 1.0 - F::cosine_similarity(x, y); })
          .margin(0.5)
          .swap(true));
  return sweep::forward_backward({loss, cosine}, {a, p, n});
}

// ============================================================================
// Pooling
// ============================================================================

SWEEP_CASE("functional", "F::adaptive_avg_pool1d") {
  Tensor x = sweep::randn({2, 3, 8}, device, true);
  return sweep::forward_backward({F::adaptive_avg_pool1d(x, F::AdaptiveAvgPool1dFuncOptions(3))}, {x});
}

SWEEP_CASE("functional", "F::adaptive_avg_pool2d") {
  Tensor x = sweep::randn({2, 3, 7, 5}, device, true);
  Tensor global = F::adaptive_avg_pool2d(x, F::AdaptiveAvgPool2dFuncOptions(1));
  Tensor uneven = F::adaptive_avg_pool2d(x, F::AdaptiveAvgPool2dFuncOptions({3, 2}));
  return sweep::forward_backward({global, uneven}, {x});
}

SWEEP_CASE("functional", "F::adaptive_avg_pool3d") {
  Tensor x = sweep::randn({2, 2, 5, 6, 5}, device, true);
  return sweep::forward_backward({F::adaptive_avg_pool3d(x, F::AdaptiveAvgPool3dFuncOptions({2, 3, 2}))}, {x});
}

SWEEP_CASE("functional", "F::adaptive_max_pool1d") {
  Tensor x = sweep::randn({2, 3, 8}, device, true);
  return sweep::forward_backward({F::adaptive_max_pool1d(x, F::AdaptiveMaxPool1dFuncOptions(3))}, {x});
}

SWEEP_CASE("functional", "F::adaptive_max_pool1d_with_indices") {
  Tensor x = sweep::randn({2, 3, 8}, device, true);
  auto [y, indices] = F::adaptive_max_pool1d_with_indices(x, F::AdaptiveMaxPool1dFuncOptions(3));
  return sweep::forward_backward({y, indices}, {x});
}

SWEEP_CASE("functional", "F::adaptive_max_pool2d") {
  Tensor x = sweep::randn({2, 3, 7, 5}, device, true);
  return sweep::forward_backward({F::adaptive_max_pool2d(x, F::AdaptiveMaxPool2dFuncOptions({3, 2}))}, {x});
}

SWEEP_CASE("functional", "F::adaptive_max_pool2d_with_indices") {
  Tensor x = sweep::randn({2, 3, 7, 5}, device, true);
  auto [y, indices] = F::adaptive_max_pool2d_with_indices(x, F::AdaptiveMaxPool2dFuncOptions(2));
  return sweep::forward_backward({y, indices}, {x});
}

SWEEP_CASE("functional", "F::adaptive_max_pool3d") {
  Tensor x = sweep::randn({2, 2, 4, 5, 6}, device, true);
  return sweep::forward_backward({F::adaptive_max_pool3d(x, F::AdaptiveMaxPool3dFuncOptions({2, 2, 3}))}, {x});
}

SWEEP_CASE("functional", "F::adaptive_max_pool3d_with_indices") {
  Tensor x = sweep::randn({2, 2, 4, 5, 6}, device, true);
  auto [y, indices] = F::adaptive_max_pool3d_with_indices(x, F::AdaptiveMaxPool3dFuncOptions(2));
  return sweep::forward_backward({y, indices}, {x});
}

SWEEP_CASE("functional", "F::avg_pool1d") {
  Tensor x = sweep::randn({2, 3, 8}, device, true);
  Tensor y = F::avg_pool1d(x, F::AvgPool1dFuncOptions(3).stride(2).padding(1).count_include_pad(false));
  return sweep::forward_backward({y}, {x});
}

SWEEP_CASE("functional", "F::avg_pool2d") {
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  Tensor y = F::avg_pool2d(x, F::AvgPool2dFuncOptions(2));
  Tensor ceil = F::avg_pool2d(x, F::AvgPool2dFuncOptions(3).stride(2).padding(1).ceil_mode(true));
  Tensor divisor = F::avg_pool2d(x, F::AvgPool2dFuncOptions({2, 3}).divisor_override(5));
  return sweep::forward_backward({y, ceil, divisor}, {x});
}

SWEEP_CASE("functional", "F::avg_pool3d") {
  Tensor x = sweep::randn({2, 2, 4, 5, 5}, device, true);
  return sweep::forward_backward({F::avg_pool3d(x, F::AvgPool3dFuncOptions({2, 2, 2}).stride({1, 2, 2}))}, {x});
}

SWEEP_RANDOM_CASE("functional", "F::fractional_max_pool2d") {
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  Tensor y = F::fractional_max_pool2d(x, F::FractionalMaxPool2dFuncOptions(2).output_size(std::vector<int64_t>{4, 4}));
  return sweep::forward_backward({y}, {x});
}

SWEEP_CASE("functional", "F::fractional_max_pool2d(random samples)") {
  Tensor x = sweep::randn({2, 3, 8, 8}, device, true);
  Tensor samples = sweep::rand({2, 3, 2}, device);
  Tensor y = F::fractional_max_pool2d(
      x, F::FractionalMaxPool2dFuncOptions(3).output_ratio(std::vector<double>{0.5, 0.5})._random_samples(samples));
  return sweep::forward_backward({y}, {x});
}

SWEEP_RANDOM_CASE("functional", "F::fractional_max_pool2d_with_indices") {
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  auto [y, indices] = F::fractional_max_pool2d_with_indices(
      x, F::FractionalMaxPool2dFuncOptions(2).output_size(std::vector<int64_t>{3, 3}));
  return sweep::forward_backward({y, indices}, {x});
}

SWEEP_CASE("functional", "F::fractional_max_pool2d_with_indices(random samples)") {
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  Tensor samples = sweep::rand({2, 3, 2}, device);
  auto [y, indices] = F::fractional_max_pool2d_with_indices(
      x, F::FractionalMaxPool2dFuncOptions(2).output_size(std::vector<int64_t>{3, 3})._random_samples(samples));
  return sweep::forward_backward({y, indices}, {x});
}

SWEEP_RANDOM_CASE("functional", "F::fractional_max_pool3d") {
  Tensor x = sweep::randn({2, 2, 6, 6, 6}, device, true);
  Tensor y =
      F::fractional_max_pool3d(x, F::FractionalMaxPool3dFuncOptions(2).output_size(std::vector<int64_t>{3, 3, 3}));
  return sweep::forward_backward({y}, {x});
}

SWEEP_CASE("functional", "F::fractional_max_pool3d(random samples)") {
  Tensor x = sweep::randn({2, 2, 6, 6, 6}, device, true);
  Tensor samples = sweep::rand({2, 2, 3}, device);
  Tensor y = F::fractional_max_pool3d(
      x,
      F::FractionalMaxPool3dFuncOptions(2).output_ratio(std::vector<double>{0.5, 0.5, 0.5})._random_samples(samples));
  return sweep::forward_backward({y}, {x});
}

SWEEP_RANDOM_CASE("functional", "F::fractional_max_pool3d_with_indices") {
  Tensor x = sweep::randn({2, 2, 6, 6, 6}, device, true);
  auto [y, indices] = F::fractional_max_pool3d_with_indices(
      x, F::FractionalMaxPool3dFuncOptions(2).output_size(std::vector<int64_t>{3, 3, 3}));
  return sweep::forward_backward({y, indices}, {x});
}

SWEEP_CASE("functional", "F::fractional_max_pool3d_with_indices(random samples)") {
  Tensor x = sweep::randn({2, 2, 6, 6, 6}, device, true);
  Tensor samples = sweep::rand({2, 2, 3}, device);
  auto [y, indices] = F::fractional_max_pool3d_with_indices(
      x, F::FractionalMaxPool3dFuncOptions(2).output_size(std::vector<int64_t>{3, 3, 3})._random_samples(samples));
  return sweep::forward_backward({y, indices}, {x});
}

SWEEP_CASE("functional", "F::lp_pool1d") {
  Tensor x = sweep::randn({2, 3, 9}, device, true);
  return sweep::forward_backward({F::lp_pool1d(x, F::LPPool1dFuncOptions(2, 3).stride(2))}, {x});
}

SWEEP_CASE("functional", "F::lp_pool2d") {
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  Tensor pos = sweep::rand({2, 3, 6, 6}, device, true);
  Tensor l2 = F::lp_pool2d(x, F::LPPool2dFuncOptions(2, 2));
  Tensor l3 = F::lp_pool2d(pos, F::LPPool2dFuncOptions(3, {3, 2}).stride(2));  // odd norm: positive inputs
  return sweep::forward_backward({l2, l3}, {x, pos});
}

SWEEP_CASE("functional", "F::max_pool1d") {
  Tensor x = sweep::randn({2, 3, 9}, device, true);
  return sweep::forward_backward({F::max_pool1d(x, F::MaxPool1dFuncOptions(3).stride(2).padding(1))}, {x});
}

SWEEP_CASE("functional", "F::max_pool1d_with_indices") {
  Tensor x = sweep::randn({2, 3, 9}, device, true);
  auto [y, indices] = F::max_pool1d_with_indices(x, F::MaxPool1dFuncOptions(2).dilation(2).ceil_mode(true));
  return sweep::forward_backward({y, indices}, {x});
}

SWEEP_CASE("functional", "F::max_pool2d") {
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  Tensor y = F::max_pool2d(x, F::MaxPool2dFuncOptions(2));
  Tensor stem = F::max_pool2d(x, F::MaxPool2dFuncOptions(3).stride(2).padding(1));
  return sweep::forward_backward({y, stem}, {x});
}

SWEEP_CASE("functional", "F::max_pool2d_with_indices") {
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  auto [y, indices] = F::max_pool2d_with_indices(x, F::MaxPool2dFuncOptions(2).ceil_mode(true));
  return sweep::forward_backward({y, indices}, {x});
}

SWEEP_CASE("functional", "F::max_pool3d") {
  Tensor x = sweep::randn({2, 2, 4, 4, 4}, device, true);
  return sweep::forward_backward({F::max_pool3d(x, F::MaxPool3dFuncOptions(2))}, {x});
}

SWEEP_CASE("functional", "F::max_pool3d_with_indices") {
  Tensor x = sweep::randn({2, 2, 5, 5, 5}, device, true);
  auto [y, indices] = F::max_pool3d_with_indices(x, F::MaxPool3dFuncOptions(3).stride(2).padding(1));
  return sweep::forward_backward({y, indices}, {x});
}

SWEEP_CASE("functional", "F::max_unpool1d") {
  Tensor x = sweep::randn({2, 3, 8}, device, true);
  auto [y, indices] = F::max_pool1d_with_indices(x, F::MaxPool1dFuncOptions(2));
  Tensor z = F::max_unpool1d(y, indices, F::MaxUnpool1dFuncOptions(2));
  return sweep::forward_backward({z}, {x});
}

SWEEP_CASE("functional", "F::max_unpool2d") {
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  auto [y, indices] = F::max_pool2d_with_indices(x, F::MaxPool2dFuncOptions(2));
  Tensor z = F::max_unpool2d(y, indices, F::MaxUnpool2dFuncOptions(2));
  // An odd size: back to it, given as the input's full size.
  Tensor x7 = sweep::randn({2, 3, 7, 7}, device, true);
  auto [y7, indices7] = F::max_pool2d_with_indices(x7, F::MaxPool2dFuncOptions(2));
  Tensor odd = F::max_unpool2d(y7, indices7, F::MaxUnpool2dFuncOptions(2).output_size(x7.sizes().vec()));
  return sweep::forward_backward({z, odd}, {x, x7});
}

SWEEP_CASE("functional", "F::max_unpool3d") {
  Tensor x = sweep::randn({2, 2, 4, 4, 4}, device, true);
  auto [y, indices] = F::max_pool3d_with_indices(x, F::MaxPool3dFuncOptions(2));
  Tensor z = F::max_unpool3d(y, indices, F::MaxUnpool3dFuncOptions(2).stride(2));
  return sweep::forward_backward({z}, {x});
}

SWEEP_CASE("functional", "F::_unpool_output_size") {
  // The size helper of max_unpool (public in 1.13), on a device tensor's
  // sizes; its result used as max_unpool2d's output size.
  Tensor x = sweep::randn({2, 3, 7, 6}, device, true);
  auto [y, indices] = F::max_pool2d_with_indices(x, F::MaxPool2dFuncOptions(2));
  std::vector<int64_t> size =
      F::_unpool_output_size(y, {2, 2}, {2, 2}, {0, 0}, std::vector<int64_t>(x.sizes().begin(), x.sizes().end()));
  std::vector<int64_t> full = y.sizes().slice(0, 2).vec();
  full.insert(full.end(), size.begin(), size.end());
  Tensor z = F::max_unpool2d(y, indices, F::MaxUnpool2dFuncOptions(2).output_size(full));
  return sweep::forward_backward({z}, {x});
}

// ============================================================================
// Upsampling and sampling
// ============================================================================

SWEEP_CASE("functional", "F::interpolate") {
  Tensor x = sweep::randn({2, 3, 4, 4}, device, true);
  Tensor nearest = F::interpolate(x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{2, 2}));
  Tensor sized =
      F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{7, 5}).mode(torch::kNearestExact));
  return sweep::forward_backward({nearest, sized}, {x});
}

SWEEP_CASE("functional", "F::interpolate(bilinear, bicubic)") {
  Tensor x = sweep::randn({2, 3, 4, 4}, device, true);
  Tensor bilinear = F::interpolate(
      x,
      F::InterpolateFuncOptions().scale_factor(std::vector<double>{2, 2}).mode(torch::kBilinear).align_corners(false));
  Tensor corners = F::interpolate(
      x, F::InterpolateFuncOptions().size(std::vector<int64_t>{7, 6}).mode(torch::kBilinear).align_corners(true));
  Tensor bicubic = F::interpolate(x, F::InterpolateFuncOptions()
                                         .scale_factor(std::vector<double>{1.5, 1.5})
                                         .mode(torch::kBicubic)
                                         .align_corners(false));
  return sweep::forward_backward({bilinear, corners, bicubic}, {x});
}

SWEEP_CASE("functional", "F::interpolate(antialias)") {
  // Downscaling with antialiasing (torchvision's resize).
  Tensor x = sweep::randn({2, 3, 8, 8}, device, true);
  Tensor y = F::interpolate(x, F::InterpolateFuncOptions()
                                   .size(std::vector<int64_t>{3, 5})
                                   .mode(torch::kBilinear)
                                   .align_corners(false)
                                   .antialias(true));
  return sweep::forward_backward({y}, {x});
}

SWEEP_CASE("functional", "F::interpolate(linear, trilinear, area)") {
  Tensor x1 = sweep::randn({2, 3, 5}, device, true);
  Tensor x3 = sweep::randn({2, 2, 3, 3, 3}, device, true);
  Tensor x2 = sweep::randn({2, 3, 6, 6}, device, true);
  Tensor linear = F::interpolate(
      x1, F::InterpolateFuncOptions().scale_factor(std::vector<double>{2}).mode(torch::kLinear).align_corners(false));
  Tensor trilinear = F::interpolate(
      x3, F::InterpolateFuncOptions().size(std::vector<int64_t>{4, 5, 6}).mode(torch::kTrilinear).align_corners(true));
  Tensor area = F::interpolate(x2, F::InterpolateFuncOptions().size(std::vector<int64_t>{4, 3}).mode(torch::kArea));
  return sweep::forward_backward({linear, trilinear, area}, {x1, x3, x2});
}

SWEEP_CASE("functional", "F::_interp_output_size") {
  // The size helper of interpolate (public in 1.13) on a device tensor; its
  // result used as the size of an interpolation.
  Tensor x = sweep::randn({2, 3, 4, 5}, device, true);
  std::vector<int64_t> size =
      F::_interp_output_size(2, std::make_tuple(x, c10::optional<std::vector<int64_t>>(),
                                                c10::optional<std::vector<double>>({1.5, 2.0}), c10::optional<bool>()));
  Tensor y = F::interpolate(x, F::InterpolateFuncOptions().size(size).mode(torch::kBilinear).align_corners(false));
  return sweep::forward_backward({y}, {x});
}

SWEEP_CASE("functional", "F::affine_grid") {
  Tensor theta = (torch::eye(2, 3).unsqueeze(0).repeat({2, 1, 1}) + 0.1 * torch::randn({2, 2, 3})).to(device);
  theta.requires_grad_(true);
  Tensor grid = F::affine_grid(theta, {2, 3, 5, 4});
  Tensor corners = F::affine_grid(theta, {2, 3, 5, 4}, /*align_corners=*/true);
  return sweep::forward_backward({grid, corners}, {theta});
}

SWEEP_CASE("functional", "F::affine_grid(3d)") {
  Tensor theta = (torch::eye(3, 4).unsqueeze(0).repeat({2, 1, 1}) + 0.1 * torch::randn({2, 3, 4})).to(device);
  theta.requires_grad_(true);
  return sweep::forward_backward({F::affine_grid(theta, {2, 2, 3, 4, 5})}, {theta});
}

SWEEP_CASE("functional", "F::grid_sample") {
  // A spatial transformer: affine_grid, then grid_sample.
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  Tensor theta = (torch::eye(2, 3).unsqueeze(0).repeat({2, 1, 1}) + 0.2 * torch::randn({2, 2, 3})).to(device);
  theta.requires_grad_(true);
  Tensor grid = F::affine_grid(theta, {2, 3, 4, 4}, /*align_corners=*/false);
  Tensor y = F::grid_sample(x, grid, F::GridSampleFuncOptions().mode(torch::kBilinear).align_corners(false));
  return sweep::forward_backward({y}, {x, theta});
}

SWEEP_CASE("functional", "F::grid_sample(nearest, border, reflection, 3d)") {
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  Tensor grid = (sweep::rand({2, 4, 4, 2}, device) * 2.4 - 1.2).requires_grad_(true);
  Tensor nearest = F::grid_sample(
      x, grid, F::GridSampleFuncOptions().mode(torch::kNearest).padding_mode(torch::kBorder).align_corners(true));
  Tensor reflection =
      F::grid_sample(x, grid, F::GridSampleFuncOptions().padding_mode(torch::kReflection).align_corners(false));
  Tensor x3 = sweep::randn({2, 2, 3, 4, 4}, device, true);
  Tensor grid3 = (sweep::rand({2, 2, 3, 3, 3}, device) * 2 - 1).requires_grad_(true);
  Tensor volume = F::grid_sample(x3, grid3, F::GridSampleFuncOptions().align_corners(false));
  return sweep::forward_backward({nearest, reflection, volume}, {x, grid, x3, grid3});
}
