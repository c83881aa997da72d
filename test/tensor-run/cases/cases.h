// The tensor-run test programs: one executable, one case per name
// (`tensor_run_cases NAME`). A case is a small LibTorch program written as
// users write them. Bug cases mark each line a record must be placed at with
// `BUG(check-name)`; clean cases have no marker and must produce no record.
// test/tensor-run/Inputs/markers.py compares a run with the markers.
// On a real GPU (tools/gpu-check, part libtorch) a case with a check a GPU
// raises on must fail and the others must run clean, unless its body says
// otherwise in a comment: `// GPU: raises "TEXT"` (LibTorch's own error,
// whose message holds TEXT), `// GPU: needs N devices` (skipped with fewer
// GPUs) or `// GPU: needs at most N devices` (skipped with more).
#pragma once

#include <torch/torch.h>

#include <functional>
#include <map>
#include <string>

namespace cases {

using Case = std::function<void()>;
std::map<std::string, Case>& registry();

struct Register {
  Register(const char* name, Case c) { registry().emplace(name, std::move(c)); }
};

// Fails the case (exit status 3) when a property of a clean run does not
// hold: tensor-run must not change what a correct program computes.
void expect(bool ok, const char* what);

// The device every case trains on.
inline torch::Device cuda(int index = 0) { return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index)); }

}  // namespace cases

#define TT_CASE_CAT2(a, b) a##b
#define TT_CASE_CAT(a, b) TT_CASE_CAT2(a, b)
// TT_CASE(name) { body }: defines and registers a case.
#define TT_CASE(name)                                                               \
  static void case_##name();                                                        \
  static ::cases::Register TT_CASE_CAT(register_, name)(#name, &case_##name);       \
  static void case_##name()
