// Tensor's operation members: thin forwards to the free functions, so the
// two spellings cannot drift apart.
#include "tt/ops.h"
#include "tt/tensor.h"

namespace tt {

Tensor Tensor::add(const Tensor& o, const Scalar& alpha, SourceLoc loc) const { return tt::add(*this, o, alpha, loc); }
Tensor Tensor::add(const Scalar& o, const Scalar& alpha, SourceLoc loc) const { return tt::add(*this, o, alpha, loc); }
Tensor Tensor::sub(const Tensor& o, const Scalar& alpha, SourceLoc loc) const { return tt::sub(*this, o, alpha, loc); }
Tensor Tensor::sub(const Scalar& o, const Scalar& alpha, SourceLoc loc) const { return tt::sub(*this, o, alpha, loc); }
Tensor Tensor::mul(const Tensor& o, SourceLoc loc) const { return tt::mul(*this, o, loc); }
Tensor Tensor::mul(const Scalar& o, SourceLoc loc) const { return tt::mul(*this, o, loc); }
Tensor Tensor::div(const Tensor& o, SourceLoc loc) const { return tt::div(*this, o, loc); }
Tensor Tensor::div(const Scalar& o, SourceLoc loc) const { return tt::div(*this, o, loc); }
Tensor Tensor::eq(const Tensor& o, SourceLoc loc) const { return tt::eq(*this, o, loc); }
Tensor Tensor::eq(const Scalar& o, SourceLoc loc) const { return tt::eq(*this, o, loc); }
Tensor Tensor::ne(const Tensor& o, SourceLoc loc) const { return tt::ne(*this, o, loc); }
Tensor Tensor::ne(const Scalar& o, SourceLoc loc) const { return tt::ne(*this, o, loc); }
Tensor Tensor::lt(const Tensor& o, SourceLoc loc) const { return tt::lt(*this, o, loc); }
Tensor Tensor::lt(const Scalar& o, SourceLoc loc) const { return tt::lt(*this, o, loc); }
Tensor Tensor::le(const Tensor& o, SourceLoc loc) const { return tt::le(*this, o, loc); }
Tensor Tensor::le(const Scalar& o, SourceLoc loc) const { return tt::le(*this, o, loc); }
Tensor Tensor::gt(const Tensor& o, SourceLoc loc) const { return tt::gt(*this, o, loc); }
Tensor Tensor::gt(const Scalar& o, SourceLoc loc) const { return tt::gt(*this, o, loc); }
Tensor Tensor::ge(const Tensor& o, SourceLoc loc) const { return tt::ge(*this, o, loc); }
Tensor Tensor::ge(const Scalar& o, SourceLoc loc) const { return tt::ge(*this, o, loc); }
Tensor Tensor::relu(SourceLoc loc) const { return tt::relu(*this, loc); }
Tensor Tensor::sigmoid(SourceLoc loc) const { return tt::sigmoid(*this, loc); }
Tensor Tensor::tanh(SourceLoc loc) const { return tt::tanh(*this, loc); }
Tensor Tensor::exp(SourceLoc loc) const { return tt::exp(*this, loc); }
Tensor Tensor::log(SourceLoc loc) const { return tt::log(*this, loc); }
Tensor Tensor::neg(SourceLoc loc) const { return tt::neg(*this, loc); }
Tensor Tensor::abs(SourceLoc loc) const { return tt::abs(*this, loc); }
Tensor Tensor::sqrt(SourceLoc loc) const { return tt::sqrt(*this, loc); }
Tensor Tensor::pow(const Scalar& e, SourceLoc loc) const { return tt::pow(*this, e, loc); }
Tensor Tensor::pow(const Tensor& e, SourceLoc loc) const { return tt::pow(*this, e, loc); }
Tensor Tensor::clamp(std::optional<Scalar> lo, std::optional<Scalar> hi, SourceLoc loc) const {
  return tt::clamp(*this, lo, hi, loc);
}
Tensor Tensor::sum(SourceLoc loc) const { return tt::sum(*this, loc); }
Tensor Tensor::sum(IntArrayRef dims, bool keepdim, SourceLoc loc) const { return tt::sum(*this, dims, keepdim, loc); }
Tensor Tensor::mean(SourceLoc loc) const { return tt::mean(*this, loc); }
Tensor Tensor::mean(IntArrayRef dims, bool keepdim, SourceLoc loc) const { return tt::mean(*this, dims, keepdim, loc); }
Tensor Tensor::max(SourceLoc loc) const { return tt::max(*this, loc); }
Tensor Tensor::min(SourceLoc loc) const { return tt::min(*this, loc); }
std::tuple<Tensor, Tensor> Tensor::max(int64_t dim, bool keepdim, SourceLoc loc) const {
  return tt::max(*this, dim, keepdim, loc);
}
std::tuple<Tensor, Tensor> Tensor::min(int64_t dim, bool keepdim, SourceLoc loc) const {
  return tt::min(*this, dim, keepdim, loc);
}
Tensor Tensor::argmax(std::optional<int64_t> dim, bool keepdim, SourceLoc loc) const {
  return tt::argmax(*this, dim, keepdim, loc);
}
Tensor Tensor::softmax(int64_t dim, SourceLoc loc) const { return tt::softmax(*this, dim, loc); }
Tensor Tensor::log_softmax(int64_t dim, SourceLoc loc) const { return tt::log_softmax(*this, dim, loc); }

}  // namespace tt
