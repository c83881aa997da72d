// The op sweep's module family: every torch::nn module of LibTorch 1.13
// (TORCH_MODULE in torch/nn/modules, plus Sequential, Embedding and
// EmbeddingBag, which are ModuleHolders of their own), each used as a
// program uses it: built on the cpu, moved with `->to(device)`, fed inputs
// on the device, forward and backward. Variants that real programs use
// (depthwise and dilated convolutions, DCGAN's strided transposed
// convolutions, packed sequences, ...) are cases of their own, named
// "Module(variant)".
#include <tuple>

#include "sweep.h"

namespace nn = torch::nn;
namespace F = torch::nn::functional;
using sweep::Results;
using torch::Tensor;

namespace {

// A module's result plus its buffers (running statistics), which a forward
// in training mode updates and which must end on the device as well.
std::vector<Tensor> with_buffers(std::vector<Tensor> outputs, const nn::Module& m) {
  for (const Tensor& b : m.buffers()) outputs.push_back(b);
  return outputs;
}

// Targets of +1 and -1, as the embedding and margin losses take them.
Tensor plus_minus_one(torch::IntArrayRef sizes, torch::Device device) {
  return sweep::randint(2, sizes, device).to(torch::kFloat) * 2 - 1;
}

}  // namespace

// ============================================================================
// Activations
// ============================================================================

SWEEP_CASE("module", "CELU") {
  nn::CELU m(nn::CELUOptions().alpha(0.5));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ELU") {
  nn::ELU m(nn::ELUOptions().alpha(1.5));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ELU(inplace)") {
  // In place after a layer, as in `nn::Sequential(Linear, ELU(inplace))`.
  nn::Linear fc(6, 5);
  nn::ELU m(nn::ELUOptions().inplace(true));
  fc->to(device);
  m->to(device);
  Tensor x = sweep::randn({2, 6}, device, true);
  Tensor y = m(fc(x));
  return sweep::forward_backward({y}, {x}, fc->parameters());
}

SWEEP_CASE("module", "GELU") {
  nn::GELU m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "GELU(tanh)") {
  nn::GELU m(nn::GELUOptions().approximate("tanh"));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "GLU") {
  nn::GLU m(nn::GLUOptions(1));
  m->to(device);
  Tensor x = sweep::randn({2, 6, 3}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Hardshrink") {
  nn::Hardshrink m(nn::HardshrinkOptions().lambda(0.4));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Hardtanh") {
  nn::Hardtanh m(nn::HardtanhOptions().min_val(-0.5).max_val(0.5));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "LeakyReLU") {
  nn::LeakyReLU m(nn::LeakyReLUOptions().negative_slope(0.2));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "LeakyReLU(inplace)") {
  // DCGAN's discriminator: Conv2d then LeakyReLU(0.2, inplace).
  nn::Conv2d conv(nn::Conv2dOptions(3, 4, 4).stride(2).padding(1).bias(false));
  nn::LeakyReLU m(nn::LeakyReLUOptions().negative_slope(0.2).inplace(true));
  conv->to(device);
  m->to(device);
  Tensor x = sweep::randn({2, 3, 8, 8}, device, true);
  Tensor y = m(conv(x));
  return sweep::forward_backward({y}, {x}, conv->parameters());
}

SWEEP_CASE("module", "LogSigmoid") {
  nn::LogSigmoid m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "LogSoftmax") {
  nn::LogSoftmax m(nn::LogSoftmaxOptions(1));
  m->to(device);
  Tensor x = sweep::randn({2, 5, 3}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Mish") {
  nn::Mish m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "PReLU") {
  nn::PReLU m(nn::PReLUOptions().num_parameters(3).init(0.1));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "PReLU(shared)") {
  nn::PReLU m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_RANDOM_CASE("module", "RReLU") {
  nn::RReLU m(nn::RReLUOptions().lower(0.1).upper(0.3));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "RReLU(eval)") {
  nn::RReLU m(nn::RReLUOptions().lower(0.1).upper(0.3));
  m->to(device);
  m->eval();
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ReLU") {
  nn::ReLU m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ReLU(inplace)") {
  nn::Linear fc(6, 5);
  nn::ReLU m(nn::ReLUOptions(true));
  fc->to(device);
  m->to(device);
  Tensor x = sweep::randn({2, 6}, device, true);
  Tensor y = m(fc(x));
  return sweep::forward_backward({y}, {x}, fc->parameters());
}

SWEEP_CASE("module", "ReLU6") {
  nn::ReLU6 m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  Tensor y = m(x * 5);  // past the bounds
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "SELU") {
  nn::SELU m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "SiLU") {
  nn::SiLU m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Sigmoid") {
  nn::Sigmoid m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Softmax") {
  nn::Softmax m(nn::SoftmaxOptions(-1));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 5}, device, true);
  // A plain sum of a softmax has zero gradient: weight it.
  Tensor y = m(x) * sweep::randn({2, 3, 5}, device);
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "Softmax2d") {
  nn::Softmax2d m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4, 4}, device, true);
  Tensor y = m(x) * sweep::randn({2, 3, 4, 4}, device);
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "Softmin") {
  nn::Softmin m(nn::SoftminOptions(1));
  m->to(device);
  Tensor x = sweep::randn({2, 5}, device, true);
  Tensor y = m(x) * sweep::randn({2, 5}, device);
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "Softplus") {
  nn::Softplus m(nn::SoftplusOptions().beta(2).threshold(5));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  Tensor y = m(x * 4);  // past the bounds
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "Softshrink") {
  nn::Softshrink m(nn::SoftshrinkOptions(0.3));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Softsign") {
  nn::Softsign m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Tanh") {
  nn::Tanh m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Tanhshrink") {
  nn::Tanhshrink m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Threshold") {
  nn::Threshold m(nn::ThresholdOptions(0.1, 20));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "MultiheadAttention") {
  nn::MultiheadAttention m(nn::MultiheadAttentionOptions(8, 2));
  m->to(device);
  // (sequence, batch, embedding): self-attention.
  Tensor x = sweep::randn({5, 2, 8}, device, true);
  auto [out, weights] = m(x, x, x);
  return sweep::forward_backward({out, weights}, {x}, m->parameters());
}

SWEEP_CASE("module", "MultiheadAttention(masks)") {
  // Cross-attention with a causal attention mask and a key padding mask,
  // key and value sizes other than the query's, bias_k/bias_v and a zero attention row.
  // (LibTorch 1.13 asserts key.sizes() == value.sizes(): kdim == vdim.)
  nn::MultiheadAttention m(nn::MultiheadAttentionOptions(8, 2).kdim(6).vdim(6).add_bias_kv(true).add_zero_attn(true));
  m->to(device);
  Tensor q = sweep::randn({5, 2, 8}, device, true);
  Tensor k = sweep::randn({7, 2, 6}, device, true);
  Tensor v = sweep::randn({7, 2, 6}, device, true);
  Tensor key_padding_mask = torch::zeros({2, 7}, torch::kBool);
  key_padding_mask[1].slice(0, 5) = true;  // the second sequence has 5 keys
  key_padding_mask = key_padding_mask.to(device);
  Tensor attn_mask = torch::ones({5, 7}, torch::kBool).triu(3).to(device);
  auto [out, weights] = m(q, k, v, key_padding_mask, /*need_weights=*/true, attn_mask);
  return sweep::forward_backward({out, weights}, {q, k, v}, m->parameters());
}

// ============================================================================
// Normalization
// ============================================================================

SWEEP_CASE("module", "BatchNorm1d") {
  nn::BatchNorm1d m(nn::BatchNorm1dOptions(4));
  m->to(device);
  Tensor x = sweep::randn({3, 4, 5}, device, true);
  Tensor y = m(x);
  return sweep::forward_backward(with_buffers({y}, *m), {x}, m->parameters());
}

SWEEP_CASE("module", "BatchNorm1d(features)") {
  // (batch, features), after a Linear.
  nn::Linear fc(6, 4);
  nn::BatchNorm1d m(nn::BatchNorm1dOptions(4).momentum(0.2));
  fc->to(device);
  m->to(device);
  Tensor x = sweep::randn({5, 6}, device, true);
  Tensor y = torch::relu(m(fc(x)));
  std::vector<Tensor> parameters = fc->parameters();
  for (const Tensor& p : m->parameters()) parameters.push_back(p);
  return sweep::forward_backward(with_buffers({y}, *m), {x}, parameters);
}

SWEEP_CASE("module", "BatchNorm2d") {
  nn::BatchNorm2d m(nn::BatchNorm2dOptions(4));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  Tensor y = m(x);
  // A weighted sum: the gradient of a plain sum through a batch norm is zero.
  y = y * sweep::randn({2, 4, 5, 5}, device);
  return sweep::forward_backward(with_buffers({y}, *m), {x}, m->parameters());
}

SWEEP_CASE("module", "BatchNorm2d(eval)") {
  nn::BatchNorm2d m(nn::BatchNorm2dOptions(4));
  m->to(device);
  // Some training steps, then inference with the running statistics.
  for (int i = 0; i < 3; ++i) m(sweep::randn({2, 4, 5, 5}, device));
  m->eval();
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  Tensor y = m(x);
  return sweep::forward_backward(with_buffers({y}, *m), {x}, m->parameters());
}

SWEEP_CASE("module", "BatchNorm2d(no affine, no stats)") {
  nn::BatchNorm2d m(nn::BatchNorm2dOptions(4).affine(false).track_running_stats(false));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  Tensor y = m(x) * sweep::randn({2, 4, 5, 5}, device);
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "BatchNorm3d") {
  nn::BatchNorm3d m(nn::BatchNorm3dOptions(3));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4, 4, 4}, device, true);
  Tensor y = m(x) * sweep::randn({2, 3, 4, 4, 4}, device);
  return sweep::forward_backward(with_buffers({y}, *m), {x}, m->parameters());
}

SWEEP_CASE("module", "GroupNorm") {
  nn::GroupNorm m(nn::GroupNormOptions(2, 6));
  m->to(device);
  Tensor x = sweep::randn({2, 6, 5, 5}, device, true);
  Tensor y = m(x) * sweep::randn({2, 6, 5, 5}, device);
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "InstanceNorm1d") {
  nn::InstanceNorm1d m(nn::InstanceNorm1dOptions(4));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 7}, device, true);
  Tensor y = m(x) * sweep::randn({2, 4, 7}, device);
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "InstanceNorm2d") {
  // As in style transfer: affine, no running statistics.
  nn::InstanceNorm2d m(nn::InstanceNorm2dOptions(4).affine(true));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 6, 6}, device, true);
  Tensor y = m(x) * sweep::randn({2, 4, 6, 6}, device);
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "InstanceNorm2d(running stats)") {
  nn::InstanceNorm2d m(nn::InstanceNorm2dOptions(4).affine(true).track_running_stats(true));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 6, 6}, device, true);
  Tensor y = m(x) * sweep::randn({2, 4, 6, 6}, device);
  return sweep::forward_backward(with_buffers({y}, *m), {x}, m->parameters());
}

SWEEP_CASE("module", "InstanceNorm3d") {
  nn::InstanceNorm3d m(nn::InstanceNorm3dOptions(3).affine(true));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4, 4, 4}, device, true);
  Tensor y = m(x) * sweep::randn({2, 3, 4, 4, 4}, device);
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "LayerNorm") {
  nn::LayerNorm m(nn::LayerNormOptions({8}));
  m->to(device);
  Tensor x = sweep::randn({2, 5, 8}, device, true);
  Tensor y = m(x) * sweep::randn({2, 5, 8}, device);
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "LayerNorm(2d shape)") {
  nn::LayerNorm m(nn::LayerNormOptions({4, 5}).eps(1e-6));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4, 5}, device, true);
  Tensor y = m(x) * sweep::randn({2, 3, 4, 5}, device);
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "LocalResponseNorm") {
  nn::LocalResponseNorm m(nn::LocalResponseNormOptions(3));
  m->to(device);
  Tensor x = sweep::randn({2, 5, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "CrossMapLRN2d") {
  nn::CrossMapLRN2d m(nn::CrossMapLRN2dOptions(3));
  m->to(device);
  Tensor x = sweep::randn({2, 5, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

// ============================================================================
// Convolutions
// ============================================================================

SWEEP_CASE("module", "Conv1d") {
  nn::Conv1d m(nn::Conv1dOptions(3, 4, 3).padding(1));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv1d(strided, dilated)") {
  // As in WaveNet-style audio models.
  nn::Conv1d m(nn::Conv1dOptions(3, 4, 3).stride(2).dilation(2).padding(2));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 9}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv1d(depthwise)") {
  nn::Conv1d m(nn::Conv1dOptions(4, 4, 3).padding(1).groups(4));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d") {
  nn::Conv2d m(nn::Conv2dOptions(3, 4, 3).padding(1));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(no bias)") {
  nn::Conv2d m(nn::Conv2dOptions(3, 4, 3).bias(false));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(strided)") {
  // A ResNet-style downsampling convolution.
  nn::Conv2d m(nn::Conv2dOptions(3, 4, 3).stride(2).padding(1).bias(false));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 8, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(1x1)") {
  nn::Conv2d m(nn::Conv2dOptions(4, 6, 1));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(depthwise)") {
  // MobileNet: one filter per channel (groups == in_channels).
  nn::Conv2d m(nn::Conv2dOptions(4, 4, 3).padding(1).groups(4).bias(false));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(depthwise, strided)") {
  nn::Conv2d m(nn::Conv2dOptions(4, 8, 3).stride(2).padding(1).groups(4));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 8, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(grouped)") {
  // ResNeXt: groups between 1 and in_channels.
  nn::Conv2d m(nn::Conv2dOptions(4, 6, 3).padding(1).groups(2));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(dilated)") {
  // DeepLab's atrous convolution.
  nn::Conv2d m(nn::Conv2dOptions(3, 4, 3).padding(2).dilation(2));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(padding same)") {
  nn::Conv2d m(nn::Conv2dOptions(3, 4, {3, 5}).padding(torch::kSame));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(reflect padding)") {
  // CycleGAN-style padding modes.
  nn::Conv2d m(nn::Conv2dOptions(3, 4, 3).padding(1).padding_mode(torch::kReflect));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(circular padding)") {
  nn::Conv2d m(nn::Conv2dOptions(3, 4, 3).padding(1).padding_mode(torch::kCircular));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(replicate padding)") {
  nn::Conv2d m(nn::Conv2dOptions(3, 4, 3).padding(1).padding_mode(torch::kReplicate));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(unbatched)") {
  nn::Conv2d m(nn::Conv2dOptions(3, 4, 3).padding(1));
  m->to(device);
  Tensor x = sweep::randn({3, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv2d(channels_last)") {
  // Inputs in NHWC memory, as performance-minded CNN code keeps them.
  nn::Conv2d conv(nn::Conv2dOptions(3, 4, 3).padding(1));
  nn::BatchNorm2d bn(4);
  conv->to(device);
  bn->to(device);
  Tensor x = sweep::randn({2, 3, 6, 6}, device).contiguous(torch::MemoryFormat::ChannelsLast).requires_grad_(true);
  Tensor y = torch::relu(bn(conv(x))) * sweep::randn({2, 4, 6, 6}, device);
  std::vector<Tensor> parameters = conv->parameters();
  for (const Tensor& p : bn->parameters()) parameters.push_back(p);
  return sweep::forward_backward(with_buffers({y}, *bn), {x}, parameters);
}

SWEEP_CASE("module", "Conv3d") {
  nn::Conv3d m(nn::Conv3dOptions(2, 3, 3).padding(1));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 5, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv3d(strided, dilated)") {
  nn::Conv3d m(nn::Conv3dOptions(2, 3, {1, 3, 3}).stride({1, 2, 2}).padding({0, 2, 2}).dilation({1, 2, 2}));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 4, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Conv3d(depthwise)") {
  nn::Conv3d m(nn::Conv3dOptions(3, 3, 3).padding(1).groups(3));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConvTranspose1d") {
  nn::ConvTranspose1d m(nn::ConvTranspose1dOptions(3, 4, 3).padding(1));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConvTranspose1d(stride2)") {
  nn::ConvTranspose1d m(nn::ConvTranspose1dOptions(4, 2, 4).stride(2).padding(1));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConvTranspose2d") {
  nn::ConvTranspose2d m(nn::ConvTranspose2dOptions(3, 4, 3).padding(1));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConvTranspose2d(stride2)") {
  // DCGAN's generator: kernel 4, stride 2, padding 1, no bias (doubles H, W).
  nn::ConvTranspose2d m(nn::ConvTranspose2dOptions(4, 3, 4).stride(2).padding(1).bias(false));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConvTranspose2d(from 1x1)") {
  // DCGAN's first layer: a latent vector (nz x 1 x 1) to a 4x4 map.
  nn::ConvTranspose2d m(nn::ConvTranspose2dOptions(6, 4, 4).stride(1).padding(0).bias(false));
  m->to(device);
  Tensor z = sweep::randn({2, 6, 1, 1}, device, true);
  return sweep::forward_backward({m(z)}, {z}, m->parameters());
}

SWEEP_CASE("module", "ConvTranspose2d(output_padding)") {
  // U-Net's up-convolution: kernel 3, stride 2, output_padding 1.
  nn::ConvTranspose2d m(nn::ConvTranspose2dOptions(4, 2, 3).stride(2).padding(1).output_padding(1));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConvTranspose2d(output_size)") {
  nn::ConvTranspose2d m(nn::ConvTranspose2dOptions(4, 2, 3).stride(2).padding(1));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 4, 4}, device, true);
  Tensor y = m(x, std::vector<int64_t>{8, 8});
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConvTranspose2d(grouped)") {
  nn::ConvTranspose2d m(nn::ConvTranspose2dOptions(4, 4, 3).stride(2).padding(1).groups(2));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConvTranspose2d(dilated)") {
  nn::ConvTranspose2d m(nn::ConvTranspose2dOptions(3, 2, 3).dilation(2));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConvTranspose3d") {
  nn::ConvTranspose3d m(nn::ConvTranspose3dOptions(2, 3, 3).padding(1));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 4, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConvTranspose3d(stride2)") {
  // 3D U-Net's up-convolution: kernel 2, stride 2.
  nn::ConvTranspose3d m(nn::ConvTranspose3dOptions(4, 2, 2).stride(2));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 3, 3, 3}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

// ============================================================================
// Pooling
// ============================================================================

SWEEP_CASE("module", "AdaptiveAvgPool1d") {
  nn::AdaptiveAvgPool1d m(nn::AdaptiveAvgPool1dOptions(3));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "AdaptiveAvgPool2d") {
  // ResNet's global average pool, and an uneven output size.
  nn::AdaptiveAvgPool2d m(nn::AdaptiveAvgPool2dOptions({1, 1}));
  nn::AdaptiveAvgPool2d m2(nn::AdaptiveAvgPool2dOptions({3, 2}));
  m->to(device);
  m2->to(device);
  Tensor x = sweep::randn({2, 3, 7, 5}, device, true);
  return sweep::forward_backward({m(x), m2(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "AdaptiveAvgPool3d") {
  nn::AdaptiveAvgPool3d m(nn::AdaptiveAvgPool3dOptions({2, 3, 2}));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 5, 6, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "AdaptiveMaxPool1d") {
  nn::AdaptiveMaxPool1d m(nn::AdaptiveMaxPool1dOptions(3));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 8}, device, true);
  auto [y, indices] = m->forward_with_indices(x);
  return sweep::forward_backward({y, indices}, {x}, m->parameters());
}

SWEEP_CASE("module", "AdaptiveMaxPool2d") {
  nn::AdaptiveMaxPool2d m(nn::AdaptiveMaxPool2dOptions({3, 2}));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 7, 5}, device, true);
  auto [y, indices] = m->forward_with_indices(x);
  return sweep::forward_backward({y, indices, m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "AdaptiveMaxPool3d") {
  nn::AdaptiveMaxPool3d m(nn::AdaptiveMaxPool3dOptions({2, 2, 3}));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 4, 5, 6}, device, true);
  auto [y, indices] = m->forward_with_indices(x);
  return sweep::forward_backward({y, indices}, {x}, m->parameters());
}

SWEEP_CASE("module", "AvgPool1d") {
  nn::AvgPool1d m(nn::AvgPool1dOptions(3).stride(2).padding(1));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "AvgPool2d") {
  nn::AvgPool2d m(nn::AvgPool2dOptions(2));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "AvgPool2d(padded, ceil, divisor)") {
  nn::AvgPool2d m(nn::AvgPool2dOptions(3).stride(2).padding(1).ceil_mode(true).count_include_pad(false));
  nn::AvgPool2d m2(nn::AvgPool2dOptions({2, 3}).divisor_override(4));
  m->to(device);
  m2->to(device);
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  return sweep::forward_backward({m(x), m2(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "AvgPool3d") {
  nn::AvgPool3d m(nn::AvgPool3dOptions(2).stride(2));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 4, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_RANDOM_CASE("module", "FractionalMaxPool2d") {
  nn::FractionalMaxPool2d m(nn::FractionalMaxPool2dOptions(2).output_size(std::vector<int64_t>{4, 4}));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  auto [y, indices] = m->forward_with_indices(x);
  return sweep::forward_backward({y, indices}, {x}, m->parameters());
}

SWEEP_CASE("module", "FractionalMaxPool2d(random samples)") {
  // With the samples given, the pooling is deterministic; they are a buffer
  // of the module and move with it.
  nn::FractionalMaxPool2d m(nn::FractionalMaxPool2dOptions(2)
                                .output_ratio(std::vector<double>{0.5, 0.5})
                                ._random_samples(torch::rand({2, 3, 2})));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 8, 8}, device, true);
  auto [y, indices] = m->forward_with_indices(x);
  return sweep::forward_backward({y, indices}, {x}, m->parameters());
}

SWEEP_RANDOM_CASE("module", "FractionalMaxPool3d") {
  nn::FractionalMaxPool3d m(nn::FractionalMaxPool3dOptions(2).output_size(std::vector<int64_t>{3, 3, 3}));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 6, 6, 6}, device, true);
  auto [y, indices] = m->forward_with_indices(x);
  return sweep::forward_backward({y, indices}, {x}, m->parameters());
}

SWEEP_CASE("module", "FractionalMaxPool3d(random samples)") {
  nn::FractionalMaxPool3d m(nn::FractionalMaxPool3dOptions(2)
                                .output_size(std::vector<int64_t>{3, 3, 3})
                                ._random_samples(torch::rand({2, 2, 3})));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 6, 6, 6}, device, true);
  auto [y, indices] = m->forward_with_indices(x);
  return sweep::forward_backward({y, indices}, {x}, m->parameters());
}

SWEEP_CASE("module", "LPPool1d") {
  nn::LPPool1d m(nn::LPPool1dOptions(2, 3).stride(2));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 9}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "LPPool2d") {
  // An odd norm of positive activations (of negative ones it is NaN).
  nn::LPPool2d m(nn::LPPool2dOptions(3, 2));
  m->to(device);
  Tensor x = sweep::rand({2, 3, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "MaxPool1d") {
  nn::MaxPool1d m(nn::MaxPool1dOptions(3).stride(2).padding(1));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 9}, device, true);
  auto [y, indices] = m->forward_with_indices(x);
  return sweep::forward_backward({m(x), y, indices}, {x}, m->parameters());
}

SWEEP_CASE("module", "MaxPool2d") {
  nn::MaxPool2d m(nn::MaxPool2dOptions(2));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "MaxPool2d(ResNet stem)") {
  // kernel 3, stride 2, padding 1; also with dilation and ceil_mode.
  nn::MaxPool2d m(nn::MaxPool2dOptions(3).stride(2).padding(1));
  nn::MaxPool2d m2(nn::MaxPool2dOptions(2).dilation(2).ceil_mode(true));
  m->to(device);
  m2->to(device);
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  auto [y, indices] = m->forward_with_indices(x);
  return sweep::forward_backward({y, indices, m2(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "MaxPool3d") {
  nn::MaxPool3d m(nn::MaxPool3dOptions(2).stride(2));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 4, 4, 4}, device, true);
  auto [y, indices] = m->forward_with_indices(x);
  return sweep::forward_backward({y, indices}, {x}, m->parameters());
}

SWEEP_CASE("module", "MaxUnpool1d") {
  nn::MaxPool1d pool(nn::MaxPool1dOptions(2).stride(2));
  nn::MaxUnpool1d m(nn::MaxUnpool1dOptions(2).stride(2));
  pool->to(device);
  m->to(device);
  Tensor x = sweep::randn({2, 3, 8}, device, true);
  auto [y, indices] = pool->forward_with_indices(x);
  return sweep::forward_backward({m(y, indices)}, {x}, m->parameters());
}

SWEEP_CASE("module", "MaxUnpool2d") {
  // SegNet's decoder: unpool with the encoder's indices, to an odd size.
  nn::MaxPool2d pool(nn::MaxPool2dOptions(2).stride(2));
  nn::MaxUnpool2d m(nn::MaxUnpool2dOptions(2).stride(2));
  pool->to(device);
  m->to(device);
  Tensor x = sweep::randn({2, 3, 7, 7}, device, true);
  auto [y, indices] = pool->forward_with_indices(x);
  // The size of the pooled input, as Python's `unpool(y, i, output_size=x.size())`
  // (LibTorch 1.13's _unpool_output_size rejects a size of only H and W).
  Tensor z = m(y, indices, x.sizes().vec());
  return sweep::forward_backward({z}, {x}, m->parameters());
}

SWEEP_CASE("module", "MaxUnpool3d") {
  nn::MaxPool3d pool(nn::MaxPool3dOptions(2).stride(2));
  nn::MaxUnpool3d m(nn::MaxUnpool3dOptions(2).stride(2));
  pool->to(device);
  m->to(device);
  Tensor x = sweep::randn({2, 2, 4, 4, 4}, device, true);
  auto [y, indices] = pool->forward_with_indices(x);
  return sweep::forward_backward({m(y, indices)}, {x}, m->parameters());
}

// ============================================================================
// Padding
// ============================================================================

SWEEP_CASE("module", "ConstantPad1d") {
  nn::ConstantPad1d m(nn::ConstantPad1dOptions({1, 2}, 3.5));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConstantPad2d") {
  nn::ConstantPad2d m(nn::ConstantPad2dOptions({1, 0, 2, 1}, -1));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ConstantPad3d") {
  nn::ConstantPad3d m(nn::ConstantPad3dOptions(1, 0.5));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 3, 3, 3}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ReflectionPad1d") {
  nn::ReflectionPad1d m(nn::ReflectionPad1dOptions({2, 1}));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ReflectionPad2d") {
  // CycleGAN's residual blocks.
  nn::ReflectionPad2d m(nn::ReflectionPad2dOptions(1));
  nn::Conv2d conv(nn::Conv2dOptions(3, 3, 3));
  m->to(device);
  conv->to(device);
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  Tensor y = conv(m(x));
  return sweep::forward_backward({y}, {x}, conv->parameters());
}

SWEEP_CASE("module", "ReflectionPad3d") {
  nn::ReflectionPad3d m(nn::ReflectionPad3dOptions({1, 1, 2, 0, 1, 1}));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 3, 4, 3}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ReplicationPad1d") {
  nn::ReplicationPad1d m(nn::ReplicationPad1dOptions({3, 1}));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ReplicationPad2d") {
  nn::ReplicationPad2d m(nn::ReplicationPad2dOptions({1, 2, 0, 1}));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ReplicationPad3d") {
  nn::ReplicationPad3d m(nn::ReplicationPad3dOptions(1));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 3, 3, 3}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ZeroPad2d") {
  nn::ZeroPad2d m(nn::ZeroPad2dOptions({1, 1, 2, 0}));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

// ============================================================================
// Dropout
// ============================================================================

SWEEP_RANDOM_CASE("module", "Dropout") {
  nn::Dropout m(nn::DropoutOptions(0.5));
  m->to(device);
  Tensor x = sweep::randn({4, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Dropout(eval)") {
  nn::Dropout m(nn::DropoutOptions(0.5));
  m->to(device);
  m->eval();
  Tensor x = sweep::randn({4, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_RANDOM_CASE("module", "Dropout(inplace)") {
  nn::Linear fc(6, 8);
  nn::Dropout m(nn::DropoutOptions(0.3).inplace(true));
  fc->to(device);
  m->to(device);
  Tensor x = sweep::randn({4, 6}, device, true);
  Tensor y = torch::relu(m(fc(x)));
  return sweep::forward_backward({y}, {x}, fc->parameters());
}

SWEEP_RANDOM_CASE("module", "Dropout2d") {
  nn::Dropout2d m(nn::Dropout2dOptions(0.5));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Dropout2d(eval)") {
  nn::Dropout2d m(nn::Dropout2dOptions(0.5));
  m->to(device);
  m->eval();
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_RANDOM_CASE("module", "Dropout3d") {
  nn::Dropout3d m(nn::Dropout3dOptions(0.5));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 3, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Dropout3d(eval)") {
  nn::Dropout3d m(nn::Dropout3dOptions(0.5));
  m->to(device);
  m->eval();
  Tensor x = sweep::randn({2, 3, 3, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_RANDOM_CASE("module", "AlphaDropout") {
  nn::AlphaDropout m(nn::AlphaDropoutOptions(0.2));
  m->to(device);
  Tensor x = sweep::randn({4, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "AlphaDropout(eval)") {
  nn::AlphaDropout m(nn::AlphaDropoutOptions(0.2));
  m->to(device);
  m->eval();
  Tensor x = sweep::randn({4, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_RANDOM_CASE("module", "FeatureAlphaDropout") {
  nn::FeatureAlphaDropout m(nn::FeatureAlphaDropoutOptions(0.2));
  m->to(device);
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "FeatureAlphaDropout(eval)") {
  nn::FeatureAlphaDropout m(nn::FeatureAlphaDropoutOptions(0.2));
  m->to(device);
  m->eval();
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

// ============================================================================
// Linear, shapes, embeddings, distances
// ============================================================================

SWEEP_CASE("module", "Identity") {
  nn::Identity m;
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Linear") {
  nn::Linear m(nn::LinearOptions(8, 4));
  m->to(device);
  Tensor x = sweep::randn({2, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Linear(3d input, no bias)") {
  nn::Linear m(nn::LinearOptions(8, 4).bias(false));
  m->to(device);
  Tensor x = sweep::randn({2, 5, 8}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Linear(clone to device)") {
  // A replica made with Cloneable::clone(device), as data-parallel code does.
  nn::Linear m(nn::LinearOptions(8, 4));
  auto replica = std::dynamic_pointer_cast<nn::LinearImpl>(m->clone(device));
  Tensor x = sweep::randn({2, 8}, device, true);
  return sweep::forward_backward({replica->forward(x)}, {x}, replica->parameters());
}

SWEEP_CASE("module", "Bilinear") {
  nn::Bilinear m(nn::BilinearOptions(4, 5, 3));
  m->to(device);
  Tensor x1 = sweep::randn({2, 4}, device, true);
  Tensor x2 = sweep::randn({2, 5}, device, true);
  return sweep::forward_backward({m(x1, x2)}, {x1, x2}, m->parameters());
}

SWEEP_CASE("module", "Flatten") {
  nn::Flatten m;
  nn::Flatten m2(nn::FlattenOptions().start_dim(0).end_dim(2));
  m->to(device);
  m2->to(device);
  Tensor x = sweep::randn({2, 3, 4, 5}, device, true);
  return sweep::forward_backward({m(x), m2(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Unflatten") {
  nn::Unflatten m(nn::UnflattenOptions(1, {3, 4}));
  m->to(device);
  Tensor x = sweep::randn({2, 12, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Embedding") {
  nn::Embedding m(nn::EmbeddingOptions(10, 4).padding_idx(0));
  m->to(device);
  Tensor indices = sweep::randint(10, {2, 5}, device);
  Tensor y = m(indices);
  return sweep::forward_backward({y}, {}, m->parameters());
}

SWEEP_CASE("module", "Embedding(int32 indices)") {
  nn::Embedding m(nn::EmbeddingOptions(10, 4));
  m->to(device);
  Tensor indices = sweep::randint(10, {2, 5}, device).to(torch::kInt);
  return sweep::forward_backward({m(indices)}, {}, m->parameters());
}

SWEEP_CASE("module", "Embedding(max_norm)") {
  // max_norm renormalises the looked-up rows of the weight in place.
  nn::Embedding m(nn::EmbeddingOptions(10, 4).max_norm(1.0).norm_type(2));
  m->to(device);
  Tensor indices = sweep::randint(10, {2, 5}, device);
  Tensor y = m(indices);
  return sweep::forward_backward({y, m->weight}, {}, m->parameters());
}

// Sparse gradients: the emulated devices hold dense tensors only.
SWEEP_REFUSED_CASE("module", "Embedding(sparse)",
                   "tensor-run cannot emulate aten::_sparse_coo_tensor_with_dims_and_tensors on a sparse cuda tensor") {
  nn::Embedding m(nn::EmbeddingOptions(10, 4).sparse(true));
  m->to(device);
  Tensor indices = sweep::randint(10, {2, 5}, device);
  Tensor y = m(indices);
  // The weight's gradient is a sparse tensor: compared dense.
  y.sum().backward();
  return {y, m->weight.grad().to_dense()};
}

SWEEP_CASE("module", "Embedding(from_pretrained)") {
  Tensor pretrained = torch::randn({10, 4});
  nn::Embedding m = nn::Embedding::from_pretrained(pretrained, nn::EmbeddingFromPretrainedOptions().freeze(false));
  m->to(device);
  Tensor indices = sweep::randint(10, {3}, device);
  return sweep::forward_backward({m(indices)}, {}, m->parameters());
}

SWEEP_CASE("module", "EmbeddingBag") {
  // A bag of words: one flat index list with offsets.
  nn::EmbeddingBag m(nn::EmbeddingBagOptions(10, 4).mode(torch::kMean));
  m->to(device);
  Tensor indices = sweep::randint(10, {8}, device);
  Tensor offsets = torch::tensor({0, 3, 5}, torch::kLong).to(device);
  return sweep::forward_backward({m(indices, offsets)}, {}, m->parameters());
}

SWEEP_CASE("module", "EmbeddingBag(sum, per_sample_weights)") {
  nn::EmbeddingBag m(nn::EmbeddingBagOptions(10, 4).mode(torch::kSum));
  m->to(device);
  Tensor indices = sweep::randint(10, {8}, device);
  Tensor offsets = torch::tensor({0, 2, 6}, torch::kLong).to(device);
  Tensor weights = sweep::rand({8}, device, true);
  return sweep::forward_backward({m(indices, offsets, weights)}, {weights}, m->parameters());
}

SWEEP_CASE("module", "EmbeddingBag(max, 2d)") {
  nn::EmbeddingBag m(nn::EmbeddingBagOptions(10, 4).mode(torch::kMax));
  m->to(device);
  Tensor indices = sweep::randint(10, {3, 4}, device);  // 3 bags of 4
  return sweep::forward_backward({m(indices)}, {}, m->parameters());
}

SWEEP_CASE("module", "EmbeddingBag(from_pretrained)") {
  Tensor pretrained = torch::randn({10, 4});
  nn::EmbeddingBag m =
      nn::EmbeddingBag::from_pretrained(pretrained, nn::EmbeddingBagFromPretrainedOptions().freeze(false));
  m->to(device);
  Tensor indices = sweep::randint(10, {2, 3}, device);
  return sweep::forward_backward({m(indices)}, {}, m->parameters());
}

SWEEP_CASE("module", "CosineSimilarity") {
  nn::CosineSimilarity m(nn::CosineSimilarityOptions().dim(1));
  m->to(device);
  Tensor x1 = sweep::randn({3, 6}, device, true);
  Tensor x2 = sweep::randn({3, 6}, device, true);
  return sweep::forward_backward({m(x1, x2)}, {x1, x2}, m->parameters());
}

SWEEP_CASE("module", "PairwiseDistance") {
  nn::PairwiseDistance m(nn::PairwiseDistanceOptions().p(2).keepdim(true));
  nn::PairwiseDistance m1(nn::PairwiseDistanceOptions().p(1));
  m->to(device);
  m1->to(device);
  Tensor x1 = sweep::randn({3, 6}, device, true);
  Tensor x2 = sweep::randn({3, 6}, device, true);
  return sweep::forward_backward({m(x1, x2), m1(x1, x2)}, {x1, x2}, m->parameters());
}

SWEEP_CASE("module", "Fold") {
  nn::Fold m(nn::FoldOptions({4, 5}, {2, 2}));
  m->to(device);
  // (batch, C * 2 * 2, blocks): 3 * 4 = 12 blocks of a 4x5 map.
  Tensor x = sweep::randn({2, 3 * 4, 12}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Unfold") {
  nn::Unfold m(nn::UnfoldOptions({2, 3}).padding(1).stride(2));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "PixelShuffle") {
  nn::PixelShuffle m(nn::PixelShuffleOptions(2));
  m->to(device);
  Tensor x = sweep::randn({2, 8, 3, 3}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "PixelUnshuffle") {
  nn::PixelUnshuffle m(nn::PixelUnshuffleOptions(2));
  m->to(device);
  Tensor x = sweep::randn({2, 2, 6, 6}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Upsample") {
  nn::Upsample m(nn::UpsampleOptions().scale_factor(std::vector<double>{2, 2}).mode(torch::kNearest));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Upsample(bilinear)") {
  // U-Net's bilinear upsampling, both align_corners settings.
  nn::Upsample m(
      nn::UpsampleOptions().scale_factor(std::vector<double>{2, 2}).mode(torch::kBilinear).align_corners(true));
  nn::Upsample m2(nn::UpsampleOptions().size(std::vector<int64_t>{7, 5}).mode(torch::kBilinear).align_corners(false));
  m->to(device);
  m2->to(device);
  Tensor x = sweep::randn({2, 3, 4, 4}, device, true);
  return sweep::forward_backward({m(x), m2(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Upsample(bicubic)") {
  nn::Upsample m(
      nn::UpsampleOptions().scale_factor(std::vector<double>{1.5, 1.5}).mode(torch::kBicubic).align_corners(false));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 4, 4}, device, true);
  return sweep::forward_backward({m(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "Upsample(linear, trilinear)") {
  nn::Upsample m1(nn::UpsampleOptions().scale_factor(std::vector<double>{2}).mode(torch::kLinear));
  nn::Upsample m3(nn::UpsampleOptions().scale_factor(std::vector<double>{2, 2, 2}).mode(torch::kTrilinear));
  m1->to(device);
  m3->to(device);
  Tensor x1 = sweep::randn({2, 3, 5}, device, true);
  Tensor x3 = sweep::randn({2, 2, 3, 3, 3}, device, true);
  return sweep::forward_backward({m1(x1), m3(x3)}, {x1, x3}, m1->parameters());
}

// ============================================================================
// Losses
// ============================================================================

SWEEP_CASE("module", "AdaptiveLogSoftmaxWithLoss") {
  nn::AdaptiveLogSoftmaxWithLoss m(nn::AdaptiveLogSoftmaxWithLossOptions(8, 12, {4, 8}).div_value(2.));
  m->to(device);
  Tensor x = sweep::randn({6, 8}, device, true);
  Tensor target = sweep::randint(12, {6}, device);
  nn::ASMoutput out = m(x, target);
  // ASMoutput's loss is a double in C++: the loss to differentiate is the
  // mean negative log-likelihood of the targets, as Python's loss tensor.
  Tensor loss = -out.output.mean();
  Tensor log_prob = m->log_prob(x);
  Tensor predicted = m->predict(x);
  return sweep::forward_backward({loss, log_prob, predicted}, {x}, m->parameters());
}

SWEEP_CASE("module", "BCELoss") {
  nn::BCELoss m;
  m->to(device);
  Tensor logits = sweep::randn({4, 3}, device, true);
  Tensor target = sweep::rand({4, 3}, device);
  return sweep::forward_backward({m(torch::sigmoid(logits), target)}, {logits}, m->parameters());
}

SWEEP_CASE("module", "BCELoss(weight)") {
  // A discriminator's loss: a weight per class, probabilities from a sigmoid.
  nn::BCELoss m(nn::BCELossOptions().weight(torch::rand({3})).reduction(torch::kSum));
  m->to(device);
  Tensor logits = sweep::randn({4, 3}, device, true);
  Tensor target = sweep::randint(2, {4, 3}, device).to(torch::kFloat);
  Tensor loss = m(torch::sigmoid(logits), target);
  return sweep::forward_backward({loss}, {logits}, m->parameters());
}

SWEEP_CASE("module", "BCEWithLogitsLoss") {
  nn::BCEWithLogitsLoss m;
  m->to(device);
  Tensor x = sweep::randn({4, 3}, device, true);
  Tensor target = sweep::randint(2, {4, 3}, device).to(torch::kFloat);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "BCEWithLogitsLoss(pos_weight, weight)") {
  nn::BCEWithLogitsLoss m(nn::BCEWithLogitsLossOptions().pos_weight(torch::rand({3}) * 3).weight(torch::rand({4, 1})));
  m->to(device);
  Tensor x = sweep::randn({4, 3}, device, true);
  Tensor target = sweep::rand({4, 3}, device);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "CTCLoss") {
  // Speech recognition: log-probabilities (T, N, C), padded targets (N, S),
  // and the lengths as cpu tensors, as most programs keep them.
  const int64_t T = 12, N = 2, C = 5, S = 4;
  nn::CTCLoss m(nn::CTCLossOptions().blank(0).zero_infinity(true));
  m->to(device);
  Tensor logits = sweep::randn({T, N, C}, device, true);
  Tensor log_probs = logits.log_softmax(2);
  Tensor targets = (sweep::randint(C - 1, {N, S}, device) + 1);  // no blanks
  Tensor input_lengths = torch::tensor({T, T - 2}, torch::kLong);
  Tensor target_lengths = torch::tensor({S, S - 1}, torch::kLong);
  Tensor loss = m(log_probs, targets, input_lengths, target_lengths);
  return sweep::forward_backward({loss}, {logits}, m->parameters());
}

SWEEP_CASE("module", "CTCLoss(lengths on device, concatenated targets)") {
  const int64_t T = 10, N = 3, C = 6;
  nn::CTCLoss m(nn::CTCLossOptions().reduction(torch::kSum));
  m->to(device);
  Tensor logits = sweep::randn({T, N, C}, device, true);
  Tensor log_probs = logits.log_softmax(2);
  Tensor target_lengths = torch::tensor({3, 2, 4}, torch::kLong);
  Tensor targets = (sweep::randint(C - 1, {9}, device) + 1);
  Tensor input_lengths = torch::full({N}, T, torch::kLong).to(device);
  Tensor loss = m(log_probs, targets, input_lengths, target_lengths.to(device));
  return sweep::forward_backward({loss}, {logits}, m->parameters());
}

SWEEP_CASE("module", "CosineEmbeddingLoss") {
  nn::CosineEmbeddingLoss m(nn::CosineEmbeddingLossOptions().margin(0.2));
  m->to(device);
  Tensor x1 = sweep::randn({4, 6}, device, true);
  Tensor x2 = sweep::randn({4, 6}, device, true);
  Tensor y = plus_minus_one({4}, device);
  return sweep::forward_backward({m(x1, x2, y)}, {x1, x2}, m->parameters());
}

SWEEP_CASE("module", "CrossEntropyLoss") {
  nn::CrossEntropyLoss m;
  m->to(device);
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randint(5, {4}, device);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "CrossEntropyLoss(weight, ignore_index, label_smoothing)") {
  nn::CrossEntropyLoss m(
      nn::CrossEntropyLossOptions().weight(torch::rand({5}) + 0.5).ignore_index(2).label_smoothing(0.1));
  m->to(device);
  Tensor x = sweep::randn({6, 5}, device, true);
  Tensor target = torch::tensor({0, 2, 4, 1, 2, 3}, torch::kLong).to(device);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "CrossEntropyLoss(segmentation)") {
  // Per-pixel classes: (N, C, H, W) logits, (N, H, W) targets.
  nn::CrossEntropyLoss m;
  m->to(device);
  Tensor x = sweep::randn({2, 4, 5, 5}, device, true);
  Tensor target = sweep::randint(4, {2, 5, 5}, device);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "CrossEntropyLoss(probabilities)") {
  nn::CrossEntropyLoss m(nn::CrossEntropyLossOptions().reduction(torch::kSum));
  m->to(device);
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = torch::softmax(sweep::randn({4, 5}, device), 1);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "HingeEmbeddingLoss") {
  nn::HingeEmbeddingLoss m(nn::HingeEmbeddingLossOptions().margin(1.5));
  m->to(device);
  Tensor x = sweep::rand({4, 5}, device, true);
  Tensor y = plus_minus_one({4, 5}, device);
  return sweep::forward_backward({m(x, y)}, {x}, m->parameters());
}

SWEEP_CASE("module", "HuberLoss") {
  nn::HuberLoss m(nn::HuberLossOptions().delta(0.5));
  m->to(device);
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randn({4, 5}, device);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "KLDivLoss") {
  nn::KLDivLoss m(nn::KLDivLossOptions().reduction(torch::kBatchMean));
  m->to(device);
  Tensor logits = sweep::randn({4, 5}, device, true);
  Tensor target = torch::softmax(sweep::randn({4, 5}, device), 1);
  return sweep::forward_backward({m(torch::log_softmax(logits, 1), target)}, {logits}, m->parameters());
}

SWEEP_CASE("module", "KLDivLoss(log_target)") {
  nn::KLDivLoss m(nn::KLDivLossOptions().reduction(torch::kSum).log_target(true));
  m->to(device);
  Tensor logits = sweep::randn({4, 5}, device, true);
  Tensor target = torch::log_softmax(sweep::randn({4, 5}, device), 1);
  return sweep::forward_backward({m(torch::log_softmax(logits, 1), target)}, {logits}, m->parameters());
}

SWEEP_CASE("module", "L1Loss") {
  nn::L1Loss m;
  m->to(device);
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randn({4, 5}, device);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "MSELoss") {
  nn::MSELoss m;
  m->to(device);
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randn({4, 5}, device);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "MSELoss(none)") {
  nn::MSELoss m(nn::MSELossOptions().reduction(torch::kNone));
  m->to(device);
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randn({4, 5}, device);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "MarginRankingLoss") {
  nn::MarginRankingLoss m(nn::MarginRankingLossOptions().margin(0.3));
  m->to(device);
  Tensor x1 = sweep::randn({6}, device, true);
  Tensor x2 = sweep::randn({6}, device, true);
  Tensor y = plus_minus_one({6}, device);
  return sweep::forward_backward({m(x1, x2, y)}, {x1, x2}, m->parameters());
}

SWEEP_CASE("module", "MultiLabelMarginLoss") {
  nn::MultiLabelMarginLoss m;
  m->to(device);
  Tensor x = sweep::randn({2, 5}, device, true);
  // The target classes of each sample, ended by -1.
  Tensor target = torch::tensor({{3, 0, -1, 1, 1}, {1, 2, 4, -1, 0}}, torch::kLong).to(device);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "MultiLabelSoftMarginLoss") {
  nn::MultiLabelSoftMarginLoss m(nn::MultiLabelSoftMarginLossOptions().weight(torch::rand({5})));
  m->to(device);
  Tensor x = sweep::randn({3, 5}, device, true);
  Tensor target = sweep::randint(2, {3, 5}, device).to(torch::kFloat);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "MultiMarginLoss") {
  nn::MultiMarginLoss m(nn::MultiMarginLossOptions().margin(0.8).weight(torch::rand({5}) + 0.5));
  nn::MultiMarginLoss m2(nn::MultiMarginLossOptions().p(2));
  m->to(device);
  m2->to(device);
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randint(5, {4}, device);
  return sweep::forward_backward({m(x, target), m2(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "NLLLoss") {
  nn::NLLLoss m;
  m->to(device);
  Tensor logits = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randint(5, {4}, device);
  return sweep::forward_backward({m(torch::log_softmax(logits, 1), target)}, {logits}, m->parameters());
}

SWEEP_CASE("module", "NLLLoss(weight, ignore_index, 2d)") {
  nn::NLLLoss m(nn::NLLLossOptions().weight(torch::rand({3}) + 0.5).ignore_index(1));
  m->to(device);
  Tensor logits = sweep::randn({2, 3, 4, 4}, device, true);
  Tensor target = sweep::randint(3, {2, 4, 4}, device);
  return sweep::forward_backward({m(torch::log_softmax(logits, 1), target)}, {logits}, m->parameters());
}

SWEEP_CASE("module", "PoissonNLLLoss") {
  nn::PoissonNLLLoss m;
  nn::PoissonNLLLoss m2(nn::PoissonNLLLossOptions().log_input(false).full(true));
  m->to(device);
  m2->to(device);
  Tensor log_rate = sweep::randn({4, 5}, device, true);
  Tensor rate = sweep::rand({4, 5}, device, true);
  Tensor target = sweep::randint(6, {4, 5}, device).to(torch::kFloat);
  return sweep::forward_backward({m(log_rate, target), m2(rate + 0.1, target)}, {log_rate, rate}, m->parameters());
}

SWEEP_CASE("module", "SmoothL1Loss") {
  nn::SmoothL1Loss m(nn::SmoothL1LossOptions().beta(0.5));
  m->to(device);
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor target = sweep::randn({4, 5}, device);
  return sweep::forward_backward({m(x, target)}, {x}, m->parameters());
}

SWEEP_CASE("module", "SoftMarginLoss") {
  nn::SoftMarginLoss m;
  m->to(device);
  Tensor x = sweep::randn({4, 5}, device, true);
  Tensor y = plus_minus_one({4, 5}, device);
  return sweep::forward_backward({m(x, y)}, {x}, m->parameters());
}

SWEEP_CASE("module", "TripletMarginLoss") {
  nn::TripletMarginLoss m(nn::TripletMarginLossOptions().margin(1.0).p(2).swap(true));
  m->to(device);
  Tensor a = sweep::randn({4, 6}, device, true);
  Tensor p = sweep::randn({4, 6}, device, true);
  Tensor n = sweep::randn({4, 6}, device, true);
  return sweep::forward_backward({m(a, p, n)}, {a, p, n}, m->parameters());
}

SWEEP_CASE("module", "TripletMarginWithDistanceLoss") {
  nn::TripletMarginWithDistanceLoss m(
      nn::TripletMarginWithDistanceLossOptions()
          .distance_function([](const Tensor& x, const Tensor& y) { return 1.0 - F::cosine_similarity(x, y); })
          .margin(0.5));
  nn::TripletMarginWithDistanceLoss m2;  // the pairwise distance
  m->to(device);
  m2->to(device);
  Tensor a = sweep::randn({4, 6}, device, true);
  Tensor p = sweep::randn({4, 6}, device, true);
  Tensor n = sweep::randn({4, 6}, device, true);
  return sweep::forward_backward({m(a, p, n), m2(a, p, n)}, {a, p, n}, m->parameters());
}

// ============================================================================
// Recurrent layers
// ============================================================================

namespace {

// The inputs of a packed batch: (T, B, F) or (B, T, F) padded with zeros,
// lengths in decreasing order unless `sorted` is false. The lengths stay a
// cpu int64 tensor: pack_padded_sequence requires that, on cuda too.
struct Padded {
  Tensor input, lengths;
};
Padded padded_batch(torch::Device device, bool batch_first, bool sorted, int64_t features) {
  const int64_t T = 5, B = 3;
  std::vector<int64_t> lens = sorted ? std::vector<int64_t>{5, 3, 2} : std::vector<int64_t>{3, 5, 2};
  Tensor x = torch::randn(batch_first ? std::vector<int64_t>{B, T, features} : std::vector<int64_t>{T, B, features});
  for (int64_t b = 0; b < B; ++b) (batch_first ? x[b] : x.select(1, b)).slice(0, lens[b]).zero_();
  x = x.to(device);
  x.requires_grad_(true);
  return {x, torch::tensor(lens, torch::kLong)};
}

}  // namespace

SWEEP_CASE("module", "RNN") {
  nn::RNN m(nn::RNNOptions(4, 6));
  m->to(device);
  Tensor x = sweep::randn({5, 2, 4}, device, true);
  auto [out, h] = m(x);
  return sweep::forward_backward({out, h}, {x}, m->parameters());
}

SWEEP_CASE("module", "RNN(relu, 2 layers, bidirectional, h0)") {
  nn::RNN m(nn::RNNOptions(4, 6).num_layers(2).nonlinearity(torch::kReLU).bidirectional(true));
  m->to(device);
  Tensor x = sweep::randn({5, 2, 4}, device, true);
  Tensor h0 = sweep::randn({4, 2, 6}, device, true);
  auto [out, h] = m(x, h0);
  return sweep::forward_backward({out, h}, {x, h0}, m->parameters());
}

SWEEP_CASE("module", "RNN(batch_first)") {
  nn::RNN m(nn::RNNOptions(4, 6).batch_first(true));
  m->to(device);
  Tensor x = sweep::randn({2, 5, 4}, device, true);
  auto [out, h] = m(x);
  return sweep::forward_backward({out, h}, {x}, m->parameters());
}

SWEEP_CASE("module", "RNN(packed)") {
  nn::RNN m(nn::RNNOptions(4, 6));
  m->to(device);
  Padded in = padded_batch(device, /*batch_first=*/false, /*sorted=*/true, 4);
  auto packed = nn::utils::rnn::pack_padded_sequence(in.input, in.lengths);
  auto [out, h] = m->forward_with_packed_input(packed);
  auto [padded, lengths] = nn::utils::rnn::pad_packed_sequence(out);
  return sweep::forward_backward({out.data(), padded, h}, {in.input}, m->parameters());
}

SWEEP_CASE("module", "LSTM") {
  nn::LSTM m(nn::LSTMOptions(4, 6));
  m->to(device);
  Tensor x = sweep::randn({5, 2, 4}, device, true);
  auto [out, state] = m(x);
  auto [h, c] = state;
  return sweep::forward_backward({out, h, c}, {x}, m->parameters());
}

SWEEP_CASE("module", "LSTM(batch_first, 2 layers, bidirectional, state)") {
  nn::LSTM m(nn::LSTMOptions(4, 6).num_layers(2).batch_first(true).bidirectional(true));
  m->to(device);
  Tensor x = sweep::randn({2, 5, 4}, device, true);
  Tensor h0 = sweep::randn({4, 2, 6}, device, true);
  Tensor c0 = sweep::randn({4, 2, 6}, device, true);
  auto [out, state] = m(x, std::make_tuple(h0, c0));
  auto [h, c] = state;
  return sweep::forward_backward({out, h, c}, {x, h0, c0}, m->parameters());
}

SWEEP_CASE("module", "LSTM(proj_size)") {
  nn::LSTM m(nn::LSTMOptions(4, 6).proj_size(3));
  m->to(device);
  Tensor x = sweep::randn({5, 2, 4}, device, true);
  auto [out, state] = m(x);
  auto [h, c] = state;
  return sweep::forward_backward({out, h, c}, {x}, m->parameters());
}

SWEEP_CASE("module", "LSTM(packed)") {
  // A language model's batch of padded sentences: pack, run, unpack.
  nn::LSTM m(nn::LSTMOptions(4, 6).batch_first(true));
  m->to(device);
  Padded in = padded_batch(device, /*batch_first=*/true, /*sorted=*/true, 4);
  auto packed = nn::utils::rnn::pack_padded_sequence(in.input, in.lengths, /*batch_first=*/true);
  auto [out, state] = m->forward_with_packed_input(packed);
  auto [h, c] = state;
  auto [padded, lengths] = nn::utils::rnn::pad_packed_sequence(out, /*batch_first=*/true);
  return sweep::forward_backward({out.data(), padded, h, c}, {in.input}, m->parameters());
}

SWEEP_CASE("module", "LSTM(packed, unsorted, bidirectional)") {
  nn::LSTM m(nn::LSTMOptions(4, 6).bidirectional(true).num_layers(2));
  m->to(device);
  Padded in = padded_batch(device, /*batch_first=*/false, /*sorted=*/false, 4);
  auto packed = nn::utils::rnn::pack_padded_sequence(in.input, in.lengths, /*batch_first=*/false,
                                                     /*enforce_sorted=*/false);
  auto [out, state] = m->forward_with_packed_input(packed);
  auto [h, c] = state;
  // No pad_packed_sequence here: LibTorch 1.13's indexes its cpu lengths
  // with the cuda unsorted_indices (`lengths.index({unsorted_indices})`),
  // which a GPU refuses ("indices should be either on cpu or on the same
  // device as the indexed tensor"); 2.x indexes with unsorted_indices.cpu().
  return sweep::forward_backward({out.data(), h, c, packed.sorted_indices(), packed.unsorted_indices()}, {in.input},
                                 m->parameters());
}

SWEEP_CASE("module", "LSTM(pack_sequence)") {
  // Variable-length sequences as a list, packed without padding.
  nn::LSTM m(nn::LSTMOptions(3, 4));
  m->to(device);
  // Sorted by decreasing length (unsorted, pad_packed_sequence fails on a
  // GPU in LibTorch 1.13: see "LSTM(packed, unsorted, bidirectional)").
  Tensor a = sweep::randn({4, 3}, device, true);
  Tensor b = sweep::randn({3, 3}, device, true);
  Tensor c = sweep::randn({2, 3}, device, true);
  auto packed = nn::utils::rnn::pack_sequence({a, b, c});
  auto [out, state] = m->forward_with_packed_input(packed);
  auto [padded, lengths] = nn::utils::rnn::pad_packed_sequence(out);
  Tensor padded_inputs = nn::utils::rnn::pad_sequence({a, b, c}, /*batch_first=*/true);
  return sweep::forward_backward({padded, std::get<0>(state), padded_inputs}, {a, b, c}, m->parameters());
}

SWEEP_CASE("module", "GRU") {
  nn::GRU m(nn::GRUOptions(4, 6));
  m->to(device);
  Tensor x = sweep::randn({5, 2, 4}, device, true);
  auto [out, h] = m(x);
  return sweep::forward_backward({out, h}, {x}, m->parameters());
}

SWEEP_CASE("module", "GRU(batch_first, 2 layers, bidirectional, h0)") {
  nn::GRU m(nn::GRUOptions(4, 6).num_layers(2).batch_first(true).bidirectional(true));
  m->to(device);
  Tensor x = sweep::randn({2, 5, 4}, device, true);
  Tensor h0 = sweep::randn({4, 2, 6}, device, true);
  auto [out, h] = m(x, h0);
  return sweep::forward_backward({out, h}, {x, h0}, m->parameters());
}

SWEEP_CASE("module", "GRU(packed)") {
  nn::GRU m(nn::GRUOptions(4, 6).batch_first(true));
  m->to(device);
  Padded in = padded_batch(device, /*batch_first=*/true, /*sorted=*/true, 4);
  auto packed = nn::utils::rnn::pack_padded_sequence(in.input, in.lengths, /*batch_first=*/true);
  auto [out, h] = m->forward_with_packed_input(packed);
  auto [padded, lengths] = nn::utils::rnn::pad_packed_sequence(out, /*batch_first=*/true);
  return sweep::forward_backward({padded, h}, {in.input}, m->parameters());
}

SWEEP_CASE("module", "GRU(packed, unsorted)") {
  // h comes back in the batch's own order (unsorted_indices applied).
  nn::GRU m(nn::GRUOptions(4, 6).batch_first(true));
  m->to(device);
  Padded in = padded_batch(device, /*batch_first=*/true, /*sorted=*/false, 4);
  auto packed = nn::utils::rnn::pack_padded_sequence(in.input, in.lengths, /*batch_first=*/true,
                                                     /*enforce_sorted=*/false);
  auto [out, h] = m->forward_with_packed_input(packed);
  return sweep::forward_backward({out.data(), h}, {in.input}, m->parameters());
}

SWEEP_CASE("module", "RNNCell") {
  nn::RNNCell m(nn::RNNCellOptions(4, 6).nonlinearity(torch::kTanh));
  m->to(device);
  Tensor x = sweep::randn({3, 2, 4}, device, true);
  Tensor h = sweep::randn({2, 6}, device, true);
  Tensor h1 = h;
  for (int64_t t = 0; t < 3; ++t) h1 = m(x[t], h1);
  Tensor fresh = m(x[0]);  // no hidden state given: zeros
  return sweep::forward_backward({h1, fresh}, {x, h}, m->parameters());
}

SWEEP_CASE("module", "LSTMCell") {
  nn::LSTMCell m(nn::LSTMCellOptions(4, 6));
  m->to(device);
  Tensor x = sweep::randn({3, 2, 4}, device, true);
  Tensor h = sweep::randn({2, 6}, device, true);
  Tensor c = sweep::randn({2, 6}, device, true);
  std::tuple<Tensor, Tensor> state{h, c};
  for (int64_t t = 0; t < 3; ++t) state = m(x[t], state);
  auto [h0, c0] = m(x[0]);
  return sweep::forward_backward({std::get<0>(state), std::get<1>(state), h0, c0}, {x, h, c}, m->parameters());
}

SWEEP_CASE("module", "GRUCell") {
  nn::GRUCell m(nn::GRUCellOptions(4, 6));
  m->to(device);
  Tensor x = sweep::randn({3, 2, 4}, device, true);
  Tensor h = sweep::randn({2, 6}, device, true);
  Tensor h1 = h;
  for (int64_t t = 0; t < 3; ++t) h1 = m(x[t], h1);
  return sweep::forward_backward({h1, m(x[0])}, {x, h}, m->parameters());
}

// ============================================================================
// Transformers (dropout 0 so that the runs are deterministic)
// ============================================================================

SWEEP_CASE("module", "TransformerEncoderLayer") {
  nn::TransformerEncoderLayer m(nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0));
  m->to(device);
  Tensor src = sweep::randn({5, 2, 8}, device, true);
  return sweep::forward_backward({m(src)}, {src}, m->parameters());
}

SWEEP_CASE("module", "TransformerEncoderLayer(gelu, masks)") {
  nn::TransformerEncoderLayer m(
      nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0).activation(torch::kGELU));
  m->to(device);
  Tensor src = sweep::randn({5, 2, 8}, device, true);
  Tensor mask = nn::TransformerImpl::generate_square_subsequent_mask(5).to(device);
  Tensor padding = torch::tensor({{false, false, false, false, false}, {false, false, false, true, true}}).to(device);
  return sweep::forward_backward({m(src, mask, padding)}, {src}, m->parameters());
}

SWEEP_CASE("module", "TransformerEncoder") {
  nn::TransformerEncoderLayer layer(nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0));
  nn::TransformerEncoder m(
      nn::TransformerEncoderOptions(layer, 2).norm(nn::AnyModule(nn::LayerNorm(nn::LayerNormOptions({8})))));
  m->to(device);
  Tensor src = sweep::randn({5, 2, 8}, device, true);
  Tensor mask = nn::TransformerImpl::generate_square_subsequent_mask(5).to(device);
  return sweep::forward_backward({m(src, mask)}, {src}, m->parameters());
}

SWEEP_CASE("module", "TransformerDecoderLayer") {
  nn::TransformerDecoderLayer m(nn::TransformerDecoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0));
  m->to(device);
  Tensor tgt = sweep::randn({4, 2, 8}, device, true);
  Tensor memory = sweep::randn({6, 2, 8}, device, true);
  Tensor tgt_mask = nn::TransformerImpl::generate_square_subsequent_mask(4).to(device);
  return sweep::forward_backward({m(tgt, memory, tgt_mask)}, {tgt, memory}, m->parameters());
}

SWEEP_CASE("module", "TransformerDecoder") {
  nn::TransformerDecoderLayer layer(nn::TransformerDecoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0));
  nn::TransformerDecoder m(nn::TransformerDecoderOptions(layer, 2));
  m->to(device);
  Tensor tgt = sweep::randn({4, 2, 8}, device, true);
  Tensor memory = sweep::randn({6, 2, 8}, device, true);
  Tensor tgt_mask = nn::TransformerImpl::generate_square_subsequent_mask(4).to(device);
  Tensor memory_padding = torch::zeros({2, 6}, torch::kBool);
  memory_padding[0][5] = true;
  memory_padding = memory_padding.to(device);
  Tensor y =
      m->forward(tgt, memory, tgt_mask, /*memory_mask=*/Tensor(), /*tgt_key_padding_mask=*/Tensor(), memory_padding);
  return sweep::forward_backward({y}, {tgt, memory}, m->parameters());
}

SWEEP_CASE("module", "Transformer") {
  nn::Transformer m(nn::TransformerOptions(8, 2, 2, 2).dim_feedforward(16).dropout(0.0));
  m->to(device);
  Tensor src = sweep::randn({6, 2, 8}, device, true);
  Tensor tgt = sweep::randn({4, 2, 8}, device, true);
  Tensor tgt_mask = m->generate_square_subsequent_mask(4).to(device);
  Tensor src_padding = torch::zeros({2, 6}, torch::kBool);
  src_padding[1].slice(0, 4) = true;
  src_padding = src_padding.to(device);
  Tensor y = m->forward(src, tgt, /*src_mask=*/Tensor(), tgt_mask, /*memory_mask=*/Tensor(), src_padding,
                        /*tgt_key_padding_mask=*/Tensor(), /*memory_key_padding_mask=*/src_padding);
  return sweep::forward_backward({y}, {src, tgt}, m->parameters());
}

// ============================================================================
// Containers
// ============================================================================

SWEEP_CASE("module", "Sequential") {
  // A conv block as most CNNs write it.
  nn::Sequential m(nn::Conv2d(nn::Conv2dOptions(3, 4, 3).padding(1).bias(false)), nn::BatchNorm2d(4), nn::ReLU(),
                   nn::MaxPool2d(2), nn::Flatten(), nn::Linear(4 * 3 * 3, 5));
  m->to(device);
  Tensor x = sweep::randn({2, 3, 6, 6}, device, true);
  Tensor y = m->forward(x);
  return sweep::forward_backward(with_buffers({y}, *m), {x}, m->parameters());
}

SWEEP_CASE("module", "Sequential(named, DCGAN generator)") {
  nn::Sequential m({
      {"up1", nn::ConvTranspose2d(nn::ConvTranspose2dOptions(6, 4, 4).stride(1).padding(0).bias(false))},
      {"bn1", nn::BatchNorm2d(4)},
      {"relu1", nn::ReLU(true)},
      {"up2", nn::ConvTranspose2d(nn::ConvTranspose2dOptions(4, 3, 4).stride(2).padding(1).bias(false))},
      {"tanh", nn::Tanh()},
  });
  m->to(device);
  Tensor z = sweep::randn({2, 6, 1, 1}, device, true);
  Tensor y = m->forward(z);
  return sweep::forward_backward(with_buffers({y}, *m), {z}, m->parameters());
}

SWEEP_CASE("module", "Sequential(push_back, double)") {
  // Built step by step, then converted to double with the device.
  nn::Sequential m;
  m->push_back(nn::Linear(4, 8));
  m->push_back(nn::Functional(torch::tanh));
  m->push_back("out", nn::Linear(8, 2));
  m->to(device, torch::kDouble);
  Tensor x = torch::randn({3, 4}, torch::kDouble).to(device).requires_grad_(true);
  return sweep::forward_backward({m->forward(x)}, {x}, m->parameters());
}

SWEEP_CASE("module", "ModuleList") {
  nn::ModuleList m(nn::Linear(4, 6), nn::Linear(6, 6), nn::Linear(6, 3));
  m->push_back(nn::LayerNorm(nn::LayerNormOptions({3})));
  m->to(device);
  Tensor x = sweep::randn({2, 4}, device, true);
  Tensor y = x;
  for (size_t i = 0; i + 1 < m->size(); ++i) y = torch::relu(m[i]->as<nn::Linear>()->forward(y));
  y = m->ptr<nn::LayerNormImpl>(m->size() - 1)->forward(y) * sweep::randn({2, 3}, device);
  return sweep::forward_backward({y}, {x}, m->parameters());
}

SWEEP_CASE("module", "ModuleDict") {
  nn::ModuleDict m(std::vector<std::pair<std::string, std::shared_ptr<nn::Module>>>{
      {"conv", nn::Conv2d(nn::Conv2dOptions(3, 4, 3)).ptr()},
      {"bn", nn::BatchNorm2d(4).ptr()},
      {"fc", nn::Linear(4, 2).ptr()},
  });
  m->to(device);
  Tensor x = sweep::randn({2, 3, 5, 5}, device, true);
  Tensor y = m["conv"]->as<nn::Conv2d>()->forward(x);
  y = torch::relu(m["bn"]->as<nn::BatchNorm2d>()->forward(y));
  y = m["fc"]->as<nn::Linear>()->forward(y.mean({2, 3}));
  return sweep::forward_backward(with_buffers({y}, *m), {x}, m->parameters());
}

namespace {

// ParameterDict and ParameterList hold a user module's parameters.
struct LowRankImpl : nn::Module {
  LowRankImpl() {
    // Both keep the tensor's requires_grad, as a Python nn.Parameter has it.
    factors->insert("u", torch::randn({6, 2}, torch::requires_grad()));
    factors->insert("v", torch::randn({2, 5}, torch::requires_grad()));
    biases->append(torch::zeros({5}, torch::requires_grad()));
    biases->append(torch::randn({5}, torch::requires_grad()));
  }
  Tensor forward(const Tensor& x) {
    Tensor y = x.matmul(factors["u"]).matmul(factors["v"]);
    for (const auto& b : *biases) y = y + b.value();
    return y;
  }
  nn::ParameterDict factors = register_module("factors", nn::ParameterDict());
  nn::ParameterList biases = register_module("biases", nn::ParameterList());
};
TORCH_MODULE(LowRank);

}  // namespace

SWEEP_CASE("module", "ParameterDict") {
  LowRank m;
  m->to(device);
  Tensor x = sweep::randn({3, 6}, device, true);
  Tensor y = m(x);
  std::vector<Tensor> dict_values = m->factors->values();
  return sweep::forward_backward({y}, {x}, dict_values);
}

SWEEP_CASE("module", "ParameterList") {
  LowRank m;
  m->to(device);
  Tensor x = sweep::randn({3, 6}, device, true);
  Tensor y = m(x);
  std::vector<Tensor> list_values;
  for (const auto& p : *m->biases) list_values.push_back(p.value());
  return sweep::forward_backward({y, m->biases[1]}, {x}, list_values);
}

SWEEP_CASE("module", "Functional") {
  nn::Functional relu(torch::relu);
  nn::Functional leaky(torch::leaky_relu, 0.2);
  nn::Functional softmax([](Tensor t) { return torch::log_softmax(t, 1); });
  relu->to(device);
  leaky->to(device);
  softmax->to(device);
  Tensor x = sweep::randn({3, 5}, device, true);
  return sweep::forward_backward({relu(x), leaky(x), softmax(x)}, {x}, relu->parameters());
}
