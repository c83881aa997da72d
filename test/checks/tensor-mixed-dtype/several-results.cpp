// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// An op that returns several tensors gives each the dtype its name in the
// op's schema says: eigh's eigenvalues and eigenvectors, qr's Q and R,
// svd's U, S and Vh keep the matrix's dtype; sort's indices are int64.
// Others are unknown: lu_factor's pivots (int32), and eig's results, which
// are complex for a real matrix.
#include <torch/torch.h>
#include <tuple>

void eigenvectors_in_float64() {
  auto cov = torch::randn({16, 16}).to(torch::kDouble);
  auto eig = torch::linalg_eigh(cov, "L");
  auto vectors = std::get<1>(eig);
  auto rows = torch::randn({8, 16});
  auto projected = rows.mm(vectors);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'mm' does not promote dtypes: 'rows' is float32 and 'vectors' is float64 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'rows' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-7]]:37: note: 'vectors' is float64: converted here
}

void q_of_a_float64_matrix() {
  auto a = torch::randn({6, 6}, torch::kFloat64);
  auto [q, r] = torch::linalg_qr(a);
  auto y = torch::randn({4, 6}).mm(q);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'mm' does not promote dtypes: 'torch::randn({4, 6})' is float32 and 'q' is float64 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'torch::randn({4, 6})' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:12: note: 'q' is float64: created here
}

// --- Clean ---

void eigenvectors_of_a_float32_matrix() {
  auto cov = torch::randn({16, 16});
  auto vectors = std::get<1>(torch::linalg_eigh(cov, "L"));
  auto projected = torch::randn({8, 16}).mm(vectors);
}

void eigenvectors_converted_back() {
  auto cov = torch::randn({16, 16}).to(torch::kDouble);
  auto vectors = std::get<1>(torch::linalg_eigh(cov, "L")).to(torch::kFloat);
  auto projected = torch::randn({8, 16}).mm(vectors);
}

void pivots_are_not_the_matrix_dtype() {
  auto a = torch::randn({6, 6}, torch::kFloat64);
  auto [lu, pivots] = torch::linalg_lu_factor(a);
  auto p = pivots.to(torch::kFloat64).unsqueeze(0).mm(lu);
}

void sorted_values_keep_the_dtype() {
  auto x = torch::randn({4, 4});
  auto [values, indices] = x.sort(1);
  auto y = values.mm(torch::randn({4, 4}));
}
