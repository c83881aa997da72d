// RUN: %check_tidy %s tensor-discarded-cast %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

void suppressed(torch::Tensor x) {
  x.to(torch::kHalf); // NOLINT
  x.to(torch::kHalf); // NOLINT(tensor-discarded-cast)
  x.to(torch::kHalf); // NOLINT(tensor-*)
  // NOLINTNEXTLINE(tensor-discarded-cast)
  x.cuda();
  // NOLINTBEGIN(tensor-discarded-cast)
  x.cpu();
  x.clone();
  // NOLINTEND(tensor-discarded-cast)

  // Suppressing another check suppresses nothing here.
  x.to(torch::kHalf); // NOLINT(bugprone-unused-return-value)
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' is discarded; tensor conversions return a new tensor and leave 'x' unchanged [tensor-discarded-cast]
  // CHECK-FIXES: {{^}}  x = x.to(torch::kHalf); // NOLINT(bugprone-unused-return-value){{$}}
}
