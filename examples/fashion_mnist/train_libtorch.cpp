// The LibTorch 1.13 twin of train.cpp: the same program (data, model,
// optimizer, batch order policy, output) written against <torch/torch.h>,
// for side-by-side reading and for bench/epoch_bench's comparison.
//
//   fashion_mnist_libtorch [--device cpu|cuda] [--epochs N] [--data DIR]
//                          [--optimizer sgd|adam] [--lr X] [--batch-size N]
//                          [--workers N] [--limit N] [--seed N] [--quiet]
//
// LibTorch's MNIST dataset reads uncompressed files only, so this twin
// reads the IDX files itself with zlib (gzip or plain), as tt does.
#include <torch/torch.h>
#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

namespace {

struct Args {
  std::string device = "cpu";
  std::string data = "/usr/share/datasets/fashion-mnist";
  std::string optimizer = "sgd";
  int epochs = 5;
  double lr = -1;
  int64_t batch_size = 64;
  size_t workers = 1;
  int64_t limit = 0;
  uint64_t seed = 1;
  bool quiet = false;
};

[[noreturn]] void usage(const char* argv0) {
  std::cerr << "usage: " << argv0
            << " [--device cpu|cuda] [--epochs N] [--data DIR] [--optimizer sgd|adam] [--lr X]\n"
               "       [--batch-size N] [--workers N] [--limit N] [--seed N] [--quiet]\n";
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage(argv[0]);
      return argv[++i];
    };
    if (k == "--device")
      a.device = next();
    else if (k == "--epochs")
      a.epochs = std::stoi(next());
    else if (k == "--data")
      a.data = next();
    else if (k == "--optimizer")
      a.optimizer = next();
    else if (k == "--lr")
      a.lr = std::stod(next());
    else if (k == "--batch-size")
      a.batch_size = std::stol(next());
    else if (k == "--workers")
      a.workers = std::stoul(next());
    else if (k == "--limit")
      a.limit = std::stol(next());
    else if (k == "--seed")
      a.seed = std::stoull(next());
    else if (k == "--quiet")
      a.quiet = true;
    else
      usage(argv[0]);
  }
  if (a.device != "cpu" && a.device != "cuda") usage(argv[0]);
  if (a.optimizer != "sgd" && a.optimizer != "adam") usage(argv[0]);
  if (a.lr < 0) a.lr = a.optimizer == "sgd" ? 0.05 : 1e-3;
  return a;
}

// An IDX file of uint8 elements (images or labels) as a tensor.
torch::Tensor read_idx_u8(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  unsigned char magic[4];
  if (gzread(f, magic, 4) != 4 || magic[2] != 0x08) throw std::runtime_error("bad IDX file " + path);
  std::vector<int64_t> sizes(magic[3]);
  for (auto& s : sizes) {
    unsigned char b[4];
    if (gzread(f, b, 4) != 4) throw std::runtime_error("truncated " + path);
    s = (int64_t(b[0]) << 24) | (int64_t(b[1]) << 16) | (int64_t(b[2]) << 8) | b[3];
  }
  auto t = torch::empty(sizes, torch::kUInt8);
  if (gzread(f, t.data_ptr(), static_cast<unsigned>(t.numel())) != t.numel())
    throw std::runtime_error("truncated " + path);
  gzclose(f);
  return t;
}

std::string find(const std::string& root, const std::string& stem) {
  for (const char* ext : {"", ".gz"})
    if (std::filesystem::exists(root + "/" + stem + ext)) return root + "/" + stem + ext;
  throw std::runtime_error(stem + " not found in " + root);
}

// Fashion-MNIST as one dataset: float [N, 1, 28, 28] in [0, 1], int64 labels.
struct FashionMnist : torch::data::datasets::Dataset<FashionMnist> {
  FashionMnist(const std::string& root, bool train, int64_t limit) {
    const std::string p = train ? "train" : "t10k";
    images = read_idx_u8(find(root, p + "-images-idx3-ubyte")).to(torch::kFloat).div_(255).unsqueeze(1);
    labels = read_idx_u8(find(root, p + "-labels-idx1-ubyte")).to(torch::kLong);
    if (limit > 0 && limit < images.size(0)) {
      images = images.narrow(0, 0, limit).contiguous();
      labels = labels.narrow(0, 0, limit).contiguous();
    }
  }
  torch::data::Example<> get(size_t i) override { return {images[i], labels[i]}; }
  torch::optional<size_t> size() const override { return images.size(0); }
  torch::Tensor images, labels;
};

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 256));
    fc2 = register_module("fc2", torch::nn::Linear(256, 10));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x.flatten(1)))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Classifier);

void progress(size_t done, size_t total, double loss, bool quiet) {
  if (quiet) return;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * done / total);
  std::fprintf(stderr, "\r  [%s%s] %zu/%zu loss %.4f", std::string(filled, '=').c_str(),
               std::string(kWidth - filled, ' ').c_str(), done, total, loss);
  if (done == total) std::fprintf(stderr, "\n");
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  torch::manual_seed(args.seed);
  const torch::Device device = args.device == "cuda" ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);

  FashionMnist train_set(args.data, true, args.limit), test_set(args.data, false, 0);
  const size_t train_size = *train_set.size(), test_size = *test_set.size();
  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      train_set.map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(args.batch_size).workers(args.workers));
  auto test_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      test_set.map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(1000).workers(args.workers));
  const size_t batches_per_epoch = (train_size + args.batch_size - 1) / args.batch_size;

  Classifier model;
  model->to(device);
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  if (args.optimizer == "sgd")
    optimizer =
        std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(args.lr).momentum(0.9));
  else
    optimizer = std::make_unique<torch::optim::Adam>(model->parameters(), torch::optim::AdamOptions(args.lr));

  std::cout << "fashion_mnist (libtorch " << TORCH_VERSION << "): " << train_size << " train / " << test_size
            << " test images, " << args.optimizer << " lr " << args.lr << ", batch " << args.batch_size << ", device "
            << device << "\n";
  for (int epoch = 1; epoch <= args.epochs; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    model->train();
    double loss_sum = 0;
    size_t batches = 0;
    for (auto& batch : *train_loader) {
      torch::Tensor data = batch.data.to(device);
      torch::Tensor target = batch.target.to(device);
      optimizer->zero_grad();
      torch::Tensor loss = torch::nn::functional::cross_entropy(model->forward(data), target);
      loss.backward();
      optimizer->step();
      loss_sum += loss.item<double>();
      ++batches;  // not inside the call: its arguments are evaluated in no set order
      progress(batches, batches_per_epoch, loss_sum / static_cast<double>(batches), args.quiet);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    model->eval();
    torch::NoGradGuard no_grad;
    int64_t correct = 0;
    for (auto& batch : *test_loader) {
      torch::Tensor predicted = model->forward(batch.data.to(device)).argmax(1);
      correct += predicted.eq(batch.target.to(device)).sum().item<int64_t>();
    }
    const double accuracy = 100.0 * static_cast<double>(correct) / static_cast<double>(test_size);
    std::printf("epoch %d: train loss %.4f, test accuracy %.2f%%, %.2f s\n", epoch,
                loss_sum / static_cast<double>(batches), accuracy, seconds);
    std::fflush(stdout);
  }
  return 0;
}
