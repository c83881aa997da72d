// Which LibTorch tensor-run is compiled against, and the interfaces it uses
// that changed between LibTorch 1.13 (Debian's) and 2.x. Each change has a
// macro here, so the sources branch on what changed, not on a version
// number. tensor-run is built, run and tested against 1.13, and compiled
// (syntax only) against 2.11's headers in CI (ctest
// tensor-run.libtorch-2.11.syntax.*): those two are what is proven. The
// release each macro starts at is the one PyTorch's history gives for the
// change; releases between 1.13 and 2.11 are not compiled here.
#pragma once

#include <c10/core/Allocator.h>
#include <c10/core/Storage.h>
#include <c10/core/StorageImpl.h>
#include <torch/version.h>

/// True when compiling against LibTorch major.minor or later.
#define TENSOR_RUN_TORCH_AT_LEAST(major, minor) \
  (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

/// 2.1: Storage::data() is const (const void*); writable memory is
/// mutable_data(), which also materialises a copy-on-write storage.
#define TENSOR_RUN_TORCH_MUTABLE_DATA TENSOR_RUN_TORCH_AT_LEAST(2, 1)

/// 2.2: c10::Error takes its backtrace as a lazily computed value
/// (c10::Backtrace), not a string.
#define TENSOR_RUN_TORCH_LAZY_BACKTRACE TENSOR_RUN_TORCH_AT_LEAST(2, 2)

/// 2.3: c10::Allocator::allocate() is not const, and an allocator says how
/// to copy its memory (copy_data(), for copy-on-write storages).
#define TENSOR_RUN_TORCH_ALLOCATOR_COPY_DATA TENSOR_RUN_TORCH_AT_LEAST(2, 3)
#if TENSOR_RUN_TORCH_ALLOCATOR_COPY_DATA
#define TENSOR_RUN_ALLOCATE_CONST
#else
#define TENSOR_RUN_ALLOCATE_CONST const
#endif

/// 2.6: at::CUDAHooksInterface is an AcceleratorHooksInterface: init(),
/// getDefaultGenerator(), deviceCount(), getCurrentDevice(), isBuilt(),
/// isAvailable(), and device indices as c10::DeviceIndex
/// (1.13: initCUDA(), getDefaultCUDAGenerator(), int64_t indices).
#define TENSOR_RUN_TORCH_ACCELERATOR_HOOKS TENSOR_RUN_TORCH_AT_LEAST(2, 6)

namespace tensor_run {

/// The base of tensor-run's allocators, whose memory is all host memory:
/// from 2.3, copying it (copy_data) is a memcpy.
struct HostMemoryAllocator : c10::Allocator {
#if TENSOR_RUN_TORCH_ALLOCATOR_COPY_DATA
  void copy_data(void* dest, const void* src, std::size_t count) const override { default_copy_data(dest, src, count); }
#endif
};

/// The memory of a storage, to be written through (a host view shares it).
inline void* storage_data(const c10::Storage& storage) {
#if TENSOR_RUN_TORCH_MUTABLE_DATA
  return storage.mutable_data();
#else
  return storage.data();
#endif
}

inline void* storage_data(c10::StorageImpl* storage) {
#if TENSOR_RUN_TORCH_MUTABLE_DATA
  return storage->mutable_data();
#else
  return storage->data();
#endif
}

}  // namespace tensor_run
