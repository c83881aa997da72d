// A small program with known device/dtype bugs, run by
// test_record_end_to_end.cpp under TT_VALIDATE=record TT_EMULATE_CUDA=1.
// Each line marked `expect-record: CHECK` must produce exactly one record of
// CHECK at that line, in this order, and nothing else may be recorded.
// Keep each marked call on one line: GCC and clang place operator call
// sites at different tokens of the expression, but on its line.
#include <tt/tt.h>

#include <cstdio>
#include <string>

namespace {

// Clean helper: converts and uses its argument.
float total(const tt::Tensor& t) { return t.to(tt::kFloat32).sum().item<float>(); }

// The seeds' bug: the loss casts its input and throws the result away.
tt::Tensor loss(const tt::Tensor& predictions, const tt::Tensor& targets) {
  predictions.to(tt::kFloat32);  // expect-record: tensor-discarded-cast
  return (predictions - targets).pow(2).mean();
}

}  // namespace

int main() {
  try {
    const tt::Device device(tt::kCUDA);
    tt::Tensor weights = tt::ones({4, 2}, device);
    tt::Tensor batch = tt::ones({3, 4});  // never moved to the device
    tt::Tensor hidden = tt::matmul(batch, weights);  // expect-record: tensor-mixed-device
    batch.to(device);  // expect-record: tensor-discarded-cast
    tt::Tensor bias = tt::ones({2});
    tt::Tensor logits = tt::matmul(batch.to(device), weights) + bias;  // expect-record: tensor-mixed-device
    tt::Tensor half_w = weights.half();
    tt::Tensor mixed = tt::matmul(batch.to(device), half_w);  // expect-record: tensor-mixed-dtype
    tt::Tensor counts = tt::zeros({3, 2}, tt::kInt64);
    counts.add_(hidden);  // expect-record: tensor-mixed-dtype
    tt::Tensor targets = tt::zeros({3, 2}, tt::TensorOptions().dtype(tt::kHalf).device(device));
    tt::Tensor l = loss(logits.to(tt::kHalf), targets);

    // Clean code below: nothing may be recorded.
    tt::Tensor scaled = weights * tt::tensor(0.5);  // 0-dim cpu scalar with cuda: allowed
    tt::Tensor moved = batch.to(device);
    tt::Tensor ok = tt::matmul(moved, scaled);
    const float clean = total(ok.cpu());

    std::printf("hidden %s %g\n", hidden.device().str().c_str(), hidden.sum().item<double>());
    std::printf("logits %s %g\n", logits.device().str().c_str(), logits.sum().item<double>());
    std::printf("mixed %s %g\n", std::string(tt::to_string(mixed.dtype())).c_str(), mixed.sum().item<double>());
    std::printf("counts %lld\n", static_cast<long long>(counts.sum().item<int64_t>()));
    std::printf("loss %g clean %g\n", l.item<double>(), clean);
    return 0;
  } catch (const tt::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 3;
  }
}
