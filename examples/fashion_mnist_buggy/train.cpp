// Fashion-MNIST, the way it often gets written the first time: the clean
// trainer of examples/fashion_mnist with the seed articles' device and dtype
// bugs in the places people put them. On a CPU laptop (--device cpu) it runs
// and trains; on a GPU it stops at the first bug. Under TT_VALIDATE=record
// (with TT_EMULATE_CUDA=1 where no GPU is present) it runs to the end on
// `--device cuda`, and the runtime writes down each bug it meets, at the
// same line the tensor-* checks report (tools/demo joins the two).
//
// Each bug is marked `BUG(check-name)` on the line the check reports, with
// the fix in the comment; each buggy call is kept on one line so that the
// runtime's call site (std::source_location) and the check's line agree.
//
//   fashion_mnist_buggy_tt [--device cpu|cuda] [--epochs N] [--limit N]
//                          [--data DIR] [--batch-size N] [--quiet]
#include <tt/tt.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

namespace {

struct Args {
  std::string device = "cuda";
  std::string data = "/usr/share/datasets/fashion-mnist";
  int epochs = 1;
  size_t batch_size = 64;
  size_t limit = 0;  // 0: every image; else at most N training and N test images
  bool quiet = false;
};

[[noreturn]] void usage(const char* argv0) {
  std::cerr << "usage: " << argv0
            << " [--device cpu|cuda] [--epochs N] [--limit N] [--data DIR] [--batch-size N] [--quiet]\n";
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
    else if (k == "--limit") a.limit = std::stoul(next());
    else if (k == "--data") a.data = next();
    else if (k == "--batch-size") a.batch_size = std::stoul(next());
    else if (k == "--quiet") a.quiet = true;
    else usage(argv[0]);
  }
  if (a.device != "cpu" && a.device != "cuda") usage(argv[0]);
  return a;
}

struct Classifier : tt::nn::Module {
  Classifier() {
    fc1 = register_module("fc1", std::make_shared<tt::nn::Linear>(784, 256));
    fc2 = register_module("fc2", std::make_shared<tt::nn::Linear>(256, 10));
  }
  // `loc` carries the caller's line down to the layers, so that the runtime
  // reports a bad input where forward() was called, not in here.
  tt::Tensor forward(const tt::Tensor& x, tt::SourceLoc loc = tt::SourceLoc::current()) override {
    return fc2->forward(tt::relu(fc1->forward(x.flatten(1), loc)), loc);
  }
  // Per-class accuracy on a test set, in percent. Both counters were meant
  // to live on the model's device; the class totals were created without
  // it, on the host, so each batch's totals, computed on the device, are
  // added to a cpu tensor, and the final division mixes the two again.
  tt::Tensor per_class_accuracy(tt::data::DataLoader& loader, const tt::Device& device) {
    tt::NoGradGuard no_grad;
    eval();
    tt::Tensor correct = tt::zeros({10}, device);
    tt::Tensor total = tt::zeros({10});
    const tt::Tensor classes = tt::arange(10).to(device);
    for (auto& batch : loader) {
      tt::Tensor labels = batch.target.to(device);
      tt::Tensor predicted = forward(batch.data.to(device)).argmax(1);
      tt::Tensor is_class = labels.unsqueeze(1).eq(classes);            // [N, 10]
      tt::Tensor hit = is_class.mul(predicted.eq(labels).unsqueeze(1));  // [N, 10]
      correct += hit.sum(0);
      total += is_class.sum(0); // BUG(tensor-mixed-device): tt::Tensor total = tt::zeros({10}, device);
    }
    return correct.div(total).mul(100).cpu(); // BUG(tensor-mixed-device): same fix (a class absent from the set gives nan)
  }

  std::shared_ptr<tt::nn::Linear> fc1, fc2;
};

// Cross-entropy with label smoothing. It "makes sure" the logits are float32
// (a half model's logits lose precision in log_softmax), but the cast is out
// of place and its result is thrown away. With the float32 model of the
// training loop the cast changes nothing (to() returns the same tensor, as in
// PyTorch); the run records it when the half-precision model's logits come
// through in the deployment check below.
tt::Tensor smoothed_cross_entropy(tt::Tensor predictions, const tt::Tensor& targets, double smoothing = 0.1) {
  predictions.to(tt::kFloat32); // BUG(tensor-discarded-cast): predictions = predictions.to(tt::kFloat32);
  tt::Tensor log_probs = tt::log_softmax(predictions, 1);
  return tt::nn::functional::nll_loss(log_probs, targets) * (1.0 - smoothing) - log_probs.mean() * smoothing;
}

const char* const kClassNames[10] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                     "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  tt::manual_seed(1);
  const tt::Device device = args.device == "cuda" ? tt::Device(tt::kCUDA) : tt::Device(tt::kCPU);

  auto train_set = std::make_shared<tt::data::MNIST>(args.data, tt::data::MNIST::Mode::kTrain, args.limit);
  auto test_set = std::make_shared<tt::data::MNIST>(args.data, tt::data::MNIST::Mode::kTest, args.limit);
  // Pinned batches make the host-to-device copy faster: the copy that the
  // training loop then forgets to make.
  tt::data::DataLoader train_loader(
      train_set, tt::data::DataLoaderOptions().batch_size(args.batch_size).shuffle(true).seed(1).pin_memory(device.is_cuda()));
  tt::data::DataLoader test_loader(test_set, tt::data::DataLoaderOptions().batch_size(1000));

  Classifier model;
  model.to(device);
  tt::optim::SGD optimizer(model.parameters(), tt::optim::SGDOptions(0.05).momentum(0.9));

  // A quick look at the output shape before spending time on training.
  tt::Tensor probe = tt::rand({1, 1, 28, 28});
  tt::Tensor probe_out = model.forward(probe); // BUG(tensor-unmoved-input): model.forward(probe.to(device))
  std::cout << "output shape: [" << probe_out.size(0) << ", " << probe_out.size(1) << "]\n";
  std::cout << "fashion_mnist_buggy (tt): " << train_set->size() << " train / " << test_set->size()
            << " test images, device " << device << "\n";

  for (int epoch = 1; epoch <= args.epochs; ++epoch) {
    model.train();
    double loss_sum = 0;
    size_t batches = 0;
    for (auto& batch : train_loader) {
      tt::Tensor target = batch.target.to(device);
      optimizer.zero_grad();
      tt::Tensor output = model.forward(batch.data); // BUG(tensor-unmoved-input): model.forward(batch.data.to(device)); pinned is not moved
      tt::Tensor loss = smoothed_cross_entropy(output, target);
      loss.backward();
      optimizer.step();
      loss_sum += loss.item<double>();
      ++batches;
      if (!args.quiet && batches % 100 == 0)
        std::printf("  batch %zu/%zu: loss %.4f\n", batches, train_loader.size(), loss_sum / static_cast<double>(batches));
    }
    const tt::Tensor accuracy = model.per_class_accuracy(test_loader, device);
    std::printf("epoch %d: train loss %.4f, test accuracy %.2f%% (mean of classes)\n", epoch,
                loss_sum / static_cast<double>(batches), accuracy.mean().item<double>());
    if (!args.quiet)
      for (int c = 0; c < 10; ++c)
        std::printf("  %-12s %6.2f%%\n", kClassNames[c], accuracy.select(0, c).item<double>());
  }

  // Deployment check: serve the model in half precision, as on the GPU
  // fleet, and make sure the loss is still sane. The model is cast in place;
  // the batch is not.
  tt::NoGradGuard no_grad;
  model.half();
  model.eval();
  for (auto& batch : test_loader) {
    // The serving pipeline sends float32 images, as the data set stores them.
    tt::Tensor images = batch.data.to(device, tt::kFloat32);
    tt::Tensor logits = model.forward(images); // BUG(tensor-mixed-dtype): model.forward(images.to(tt::kHalf))
    tt::Tensor loss = smoothed_cross_entropy(logits, batch.target.to(device));
    std::printf("half-precision test loss (first batch): %.4f\n", loss.item<double>());
    break;
  }
  return 0;
}
