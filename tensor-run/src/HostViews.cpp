#include "HostViews.h"

#include <c10/core/TensorImpl.h>
#include <c10/core/StorageImpl.h>

#include "DeviceMemory.h"

namespace tensor_run {

namespace {

// Keeps a cpu storage alive for as long as a device DataPtr points into it.
struct Keep {
  c10::Storage storage;
};
void release(void* ctx) { delete static_cast<Keep*>(ctx); }

at::Tensor with_geometry(c10::intrusive_ptr<c10::TensorImpl> impl, const at::Tensor& geometry) {
  impl->set_sizes_and_strides(geometry.sizes(), geometry.strides(), geometry.storage_offset());
  if (geometry.is_conj()) impl->_set_conj(true);
  if (geometry.is_neg()) impl->_set_neg(true);
  return at::Tensor(std::move(impl));
}

}  // namespace

at::Tensor host_alias(const at::Tensor& t) {
  if (!t.defined() || !t.is_cuda()) return t;
  const c10::Storage& s = t.storage();
  c10::Storage alias(c10::Storage::use_byte_size_t(), s.nbytes(),
                     c10::DataPtr(s.data(), c10::Device(c10::DeviceType::CPU)), device_allocator(t.get_device()),
                     /*resizable=*/true);
  auto impl = c10::make_intrusive<c10::TensorImpl>(std::move(alias), c10::DispatchKeySet(c10::DispatchKey::CPU),
                                                   t.dtype());
  return with_geometry(std::move(impl), t);
}

void sync_back(const at::Tensor& original, const at::Tensor& alias) {
  if (!original.defined() || !alias.defined() || original.unsafeGetTensorImpl() == alias.unsafeGetTensorImpl())
    return;
  c10::StorageImpl* from = alias.storage().unsafeGetStorageImpl();
  c10::StorageImpl* to = original.storage().unsafeGetStorageImpl();
  if (from->data() != to->data() || from->nbytes() != to->nbytes()) {
    // The kernel resized the alias: its storage now owns memory of the
    // original's device (device_allocator); move that into the original.
    if (block_of(from->data_ptr()) != nullptr || from->data() == nullptr) {
      to->set_data_ptr_noswap(from->set_data_ptr(c10::DataPtr(nullptr, c10::Device(c10::DeviceType::CPU))));
      to->set_nbytes(from->nbytes());
    }
  }
  c10::TensorImpl* impl = original.unsafeGetTensorImpl();
  if (impl->sizes() != alias.sizes() || impl->strides() != alias.strides() ||
      impl->storage_offset() != alias.storage_offset())
    impl->set_sizes_and_strides(alias.sizes(), alias.strides(), alias.storage_offset());
}

at::Tensor adopt_on_device(const at::Tensor& cpu_output, c10::Device device) {
  const c10::Storage& s = cpu_output.storage();
  c10::Storage adopted(c10::Storage::use_byte_size_t(), s.nbytes(),
                       c10::DataPtr(s.data(), new Keep{s}, &release, device), device_allocator(device.index()),
                       /*resizable=*/true);
  auto impl = c10::make_intrusive<c10::TensorImpl>(std::move(adopted), c10::DispatchKeySet(c10::DispatchKey::CUDA),
                                                   cpu_output.dtype());
  return with_geometry(std::move(impl), cpu_output);
}

at::Tensor device_view(const at::Tensor& base, const at::Tensor& geometry) {
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::TensorImpl::VIEW, c10::Storage(base.storage()),
                                                   c10::DispatchKeySet(c10::DispatchKey::CUDA), geometry.dtype());
  return with_geometry(std::move(impl), geometry);
}

bool shares_storage(const at::Tensor& a, const at::Tensor& b) {
  return a.defined() && b.defined() && a.has_storage() && b.has_storage() &&
         a.storage().unsafeGetStorageImpl() == b.storage().unsafeGetStorageImpl();
}

}  // namespace tensor_run
