// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device %t -- -- %libtorch

// A reduction's result has fewer dimensions, or as many with keepdim=true
// (the schemas' `dim`, `keepdim=False`). Only a 0-dim cpu tensor may meet a
// cuda one, so a reduction that keeps a dimension is a mixed-device bug and
// one that reduces to 0-dim is not.

void keeps_dimensions() {
  auto a = torch::randn({2, 4}, torch::kCUDA);
  auto b = torch::randn({2, 4});
  auto c = a * b.sum(1, /*keepdim=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator*' combines tensors on different devices: 'a' is on cuda and 'b.sum(1, /*keepdim=*/true)' is on cpu [tensor-mixed-device]
  auto m = torch::randn({3, 4, 5});
  auto d = torch::randn({3, 5}, torch::kCUDA) - m.mean(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'operator-' combines tensors on different devices: 'torch::randn({3, 5}, torch::kCUDA)' is on cuda and 'm.mean(1)' is on cpu [tensor-mixed-device]
  (void)c, (void)d;
}

// --- Clean -------------------------------------------------------------------

void reduces_to_a_scalar(torch::Tensor unknown, bool keep) {
  auto a = torch::randn({2, 4}, torch::kCUDA);
  auto v = torch::randn({4});
  auto s1 = a * v.sum(0);               // 1-D reduced over its dim: 0-dim
  auto s2 = a * v.sum();                // no dim: 0-dim
  auto s3 = a * torch::randn({2, 4}).sum(torch::IntArrayRef{0, 1});
  auto s4 = a * unknown.cpu().sum(1, true); // the rank of `unknown` is not known
  auto s5 = a * v.sum(0, keep);          // keepdim not constant
  (void)s1, (void)s2, (void)s3, (void)s4, (void)s5;
}
