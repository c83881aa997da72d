// One training epoch of the Fashion-MNIST MLP (784-256-10, SGD with
// momentum 0.9, lr 0.05, batch 64, cross-entropy) on tt and on LibTorch,
// in the same process, on the same data in the same shuffled order:
// reports each epoch's time and the ratio tt / LibTorch (issue 24: <= 0.8 at one thread).
//
//   build/bin/epoch_bench [--data DIR] [--repeats N] [--limit N] [--only tt|libtorch]
//
// --only runs one side (for a profiler: `perf record -g epoch_bench --only tt`).
//
// Batches are gathered from in-memory tensors on the training thread for
// both (tt: TensorDataset::get_batch, LibTorch: index_select), so the
// figure compares autograd, kernels and optimizer, not data loaders.
// Epochs alternate (LibTorch, tt, LibTorch, tt, ...); medians are reported.
#include <ATen/Parallel.h>
#include <torch/torch.h>
#include <tt/tt.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Batches {
  std::vector<std::vector<size_t>> tt_indices;
  std::vector<torch::Tensor> torch_indices;
};

Batches make_batches(size_t n, size_t batch, uint64_t seed) {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  Batches b;
  for (size_t i = 0; i < n; i += batch) {
    std::vector<size_t> idx(order.begin() + i, order.begin() + std::min(n, i + batch));
    std::vector<int64_t> idx64(idx.begin(), idx.end());
    b.torch_indices.push_back(torch::tensor(idx64, torch::kLong));
    b.tt_indices.push_back(std::move(idx));
  }
  return b;
}

struct TtNet : tt::nn::Module {
  TtNet() {
    fc1 = register_module("fc1", std::make_shared<tt::nn::Linear>(784, 256));
    fc2 = register_module("fc2", std::make_shared<tt::nn::Linear>(256, 10));
  }
  tt::Tensor forward(const tt::Tensor& x, tt::SourceLoc loc = tt::SourceLoc::current()) override {
    return fc2->forward(tt::relu(fc1->forward(x, loc)), loc);
  }
  std::shared_ptr<tt::nn::Linear> fc1, fc2;
};

struct TorchNetImpl : torch::nn::Module {
  TorchNetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 256));
    fc2 = register_module("fc2", torch::nn::Linear(256, 10));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(TorchNet);

double tt_epoch(const tt::data::TensorDataset& data, const Batches& b, double* last_loss) {
  tt::manual_seed(1);
  TtNet model;
  tt::optim::SGD opt(model.parameters(), tt::optim::SGDOptions(0.05).momentum(0.9));
  const auto start = Clock::now();
  tt::Tensor loss;
  for (const auto& idx : b.tt_indices) {
    tt::data::Example batch = data.get_batch(idx);
    opt.zero_grad();
    loss = tt::nn::functional::cross_entropy(model.forward(batch.data), batch.target);
    loss.backward();
    opt.step();
  }
  *last_loss = loss.item<double>();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double torch_epoch(const torch::Tensor& x, const torch::Tensor& y, const Batches& b, double* last_loss) {
  torch::manual_seed(1);
  TorchNet model;
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  const auto start = Clock::now();
  torch::Tensor loss;
  for (const auto& idx : b.torch_indices) {
    torch::Tensor data = x.index_select(0, idx), target = y.index_select(0, idx);
    opt.zero_grad();
    loss = torch::nn::functional::cross_entropy(model->forward(data), target);
    loss.backward();
    opt.step();
  }
  *last_loss = loss.item<double>();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/usr/share/datasets/fashion-mnist";
  int repeats = 3;
  size_t limit = 0;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--data"))
      dir = argv[i + 1];
    else if (!std::strcmp(argv[i], "--repeats"))
      repeats = std::max(1, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--limit"))
      limit = std::strtoul(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--only"))
      only = argv[i + 1];
  }
  if (!only.empty() && only != "tt" && only != "libtorch") {
    std::fprintf(stderr, "epoch_bench: --only takes tt or libtorch, not '%s'\n", only.c_str());
    return 2;
  }
  const bool run_tt = only != "libtorch", run_torch = only != "tt";
  tt::data::MNIST tt_data(dir, tt::data::MNIST::Mode::kTrain, limit);
  const int64_t n = static_cast<int64_t>(tt_data.size());
  // The same pixels and labels for LibTorch (copied, so neither shares memory).
  const tt::Tensor images = tt_data.images();
  torch::Tensor x = torch::from_blob(images.data_ptr<float>(), {n, 784}, torch::kFloat).clone();
  torch::Tensor y = torch::from_blob(tt_data.targets().data_ptr<int64_t>(), {n}, torch::kLong).clone();
  tt::data::TensorDataset tt_flat(images.view({n, 784}), tt_data.targets());
  const Batches batches = make_batches(static_cast<size_t>(n), 64, 7);

  std::printf("epoch_bench: %lld images, %zu steps of batch 64, MLP 784-256-10, SGD momentum 0.9\n",
              static_cast<long long>(n), batches.tt_indices.size());
  std::printf("LibTorch %s, intra-op threads %d\n", TORCH_VERSION, at::get_num_threads());
  std::vector<double> tt_times, torch_times;
  for (int r = 0; r < repeats; ++r) {
    double tl = 0, ll = 0;
    torch_times.push_back(run_torch ? torch_epoch(x, y, batches, &ll) : 0.0);
    tt_times.push_back(run_tt ? tt_epoch(tt_flat, batches, &tl) : 0.0);
    std::printf("  run %d: LibTorch %.3f s (last loss %.4f), tt %.3f s (last loss %.4f)\n", r + 1, torch_times.back(),
                ll, tt_times.back(), tl);
  }
  const double t = median(tt_times), l = median(torch_times);
  std::printf("median epoch: tt %.3f s, LibTorch %.3f s, ratio tt/LibTorch %.2f (issue 24: <= 0.8 at one thread)\n", t,
              l, t / l);
  return 0;
}
