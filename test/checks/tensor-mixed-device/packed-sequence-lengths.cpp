// REQUIRES: libtorch
// tensor-clangd's preamble skips pack_padded_sequence's body, and the op it
// calls is named otherwise and takes fewer arguments, so there only the
// direct _pack_padded_sequence and _pad_packed_sequence calls are judged.
// RUN: %check_tidy --frontends=plugin,tensor-tidy %s tensor-mixed-device %t -- -- %libtorch

// Tensors ATen requires on the cpu whatever the other tensors' device: a
// packed sequence's lengths and batch_sizes (PackedSequence.cpp's
// checkLongTensor: "'lengths' argument should be a 1D CPU int64 tensor, but
// got 1D cuda:0 Long tensor"). The C++ API's pack_padded_sequence passes its
// lengths on as they are; Python's moves them to the cpu, so code ported
// from Python keeps them beside the batch on the gpu.
#include <torch/torch.h>

namespace rnn = torch::nn::utils::rnn;

// --- Bugs --------------------------------------------------------------------

void bugs(torch::Device device) {
  auto input = torch::randn({5, 3, 8}, torch::kCUDA);
  auto lengths = torch::tensor({5, 3, 2}, torch::kLong).to(torch::kCUDA);
  auto packed = rnn::pack_padded_sequence(input, lengths);
  // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: 'pack_padded_sequence' takes its 'lengths' on the cpu, but 'lengths' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:57: note: 'lengths' is on cuda: moved here
  auto lens = torch::tensor({5, 3, 2}).to(device);
  auto p2 = rnn::pack_padded_sequence(input.to(device), lens, /*batch_first=*/false);
  // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: 'pack_padded_sequence' takes its 'lengths' on the cpu, but 'lens' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:40: note: 'lens' is on 'device': moved here
  auto r = torch::_pack_padded_sequence(input, lengths, false);
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: '_pack_padded_sequence' takes its 'lengths' on the cpu, but 'lengths' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-10]]:57: note: 'lengths' is on cuda: moved here
  auto batch_sizes = torch::ones({5}, torch::kLong).cuda();
  auto r2 = torch::_pad_packed_sequence(input, batch_sizes, false, 0.0, 5);
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: '_pad_packed_sequence' takes its 'batch_sizes' on the cpu, but 'batch_sizes' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:53: note: 'batch_sizes' is on cuda: moved here
}

// A recurrent encoder's forward, followed from its call with the caller's
// tensors: the lengths came to the gpu with the batch.
struct EncoderImpl : torch::nn::Module {
  EncoderImpl() : gru(register_module("gru", torch::nn::GRU(8, 16))) {}
  torch::Tensor forward(torch::Tensor x, torch::Tensor lengths) {
    auto packed = rnn::pack_padded_sequence(x, lengths, true, false);
    // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: 'pack_padded_sequence' takes its 'lengths' on the cpu, but 'lengths' is on cuda [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE+12]]:63: note: 'lengths' is on cuda: moved here
    // CHECK-MESSAGES: :[[@LINE+12]]:12: note: in the call to 'forward' here
    return std::get<0>(gru->forward(packed.data()));
  }
  torch::nn::GRU gru;
};
TORCH_MODULE(Encoder);

void encode() {
  Encoder encoder;
  encoder->to(torch::kCUDA);
  auto batch = torch::randn({3, 5, 8}).to(torch::kCUDA);
  auto batch_lengths = torch::tensor({5, 3, 2}, torch::kLong).to(torch::kCUDA);
  encoder->forward(batch, batch_lengths);
}

// --- Clean -------------------------------------------------------------------

void clean(torch::Device device, torch::Tensor given) {
  auto input = torch::randn({5, 3, 8}, torch::kCUDA);
  auto lengths = torch::tensor({5, 3, 2}, torch::kLong);
  auto packed = rnn::pack_padded_sequence(input, lengths);   // on the cpu
  auto on_gpu = lengths.to(device);
  rnn::pack_padded_sequence(input, on_gpu.cpu());             // moved back
  rnn::pack_padded_sequence(input, on_gpu.to(torch::kCPU), true, false);
  rnn::pack_padded_sequence(input, given);                    // not known
  auto padded = rnn::pad_packed_sequence(packed);             // its own
  torch::_pad_packed_sequence(packed.data(), packed.batch_sizes(), false, 0.0, 5);
  // Indices and repeats may stay on the cpu, or move with the tensor.
  auto repeats = torch::tensor({1, 2, 3}, torch::kLong).to(device);
  torch::repeat_interleave(torch::ones({3}, device), repeats);
}
