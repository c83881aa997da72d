// The built-in layers.
#include "tt/nn/modules.h"

#include <cmath>

#include "tt/errors.h"
#include "tt/factories.h"
#include "tt/nn/functional.h"
#include "tt/ops.h"

namespace tt::nn {

Linear::Linear(int64_t in_features, int64_t out_features, bool with_bias, SourceLoc loc)
    : in_(in_features), out_(out_features) {
  if (in_features < 0 || out_features < 0)
    throw ValueError("Linear: in_features and out_features must be non-negative", loc);
  // kaiming_uniform_(a=sqrt(5)) on [out, in] is U(-1/sqrt(in), 1/sqrt(in));
  // the bias uses the same bound (torch.nn.Linear.reset_parameters).
  const double bound = in_features > 0 ? 1.0 / std::sqrt(static_cast<double>(in_features)) : 0.0;
  weight = register_parameter("weight", rand({out_features, in_features}) * (2 * bound) - bound);
  if (with_bias) bias = register_parameter("bias", rand({out_features}) * (2 * bound) - bound);
}

Tensor Linear::forward(const Tensor& input, SourceLoc loc) {
  return functional::linear(check_input_and_dtype(input, loc), weight, bias, loc);
}

Tensor ReLU::forward(const Tensor& input, SourceLoc loc) { return relu(input, loc); }
Tensor Sigmoid::forward(const Tensor& input, SourceLoc loc) { return sigmoid(input, loc); }
Tensor Tanh::forward(const Tensor& input, SourceLoc loc) { return tt::tanh(input, loc); }

Dropout::Dropout(double p, SourceLoc loc) : p_(p) {
  if (p < 0 || p > 1)
    throw ValueError("dropout probability has to be between 0 and 1, but got " + std::to_string(p), loc);
}

Tensor Dropout::forward(const Tensor& input, SourceLoc loc) {
  return functional::dropout(input, p_, is_training(), loc);
}

Tensor Flatten::forward(const Tensor& input, SourceLoc loc) { return input.flatten(start_, end_, loc); }

Tensor Sequential::forward(const Tensor& input, SourceLoc loc) {
  Tensor x = input;
  for (auto& m : modules_) x = m->forward(x, loc);
  return x;
}

}  // namespace tt::nn
