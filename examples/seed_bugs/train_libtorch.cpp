// The seeds' bugs as people write them, in a small LibTorch training
// program. It compiles and runs on a CPU laptop; on the first GPU machine it
// fails with "Expected all tensors to be on the same device" or trains in
// the wrong precision. tools/demo runs the tensor-* checks over this file.
//
// Each bug is marked `BUG(check-name)`; the fixed form is in the comment.
#include <torch/torch.h>

#include <iostream>

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 256));
    fc2 = register_module("fc2", torch::nn::Linear(256, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    return fc2->forward(torch::relu(fc1->forward(x)));
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Classifier);

// A custom loss that "makes sure" the predictions are float32.
torch::Tensor weighted_loss(torch::Tensor predictions, torch::Tensor targets,
                            torch::Tensor class_weights) {
  predictions.to(torch::kFloat32); // BUG(tensor-discarded-cast): predictions = predictions.to(torch::kFloat32);
  auto log_probs = torch::log_softmax(predictions, /*dim=*/1);
  return torch::nll_loss(log_probs, targets, class_weights); // BUG(tensor-mixed-device): main's labels and class_weights never left the CPU
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  Classifier model;
  model->to(device); // Correct: modules move in place.

  auto images = torch::rand({64, 784});
  auto labels = torch::randint(0, 10, {64}, torch::kLong);
  auto class_weights = torch::ones({10});

  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.01);
  for (int step = 0; step < 3; ++step) {
    images.to(device); // BUG(tensor-discarded-cast): images = images.to(device);
    labels.to(device); // BUG(tensor-discarded-cast): labels = labels.to(device);
    optimizer.zero_grad();
    auto output = model->forward(images); // BUG(tensor-unmoved-input): images stayed on the CPU
    auto loss = weighted_loss(output, labels, class_weights);
    loss.backward();
    optimizer.step();
    std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }

  // Mixed precision gone wrong: the cast of the batch is thrown away.
  model->to(torch::kHalf);
  auto batch = torch::rand({64, 784}).to(device);
  batch.to(torch::kHalf); // BUG(tensor-discarded-cast): batch = batch.to(torch::kHalf);
  auto logits = model->forward(batch); // BUG(tensor-mixed-dtype): half model, float input
  // The loss helper is where the float16 logits were meant to become float32.
  std::cout << logits.sizes() << " loss " << weighted_loss(logits, labels, class_weights).item<float>() << "\n";
  return 0;
}
