// tensor-discarded-cast at run time: a conversion whose result dies unread.
#include "cases.h"

#include <vector>

using cases::cuda;
using cases::expect;

TT_CASE(discard_bug) {
  auto images = torch::randn({4, 4});
  images.to(cuda()); // BUG(tensor-discarded-cast)
  auto logits = torch::randn({4, 4}, cuda()).to(torch::kHalf);
  logits.to(torch::kFloat32); // BUG(tensor-discarded-cast)
  expect(images.is_cpu() && logits.scalar_type() == torch::kHalf, "the sources are unchanged");
}

TT_CASE(discard_clean) {
  auto x = torch::randn({4, 4});
  x = x.to(cuda());
  auto half = x.to(torch::kHalf);
  expect(half.sum().item<float>() != 12345.f, "a kept conversion is read");
  std::vector<torch::Tensor> kept;
  kept.push_back(x.to(torch::kDouble));
  expect(kept[0].scalar_type() == torch::kDouble && kept[0].sum().defined(), "kept in a container");
  auto same = x.to(cuda());  // already there: the same tensor, nothing made
  expect(same.is_same(x), "a no-op conversion returns its source");
  torch::nn::Linear unused(4, 4);
  unused->to(cuda());  // the library's conversions, even if the module is never used
  auto unread = x.to(torch::kDouble);  // kept, never read, outlives other ops: not discarded at the statement
  expect(x.abs().sum().item<float>() >= 0, "other work");
  // Kept, only its shape read, then dropped with no op between: the last,
  // incomplete batch skipped. It dies at its scope's end, not its statement's.
  double total = 0;
  for (auto& b : torch::arange(50, torch::kFloat).split(8)) {
    auto batch = b.to(cuda());
    if (batch.size(0) < 8)
      continue;
    total += batch.sum().item<double>();
  }
  expect(total == 1128, "the full batches are summed");
}
