// The cuda API a program uses around its tensors: availability, device
// count, synchronize, seeding, pinned memory, serialization.
#include "cases.h"

#include <cstdlib>
#include <cstdio>
#include <functional>
#include <sstream>
#include <unistd.h>

using cases::cuda;
using cases::expect;

TT_CASE(cuda_api_clean) {
  expect(torch::cuda::is_available(), "cuda is available");
  const char* n = std::getenv("TENSOR_RUN_DEVICES");
  expect(torch::cuda::device_count() == static_cast<size_t>(n ? std::atoi(n) : 1), "the device count");
  torch::cuda::synchronize();

  torch::cuda::manual_seed_all(7);
  auto a = torch::randn({5}, cuda());
  torch::cuda::manual_seed_all(7);
  auto b = torch::randn({5}, cuda());
  expect(torch::equal(a.cpu(), b.cpu()), "manual_seed_all makes cuda draws repeat");

  torch::manual_seed(3);
  auto c1 = torch::randn({3});
  torch::manual_seed(3);
  auto noise = torch::randn({100}, cuda());
  auto c2 = torch::randn({3});
  expect(torch::equal(c1, c2), "cuda draws leave the cpu generator alone");

  torch::manual_seed(5);
  auto d1 = torch::dropout(torch::ones({100}, cuda()), 0.5, true);
  torch::manual_seed(5);
  auto d2 = torch::dropout(torch::ones({100}, cuda()), 0.5, true);
  expect(torch::equal(d1.cpu(), d2.cpu()) && d1.sum().item<float>() > 0, "dropout repeats under manual_seed");

  auto pinned = torch::ones({8}).pin_memory();
  expect(pinned.is_pinned() && !torch::ones({8}).is_pinned(), "pin_memory");
  auto moved = pinned.to(cuda(), /*non_blocking=*/true);
  expect(moved.is_cuda() && moved.sum().item<float>() == 8, "a non_blocking copy from pinned memory");

  const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                           "/tensor-run-case-" + std::to_string(::getpid()) + ".pt";
  torch::nn::Linear fc(3, 2);
  fc->to(cuda());
  torch::save(fc, path);
  torch::nn::Linear loaded(3, 2);
  torch::load(loaded, path, cuda());
  std::remove(path.c_str());
  expect(loaded->weight.is_cuda() && torch::equal(loaded->weight.cpu(), fc->weight.cpu()), "save and load on cuda");
  std::ostringstream printed;
  printed << torch::ones({2}, cuda());
  expect(printed.str().find("CUDAFloatType") != std::string::npos, "printing a cuda tensor");
}

// The program's child processes run without tensor-run.
TT_CASE(child_env_clean) {
  const char* preload = std::getenv("LD_PRELOAD");
  expect(!preload || std::string(preload).find("tensor-run") == std::string::npos,
         "LD_PRELOAD no longer names tensor-run's library");
}

// A program that dies keeps the records written before: each record is
// appended when it happens.
TT_CASE(crash_after_bug) {
  auto x = torch::randn({2}, cuda());
  auto y = x + torch::ones({2}); // BUG(tensor-mixed-device)
  std::fflush(stdout);
  std::abort();
}

// A violation in a lambda's body, run through std::function: GCC nests the
// lambda's operator() in its enclosing function's debug entry, where
// libdw's scope lookup does not look, and the body inlines LibTorch's
// header wrappers (cross_entropy). Its record named the header line of
// at::cross_entropy_loss, a header frame, so the record fell to the
// std::function call's line instead.
static void run_callback(const std::function<void()>& f) { f(); }

TT_CASE(lambda_bug) {
  auto logits = torch::randn({4, 3}, cuda());
  run_callback([&] {
    auto loss = torch::nn::functional::cross_entropy(logits, torch::tensor({0, 1, 2, 0})); // BUG(tensor-mixed-device)
    expect(loss.defined(), "record mode continues");
  });
}

// An in-place op as a function's last statement compiles to a jump at -O2
// (a tail call): the function leaves no frame on the stack, and the
// violation was placed at its caller's line. (Defined after the case, so
// its marker is the case's.)
static torch::Tensor& scale_in_place(torch::Tensor& x, const torch::Tensor& s);

TT_CASE(tail_call_bug) {
  auto x = torch::randn({3}, cuda());
  auto s = torch::full({3}, 2.0);
  scale_in_place(x, s);
  expect(x.defined(), "record mode continues");
}

__attribute__((noinline)) static torch::Tensor& scale_in_place(torch::Tensor& x, const torch::Tensor& s) {
  return x.mul_(s); // BUG(tensor-mixed-device)
}

// A template whose arguments name long types (pytorch/examples' mnist trains
// in a template over its data loader, whose type names the whole dataset
// pipeline): the record's `function` and raise mode's line carry its name
// with the template arguments shortened, not a kilobyte of std::string and
// allocator spellings. (Defined after the case, so its marker is the case's.)
template <class Batches, class Names>
static void train_templated(const Batches& batches, const Names& names);

TT_CASE(template_bug) {
  std::vector<std::pair<std::string, torch::Tensor>> batches{{"a", torch::ones({3, 3})}};
  std::map<std::string, std::vector<std::string>> names{{"x", {"y"}}};
  train_templated(batches, names);
}

template <class Batches, class Names>
static void train_templated(const Batches& batches, const Names& names) {
  auto w = torch::randn({3, 3}, cuda());
  for (const auto& b : batches) {
    auto y = w + b.second; // BUG(tensor-mixed-device)
    expect(y.defined() && !names.empty(), "record mode continues");
  }
}
