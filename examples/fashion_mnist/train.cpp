// Fashion-MNIST with an MLP (784-256-10) on tt: the clean program the
// checks find nothing in, and the tt side of the LibTorch comparison
// (train_libtorch.cpp is the same program on LibTorch 1.13).
//
//   fashion_mnist_tt [--device cpu|cuda] [--epochs N] [--data DIR]
//                    [--optimizer sgd|adam] [--lr X] [--batch-size N]
//                    [--workers N] [--limit N] [--seed N] [--save PATH] [--quiet]
//
// --device cuda needs a CUDA backend: real, or TT_EMULATE_CUDA=1.
#include <tt/tt.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

namespace {

struct Args {
  std::string device = "cpu";
  std::string data = "/usr/share/datasets/fashion-mnist";
  std::string optimizer = "sgd";
  std::string save;
  int epochs = 5;
  double lr = -1;  // per optimizer default below
  size_t batch_size = 64;
  size_t workers = 1;
  size_t limit = 0;  // 0: the whole training set
  uint64_t seed = 1;
  bool quiet = false;
};

[[noreturn]] void usage(const char* argv0) {
  std::cerr << "usage: " << argv0
            << " [--device cpu|cuda] [--epochs N] [--data DIR] [--optimizer sgd|adam] [--lr X]\n"
               "       [--batch-size N] [--workers N] [--limit N] [--seed N] [--save PATH] [--quiet]\n";
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
      a.batch_size = std::stoul(next());
    else if (k == "--workers")
      a.workers = std::stoul(next());
    else if (k == "--limit")
      a.limit = std::stoul(next());
    else if (k == "--seed")
      a.seed = std::stoull(next());
    else if (k == "--save")
      a.save = next();
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

// The model as users write it: a module with registered submodules.
struct Classifier : tt::nn::Module {
  Classifier() {
    fc1 = register_module("fc1", std::make_shared<tt::nn::Linear>(784, 256));
    fc2 = register_module("fc2", std::make_shared<tt::nn::Linear>(256, 10));
  }
  tt::Tensor forward(const tt::Tensor& x, tt::SourceLoc loc = tt::SourceLoc::current()) override {
    return fc2->forward(tt::relu(fc1->forward(x.flatten(1), loc)), loc);
  }
  std::shared_ptr<tt::nn::Linear> fc1, fc2;
};

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
  tt::manual_seed(args.seed);
  const tt::Device device = args.device == "cuda" ? tt::Device(tt::kCUDA) : tt::Device(tt::kCPU);

  auto train_set = std::make_shared<tt::data::MNIST>(args.data, tt::data::MNIST::Mode::kTrain, args.limit);
  auto test_set = std::make_shared<tt::data::MNIST>(args.data, tt::data::MNIST::Mode::kTest);
  tt::data::DataLoader train_loader(train_set, tt::data::DataLoaderOptions()
                                                   .batch_size(args.batch_size)
                                                   .shuffle(true)
                                                   .seed(args.seed)
                                                   .num_workers(args.workers)
                                                   .pin_memory(device.is_cuda()));
  tt::data::DataLoader test_loader(test_set, tt::data::DataLoaderOptions().batch_size(1000).num_workers(args.workers));

  Classifier model;
  model.to(device);
  std::unique_ptr<tt::optim::Optimizer> optimizer;
  if (args.optimizer == "sgd")
    optimizer = std::make_unique<tt::optim::SGD>(model.parameters(), tt::optim::SGDOptions(args.lr).momentum(0.9));
  else
    optimizer = std::make_unique<tt::optim::Adam>(model.parameters(), tt::optim::AdamOptions(args.lr));

  std::cout << "fashion_mnist (tt): " << train_set->size() << " train / " << test_set->size() << " test images, "
            << args.optimizer << " lr " << args.lr << ", batch " << args.batch_size << ", device " << device << "\n";
  double accuracy = 0;
  for (int epoch = 1; epoch <= args.epochs; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    model.train();
    double loss_sum = 0;
    size_t batches = 0;
    for (auto& batch : train_loader) {
      // Pinned batches: the copies need not wait (the step's one wait is item()).
      tt::Tensor data = batch.data.to(device, /*non_blocking=*/true);
      tt::Tensor target = batch.target.to(device, /*non_blocking=*/true);
      optimizer->zero_grad();
      tt::Tensor loss = tt::nn::functional::cross_entropy(model.forward(data), target);
      loss.backward();
      optimizer->step();
      loss_sum += loss.item<double>();
      ++batches;  // not inside the call: its arguments are evaluated in no set order
      progress(batches, train_loader.size(), loss_sum / static_cast<double>(batches), args.quiet);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    model.eval();
    tt::NoGradGuard no_grad;
    int64_t correct = 0;
    for (auto& batch : test_loader) {
      tt::Tensor predicted = model.forward(batch.data.to(device)).argmax(1);
      correct += predicted.eq(batch.target.to(device)).sum().item<int64_t>();
    }
    accuracy = 100.0 * static_cast<double>(correct) / static_cast<double>(test_set->size());
    std::printf("epoch %d: train loss %.4f, test accuracy %.2f%%, %.2f s\n", epoch,
                loss_sum / static_cast<double>(batches), accuracy, seconds);
    std::fflush(stdout);
  }
  if (!args.save.empty()) {
    tt::save(model, args.save);
    std::cout << "saved " << args.save << "\n";
  }
  return 0;
}
