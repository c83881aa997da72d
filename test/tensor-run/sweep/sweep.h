// The op sweep: LibTorch's own op surface, each case run once on the cpu
// and once on an emulated cuda device (under tensor-run), the two runs'
// values compared. A correct program must run under tensor-run exactly as
// it runs on a GPU: to its end, with the cpu's values (up to float
// rounding) and no record.
//
// Three families, each generated from or checked against LibTorch itself:
//  - modules.cpp: every torch::nn module (TORCH_MODULE in the headers);
//  - functional.cpp: every torch::nn::functional function;
//  - aten.cpp: every ATen op that has a CUDA kernel (ATen/ops/*_cuda_dispatch.h),
//    called through the dispatcher with arguments synthesised from its schema.
// inventory.py lists the first two from the headers and the sweep fails
// when a module or function has no case (or no stated reason for none).
#pragma once

#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

namespace sweep {

/// What a case computes on one device: its outputs, then (when the case
/// differentiates) the gradients of its inputs and parameters. The runner
/// compares them element by element between the cpu and the cuda run.
using Results = std::vector<torch::Tensor>;

struct Case {
  std::string family;  // "module", "functional" or "aten"
  std::string name;    // e.g. "ConvTranspose2d", "F::conv2d", "aten::addmm.default"
  std::function<Results(torch::Device)> run;
  /// Draws random numbers on the device (dropout, rrelu, ...): the two runs
  /// use different generators, so only shapes and dtypes are compared.
  bool random = false;
  /// Not "": tensor-run cannot emulate what the case does, and its cuda run
  /// must fail with an error containing this text (tensor-run's own, naming
  /// the op and why). The sweep fails when the case runs after all, so the
  /// declaration goes when the emulation comes.
  std::string refused;
};

/// Registers a case. Returns true, so that a file registers its cases from
/// namespace-scope initialisers.
bool add(Case c);

/// Every case registered so far, in registration order.
std::vector<Case>& all();

/// Names a module or function for which no case exists, with the reason
/// (printed by --inventory; inventory.py accepts it as covered).
bool skip(const std::string& family, const std::string& name, const std::string& why);

/// Input helpers: values drawn from the cpu generator (the runner seeds it
/// before each run), then moved to the device, so both runs see the same
/// numbers. `grad` makes the tensor a leaf that requires grad on `device`.
torch::Tensor randn(torch::IntArrayRef sizes, torch::Device device, bool grad = false);
torch::Tensor rand(torch::IntArrayRef sizes, torch::Device device, bool grad = false);
torch::Tensor randint(int64_t high, torch::IntArrayRef sizes, torch::Device device);

/// Forward, then backward through the sum of every floating output; returns
/// the outputs followed by the gradients of `inputs` and of the module's
/// parameters (an undefined gradient is returned as an empty tensor).
Results forward_backward(const std::vector<torch::Tensor>& outputs, const std::vector<torch::Tensor>& inputs,
                         const std::vector<torch::Tensor>& parameters = {});

}  // namespace sweep

#define SWEEP_CAT2(a, b) a##b
#define SWEEP_CAT(a, b) SWEEP_CAT2(a, b)
/// SWEEP_CASE(family, name) { body using `device`, returning Results }
#define SWEEP_CASE(family, name)                                                                                       \
  static ::sweep::Results SWEEP_CAT(sweep_case_, __LINE__)(torch::Device device);                                      \
  static const bool SWEEP_CAT(sweep_reg_, __LINE__) = ::sweep::add({family, name, &SWEEP_CAT(sweep_case_, __LINE__)}); \
  static ::sweep::Results SWEEP_CAT(sweep_case_, __LINE__)(torch::Device device)
/// A case tensor-run refuses with an error containing `message`.
#define SWEEP_REFUSED_CASE(family, name, message)                                                 \
  static ::sweep::Results SWEEP_CAT(sweep_case_, __LINE__)(torch::Device device);                 \
  static const bool SWEEP_CAT(sweep_reg_, __LINE__) =                                             \
      ::sweep::add({family, name, &SWEEP_CAT(sweep_case_, __LINE__), /*random=*/false, message}); \
  static ::sweep::Results SWEEP_CAT(sweep_case_, __LINE__)(torch::Device device)
/// The same for a case that draws random numbers on the device.
#define SWEEP_RANDOM_CASE(family, name)                                                 \
  static ::sweep::Results SWEEP_CAT(sweep_case_, __LINE__)(torch::Device device);       \
  static const bool SWEEP_CAT(sweep_reg_, __LINE__) =                                   \
      ::sweep::add({family, name, &SWEEP_CAT(sweep_case_, __LINE__), /*random=*/true}); \
  static ::sweep::Results SWEEP_CAT(sweep_case_, __LINE__)(torch::Device device)
