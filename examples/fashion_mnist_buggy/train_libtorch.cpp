// The LibTorch 1.13 version of train.cpp, the buggy Fashion-MNIST trainer:
// the same program and the same bugs, written against <torch/torch.h>, for
// the static side. tensor-tidy analyses it through the build's
// compile_commands.json; the build does not compile it (see CMakeLists.txt),
// and the run-time confirmation comes from the tt program, train.cpp.
//
// Each bug is marked `BUG(check-name)` on the line the check reports, with
// the fix in the comment. LibTorch's DataLoaderOptions has no pin_memory;
// the batch is as unmoved as in train.cpp.
#include <torch/torch.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

namespace {

struct Args {
  std::string device = "cuda";
  std::string data = "/usr/share/datasets/fashion-mnist";
  int epochs = 1;
  int64_t batch_size = 64;
  int64_t limit = 0;
};

[[noreturn]] void usage(const char* argv0) {
  std::cerr << "usage: " << argv0 << " [--device cpu|cuda] [--epochs N] [--limit N] [--data DIR] [--batch-size N]\n";
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
    if (k == "--device") a.device = next();
    else if (k == "--epochs") a.epochs = std::stoi(next());
    else if (k == "--limit") a.limit = std::stol(next());
    else if (k == "--data") a.data = next();
    else if (k == "--batch-size") a.batch_size = std::stol(next());
    else usage(argv[0]);
  }
  if (a.device != "cpu" && a.device != "cuda") usage(argv[0]);
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
  if (gzread(f, t.data_ptr(), static_cast<unsigned>(t.numel())) != t.numel()) throw std::runtime_error("truncated " + path);
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

  // Per-class accuracy in percent; the class totals were created without the
  // device, on the host (see train.cpp).
  template <typename Loader>
  torch::Tensor per_class_accuracy(Loader& loader, const torch::Device& device);

  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Classifier);

// Cross-entropy with label smoothing that "makes sure" the logits are float32.
torch::Tensor smoothed_cross_entropy(torch::Tensor predictions, const torch::Tensor& targets, double smoothing = 0.1) {
  predictions.to(torch::kFloat32); // BUG(tensor-discarded-cast): predictions = predictions.to(torch::kFloat32);
  torch::Tensor log_probs = torch::log_softmax(predictions, 1);
  return torch::nll_loss(log_probs, targets) * (1.0 - smoothing) - log_probs.mean() * smoothing;
}

// The counting itself, in a helper: a cpu `seen` plus the batch's totals on
// the device, then added to per_class_accuracy's `total` on the device.
void count(torch::Tensor& correct, torch::Tensor& total, const torch::Tensor& predicted, const torch::Tensor& target,
           const torch::Device& device) {
  const torch::Tensor classes = torch::arange(10).to(device);
  torch::Tensor labels = target.to(device);
  torch::Tensor is_class = labels.unsqueeze(1).eq(classes);
  correct += is_class.mul(predicted.eq(labels).unsqueeze(1)).sum(0);
  torch::Tensor seen = torch::zeros({10});
  seen += is_class.sum(0); // BUG(tensor-mixed-device): torch::zeros({10}, device)
  total += seen; // BUG(tensor-mixed-device): the same fix (seen as per_class_accuracy calls it)
}

template <typename Loader>
torch::Tensor ClassifierImpl::per_class_accuracy(Loader& loader, const torch::Device& device) {
  torch::NoGradGuard no_grad;
  eval();
  torch::Tensor correct = torch::zeros({10}, device);
  torch::Tensor total = torch::zeros({10}, device);
  for (auto& batch : loader) count(correct, total, forward(batch.data.to(device)).argmax(1), batch.target, device);
  return correct.div(total).mul(100).cpu();
}

const char* const kClassNames[10] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                     "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  torch::manual_seed(1);
  const torch::Device device = args.device == "cuda" ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);

  FashionMnist train_set(args.data, true, args.limit), test_set(args.data, false, args.limit);
  const size_t train_size = *train_set.size();
  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      train_set.map(torch::data::transforms::Stack<>()), torch::data::DataLoaderOptions().batch_size(args.batch_size));
  auto test_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      test_set.map(torch::data::transforms::Stack<>()), torch::data::DataLoaderOptions().batch_size(1000));

  Classifier model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));

  // A quick look at the output shape before spending time on training.
  torch::Tensor probe = torch::rand({1, 1, 28, 28});
  torch::Tensor probe_out = model->forward(probe); // BUG(tensor-unmoved-input): model->forward(probe.to(device))
  std::cout << "output shape: " << probe_out.sizes() << "\n";
  std::cout << "fashion_mnist_buggy (libtorch): " << train_size << " train images, device " << device << "\n";

  for (int epoch = 1; epoch <= args.epochs; ++epoch) {
    model->train();
    double loss_sum = 0;
    size_t batches = 0;
    for (auto& batch : *train_loader) {
      torch::Tensor target = batch.target.to(device);
      optimizer.zero_grad();
      torch::Tensor output = model->forward(batch.data); // BUG(tensor-unmoved-input): model->forward(batch.data.to(device))
      torch::Tensor loss = smoothed_cross_entropy(output, target);
      loss.backward();
      optimizer.step();
      loss_sum += loss.item<double>();
      ++batches;
    }
    const torch::Tensor accuracy = model->per_class_accuracy(*test_loader, device);
    std::printf("epoch %d: train loss %.4f, test accuracy %.2f%% (mean of classes)\n", epoch,
                loss_sum / static_cast<double>(batches), accuracy.mean().item<double>());
    for (int c = 0; c < 10; ++c) std::printf("  %-12s %6.2f%%\n", kClassNames[c], accuracy[c].item<double>());
  }

  // Deployment check in half precision: the model is cast in place; the
  // batch is not.
  torch::NoGradGuard no_grad;
  model->to(torch::kHalf);
  model->eval();
  for (auto& batch : *test_loader) {
    // The serving pipeline sends float32 images, as the data set stores them.
    torch::Tensor images = batch.data.to(device, torch::kFloat32);
    torch::Tensor logits = model->forward(images); // BUG(tensor-mixed-dtype): model->forward(images.to(torch::kHalf))
    torch::Tensor loss = smoothed_cross_entropy(logits, batch.target.to(device));
    std::printf("half-precision test loss (first batch): %.4f\n", loss.item<double>());
    break;
  }
  return 0;
}
