// Tensor: a refcounted handle to sizes, strides, an offset and shared
// storage, as at::Tensor. Copies share the data; conversions are out of place.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <limits>
#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <tuple>

#include "tt/device.h"
#include "tt/int_array_ref.h"
#include "tt/options.h"
#include "tt/scalar.h"
#include "tt/scalar_type.h"

namespace tt {

namespace detail {
struct TensorImpl;
struct TensorAccess;
}  // namespace detail

using SourceLoc = std::source_location;

/// An n-dimensional array on a device. Every member that can fail takes a
/// trailing std::source_location defaulted at the caller, so errors and
/// validation records name the user's line (not ours); never pass it.
///
/// Reading a tensor (any member other than copy, move and destruction)
/// marks it used; a conversion result destroyed unused is recorded as
/// tensor-discarded-cast in TT_VALIDATE=record mode (see docs/runtime.md).
class Tensor {
 public:
  /// An undefined tensor (at::Tensor()); most members throw ValueError on it.
  Tensor() = default;
  explicit Tensor(std::shared_ptr<detail::TensorImpl> impl) noexcept;

  bool defined() const noexcept { return impl_ != nullptr; }

  // --- metadata ------------------------------------------------------------
  int64_t dim(SourceLoc loc = SourceLoc::current()) const;
  IntArrayRef sizes(SourceLoc loc = SourceLoc::current()) const;
  IntArrayRef strides(SourceLoc loc = SourceLoc::current()) const;
  /// Size of one dim; negative dims count from the end. ValueError if out of range.
  int64_t size(int64_t dim, SourceLoc loc = SourceLoc::current()) const;
  int64_t stride(int64_t dim, SourceLoc loc = SourceLoc::current()) const;
  int64_t numel(SourceLoc loc = SourceLoc::current()) const;
  int64_t storage_offset(SourceLoc loc = SourceLoc::current()) const;
  ScalarType dtype(SourceLoc loc = SourceLoc::current()) const;
  ScalarType scalar_type(SourceLoc loc = SourceLoc::current()) const { return dtype(loc); }
  Device device(SourceLoc loc = SourceLoc::current()) const;
  /// dtype + device + requires_grad + pinned, for `zeros(s, x.options())`.
  TensorOptions options(SourceLoc loc = SourceLoc::current()) const;
  bool is_cuda(SourceLoc loc = SourceLoc::current()) const { return device(loc).is_cuda(); }
  bool is_cpu(SourceLoc loc = SourceLoc::current()) const { return device(loc).is_cpu(); }
  bool is_floating_point(SourceLoc loc = SourceLoc::current()) const { return is_floating_type(dtype(loc)); }
  bool is_contiguous(SourceLoc loc = SourceLoc::current()) const;
  /// Whether the storage is page-locked host memory (pin_memory()).
  bool is_pinned(SourceLoc loc = SourceLoc::current()) const;
  size_t element_size(SourceLoc loc = SourceLoc::current()) const;
  size_t nbytes(SourceLoc loc = SourceLoc::current()) const;
  bool requires_grad(SourceLoc loc = SourceLoc::current()) const;
  /// Makes this a leaf that autograd tracks. ValueError "Only Tensors of
  /// floating point and complex dtype can require gradients" for
  /// non-floating dtypes, and "you can only change requires_grad flags of
  /// leaf variables..." when clearing it on a non-leaf, as PyTorch.
  Tensor& requires_grad_(bool r = true, SourceLoc loc = SourceLoc::current()) const;
  Tensor& set_requires_grad(bool r, SourceLoc loc = SourceLoc::current()) const { return requires_grad_(r, loc); }

  // --- autograd (reverse mode, as torch.autograd; tt/autograd.h has NoGradGuard) --
  /// Accumulates d(this)/d(leaf) into every leaf's grad() that requires
  /// grad. `gradient` defaults to ones for a one-element tensor; otherwise
  /// Error "grad can be implicitly created only for scalar outputs". Error
  /// "element 0 of tensors does not require grad and does not have a
  /// grad_fn" when nothing requires grad; ShapeError when gradient's shape
  /// differs. Frees the graph unless retain_graph (a second backward through
  /// it throws "Trying to backward through the graph a second time ...").
  void backward(const Tensor& gradient = Tensor(), bool retain_graph = false,
                SourceLoc loc = SourceLoc::current()) const;
  /// The accumulated gradient (undefined until a backward reaches this
  /// leaf); same dtype and device as this tensor.
  const Tensor& grad(SourceLoc loc = SourceLoc::current()) const;
  /// The gradient slot itself, for optimizers and zero_grad (LibTorch's name).
  Tensor& mutable_grad(SourceLoc loc = SourceLoc::current()) const;
  /// The same data without history: requires_grad() false, shares storage.
  Tensor detach(SourceLoc loc = SourceLoc::current()) const;
  /// True unless produced by a recorded op (then it has a grad_fn).
  bool is_leaf(SourceLoc loc = SourceLoc::current()) const;
  /// PyTorch's name of the node that produced it ("MulBackward0"), "" for leaves.
  std::string grad_fn_name(SourceLoc loc = SourceLoc::current()) const;

  // --- element access ------------------------------------------------------
  /// The single element as a Scalar of the tensor's category. ValueError
  /// "a Tensor with N elements cannot be converted to Scalar" unless numel()==1.
  /// Works on cuda tensors (a synchronising copy, as PyTorch).
  Scalar item(SourceLoc loc = SourceLoc::current()) const;
  /// The single element converted to T (any arithmetic type, Half, BFloat16).
  /// ValueError on numel()!=1 and on integral overflow ("value cannot be
  /// converted to type uint8_t without overflow").
  template <class T>
  T item(SourceLoc loc = SourceLoc::current()) const;
  /// Typed pointer to the first element. DTypeMismatchError "expected scalar
  /// type Float but found Half" when T is not the tensor's element type.
  /// For a cuda tensor this is a device pointer (host memory when emulated).
  template <class T>
  T* data_ptr(SourceLoc loc = SourceLoc::current()) const;
  void* data_ptr(SourceLoc loc = SourceLoc::current()) const;

  // --- views (share storage; no dtype/device change) -----------------------
  /// Same elements, new sizes; one size may be -1. ShapeError if numel
  /// differs ("shape '[4]' is invalid for input of size 6") or if the strides
  /// cannot express it ("view size is not compatible ... Use .reshape(...)").
  Tensor view(IntArrayRef sizes, SourceLoc loc = SourceLoc::current()) const;
  /// view() when possible, else a contiguous copy (at::reshape).
  Tensor reshape(IntArrayRef sizes, SourceLoc loc = SourceLoc::current()) const;
  Tensor transpose(int64_t dim0, int64_t dim1, SourceLoc loc = SourceLoc::current()) const;
  /// transpose(0, 1) for 2-D, identity for 0-D/1-D; ValueError beyond 2-D.
  Tensor t(SourceLoc loc = SourceLoc::current()) const;
  Tensor permute(IntArrayRef dims, SourceLoc loc = SourceLoc::current()) const;
  /// Elements start..end (clamped, Python-style negatives) every step along dim.
  Tensor slice(int64_t dim = 0, int64_t start = 0, int64_t end = std::numeric_limits<int64_t>::max(), int64_t step = 1,
               SourceLoc loc = SourceLoc::current()) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length, SourceLoc loc = SourceLoc::current()) const;
  /// Drops dim by indexing it (ValueError if index out of range).
  Tensor select(int64_t dim, int64_t index, SourceLoc loc = SourceLoc::current()) const;
  /// Removes every size-1 dim.
  Tensor squeeze(SourceLoc loc = SourceLoc::current()) const;
  /// Removes dim if its size is 1 (no-op otherwise, as PyTorch).
  Tensor squeeze(int64_t dim, SourceLoc loc = SourceLoc::current()) const;
  Tensor unsqueeze(int64_t dim, SourceLoc loc = SourceLoc::current()) const;
  /// Broadcast view (stride 0) to sizes; -1 keeps a size. ShapeError as PyTorch.
  Tensor expand(IntArrayRef sizes, SourceLoc loc = SourceLoc::current()) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1, SourceLoc loc = SourceLoc::current()) const;

  // --- out-of-place conversions (a new tensor unless nothing changes) -------
  // Like PyTorch, these return *this when dtype and device already match and
  // copy is false. Their results are tracked for tensor-discarded-cast.
  /// Moves to device. CudaUnavailableError if the device is cuda and no CUDA
  /// backend (real or TT_EMULATE_CUDA) exists, or the index is out of range.
  Tensor to(Device device, bool non_blocking = false, bool copy = false, SourceLoc loc = SourceLoc::current()) const;
  Tensor to(DeviceType device, bool non_blocking = false, bool copy = false,
            SourceLoc loc = SourceLoc::current()) const {
    return to(Device(device), non_blocking, copy, loc);
  }
  /// Casts to dtype (round to nearest even for float16/bfloat16).
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false, SourceLoc loc = SourceLoc::current()) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false,
            SourceLoc loc = SourceLoc::current()) const;
  /// To other's device and dtype.
  Tensor to(const Tensor& other, bool non_blocking = false, bool copy = false,
            SourceLoc loc = SourceLoc::current()) const;
  Tensor toType(ScalarType dtype, SourceLoc loc = SourceLoc::current()) const;
  Tensor half(SourceLoc loc = SourceLoc::current()) const;
  Tensor bfloat16(SourceLoc loc = SourceLoc::current()) const;
  /// To the current cuda device (cuda:0).
  Tensor cuda(SourceLoc loc = SourceLoc::current()) const;
  Tensor cpu(SourceLoc loc = SourceLoc::current()) const;
  /// Copy into page-locked host memory (needs a CUDA backend, real or
  /// emulated: CudaUnavailableError otherwise). ValueError on a cuda tensor.
  Tensor pin_memory(SourceLoc loc = SourceLoc::current()) const;
  /// *this if contiguous, else a contiguous copy.
  Tensor contiguous(SourceLoc loc = SourceLoc::current()) const;
  /// A contiguous copy with the same dtype and device.
  Tensor clone(SourceLoc loc = SourceLoc::current()) const;

  // --- in-place --------------------------------------------------------------
  /// Copies src (broadcast to this shape) converting dtype and device, as
  /// at::Tensor::copy_. ShapeError if src does not broadcast.
  Tensor& copy_(const Tensor& src, bool non_blocking = false, SourceLoc loc = SourceLoc::current()) const;
  Tensor& fill_(const Scalar& value, SourceLoc loc = SourceLoc::current()) const;
  Tensor& zero_(SourceLoc loc = SourceLoc::current()) const;
  /// this += alpha * other. DTypeMismatchError "result type Float can't be
  /// cast to the desired output type Long" when the promoted type cannot be
  /// written into this dtype; ShapeError when other does not broadcast to
  /// this shape; DeviceMismatchError as the out-of-place ops.
  Tensor& add_(const Tensor& other, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current()) const;
  Tensor& add_(const Scalar& other, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current()) const;
  Tensor& sub_(const Tensor& other, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current()) const;
  Tensor& sub_(const Scalar& other, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current()) const;
  Tensor& mul_(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor& mul_(const Scalar& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor& div_(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor& div_(const Scalar& other, SourceLoc loc = SourceLoc::current()) const;

  // --- operations (same as the free functions in tt/ops.h) -----------------
  Tensor add(const Tensor& other, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current()) const;
  Tensor add(const Scalar& other, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current()) const;
  Tensor sub(const Tensor& other, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current()) const;
  Tensor sub(const Scalar& other, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current()) const;
  Tensor mul(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor mul(const Scalar& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor div(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor div(const Scalar& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor eq(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor eq(const Scalar& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor ne(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor ne(const Scalar& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor lt(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor lt(const Scalar& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor le(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor le(const Scalar& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor gt(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor gt(const Scalar& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor ge(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor ge(const Scalar& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor matmul(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor mm(const Tensor& other, SourceLoc loc = SourceLoc::current()) const;
  Tensor relu(SourceLoc loc = SourceLoc::current()) const;
  Tensor sigmoid(SourceLoc loc = SourceLoc::current()) const;
  Tensor tanh(SourceLoc loc = SourceLoc::current()) const;
  Tensor exp(SourceLoc loc = SourceLoc::current()) const;
  Tensor log(SourceLoc loc = SourceLoc::current()) const;
  Tensor neg(SourceLoc loc = SourceLoc::current()) const;
  Tensor abs(SourceLoc loc = SourceLoc::current()) const;
  Tensor sqrt(SourceLoc loc = SourceLoc::current()) const;
  Tensor pow(const Scalar& exponent, SourceLoc loc = SourceLoc::current()) const;
  Tensor pow(const Tensor& exponent, SourceLoc loc = SourceLoc::current()) const;
  Tensor clamp(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt,
               SourceLoc loc = SourceLoc::current()) const;
  Tensor sum(SourceLoc loc = SourceLoc::current()) const;
  Tensor sum(IntArrayRef dims, bool keepdim = false, SourceLoc loc = SourceLoc::current()) const;
  Tensor mean(SourceLoc loc = SourceLoc::current()) const;
  Tensor mean(IntArrayRef dims, bool keepdim = false, SourceLoc loc = SourceLoc::current()) const;
  Tensor max(SourceLoc loc = SourceLoc::current()) const;
  Tensor min(SourceLoc loc = SourceLoc::current()) const;
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false, SourceLoc loc = SourceLoc::current()) const;
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false, SourceLoc loc = SourceLoc::current()) const;
  Tensor argmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                SourceLoc loc = SourceLoc::current()) const;
  Tensor softmax(int64_t dim, SourceLoc loc = SourceLoc::current()) const;
  Tensor log_softmax(int64_t dim, SourceLoc loc = SourceLoc::current()) const;

 private:
  friend struct detail::TensorAccess;
  std::shared_ptr<detail::TensorImpl> impl_;
};

/// PyTorch-like printing: values, then "[ CPUFloatType{2,3} ]".
std::ostream& operator<<(std::ostream& os, const Tensor& t);

}  // namespace tt
