// Internal: the storage and metadata behind a Tensor handle.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <source_location>
#include <vector>

#include "tt/backend.h"
#include "tt/device.h"
#include "tt/scalar_type.h"
#include "tt/tensor.h"

namespace tt::detail {

// A block of device memory. Frees through its deleter (the backend's, or a
// from_blob deleter, or nothing).
struct Storage {
  void* data = nullptr;
  size_t nbytes = 0;
  Device device{kCPU};
  bool pinned = false;
  std::function<void(void*)> deleter;
  std::shared_ptr<Backend> backend;  // keeps the backend alive while memory lives
  Storage() = default;
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  ~Storage() {
    if (deleter) deleter(data);
  }
};

namespace autograd {
struct AutogradMeta;  // autograd/graph.h
}  // namespace autograd

struct TensorImpl {
  std::shared_ptr<Storage> storage;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;  // in elements
  int64_t offset = 0;            // in elements
  int64_t numel = 1;
  ScalarType dtype = ScalarType::Float;
  bool requires_grad = false;
  // grad, grad_fn and the leaf's accumulator (autograd/graph.h), made on
  // first need, as c10::TensorImpl's autograd_meta_.
  std::unique_ptr<autograd::AutogradMeta> autograd_meta;

  TensorImpl();  // out of line, where AutogradMeta is complete
  TensorImpl(const TensorImpl&) = delete;
  TensorImpl& operator=(const TensorImpl&) = delete;
  ~TensorImpl();

  Device device() const { return storage->device; }
  char* data() const { return static_cast<char*>(storage->data) + offset * static_cast<int64_t>(element_size(dtype)); }
  bool is_contiguous() const;
};

// The only way library code reaches a Tensor's impl. get() counts as a read
// (clears a pending tensor-discarded-cast); peek() is for bookkeeping that is
// not a use (none today besides tests of the mechanism).
struct TensorAccess {
  static TensorImpl& get(const Tensor& t, const std::source_location& loc);
  static const std::shared_ptr<TensorImpl>& shared(const Tensor& t) { return t.impl_; }
};

inline TensorImpl& impl_of(const Tensor& t, const std::source_location& loc) { return TensorAccess::get(t, loc); }

// Contiguous strides for sizes (of a tensor that exists: its shape was
// checked when it was made).
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& sizes);
int64_t numel_of(const std::vector<int64_t>& sizes);
// The same for a shape from outside (a factory's, from_blob's): throws
// ValueError with c10's wording when a product overflows int64
// ("numel: integer multiplication overflow", "Stride calculation
// overflowed"), as c10::safe_multiplies_u64 / overflows do.
int64_t checked_numel(const std::vector<int64_t>& sizes, const std::source_location& loc);
std::vector<int64_t> checked_contiguous_strides(const std::vector<int64_t>& sizes, const std::source_location& loc);
// numel * element_size as a byte count, or ValueError "Storage size
// calculation overflowed with sizes=[...]" (c10::computeStorageNbytes).
size_t checked_nbytes(const std::vector<int64_t>& sizes, int64_t numel, size_t element_size,
                      const std::source_location& loc);
// Wraps a dim into [0, ndim) or throws ValueError with PyTorch's message.
int64_t wrap_dim(int64_t dim, int64_t ndim, const std::source_location& loc);

// New contiguous tensor on `device` (backend allocation; checks the device).
Tensor make_empty(const std::vector<int64_t>& sizes, ScalarType dtype, Device device, const std::source_location& loc,
                  bool pinned = false);
// A view sharing `base`'s storage.
Tensor make_view(const TensorImpl& base, std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset);
// Marks t as the result of a conversion at `where` (tensor-discarded-cast).
void mark_conversion(const Tensor& t, const std::source_location& where, const char* op, ScalarType from_dtype,
                     Device from_device);

}  // namespace tt::detail
