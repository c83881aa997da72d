#include "HostViews.h"

#include <c10/core/StorageImpl.h>
#include <c10/core/TensorImpl.h>

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

// A device storage over a cpu storage's memory, keeping it alive.
c10::Storage adopted_storage(const c10::Storage& s, c10::Device device) {
  return c10::Storage(c10::Storage::use_byte_size_t(), s.nbytes(),
                      c10::DataPtr(s.data(), new Keep{s}, &release, device), device_allocator(device.index()),
                      /*resizable=*/true);
}

}  // namespace

HostViews::Shared* HostViews::find_device(const c10::StorageImpl* device) {
  for (Shared& s : shared_)
    if (s.device.unsafeGetStorageImpl() == device) return &s;
  return nullptr;
}

const c10::Storage* HostViews::device_storage_of(const c10::StorageImpl* host) const {
  for (const Shared& s : shared_)
    if (s.host.unsafeGetStorageImpl() == host) return &s.device;
  return nullptr;
}

at::Tensor HostViews::view_of(const at::Tensor& t) {
  if (!t.defined() || !t.is_cuda() || !t.has_storage()) return t;
  const c10::Storage& s = t.storage();
  Shared* shared = find_device(s.unsafeGetStorageImpl());
  if (!shared) {
    c10::Storage host(c10::Storage::use_byte_size_t(), s.nbytes(),
                      c10::DataPtr(s.data(), c10::Device(c10::DeviceType::CPU)), device_allocator(t.get_device()),
                      s.resizable());
    shared_.push_back(Shared{s, std::move(host)});
    shared = &shared_.back();
  }
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::Storage(shared->host),
                                                   c10::DispatchKeySet(c10::DispatchKey::CPU), t.dtype());
  return with_geometry(std::move(impl), t);
}

void HostViews::write_back(const at::Tensor& original, const at::Tensor& view) {
  if (!original.defined() || !view.defined() || original.unsafeGetTensorImpl() == view.unsafeGetTensorImpl())
    return;
  c10::TensorImpl* impl = original.unsafeGetTensorImpl();
  Shared* shared = original.has_storage() ? find_device(original.storage().unsafeGetStorageImpl()) : nullptr;
  if (!shared) return;
  const c10::StorageImpl* now = view.has_storage() ? view.storage().unsafeGetStorageImpl() : nullptr;
  if (now == shared->host.unsafeGetStorageImpl()) {
    // Same storage: the kernel may have resized it, with memory of the
    // device (the host storage's allocator); hand that memory over, once.
    c10::StorageImpl* from = shared->host.unsafeGetStorageImpl();
    c10::StorageImpl* to = shared->device.unsafeGetStorageImpl();
    if (!shared->moved && (from->data() != to->data() || from->nbytes() != to->nbytes())) {
      to->set_data_ptr_noswap(from->set_data_ptr(c10::DataPtr(nullptr, c10::Device(c10::DeviceType::CPU))));
      to->set_nbytes(from->nbytes());
      // The host storage points at the device's memory again, without
      // owning it, for the other views of this call.
      from->set_data_ptr_noswap(c10::DataPtr(to->data(), c10::Device(c10::DeviceType::CPU)));
      from->set_nbytes(to->nbytes());
      shared->moved = true;
    }
  } else if (now) {
    // The kernel gave the view another storage (set_): the device tensor
    // takes that storage's device counterpart, or adopts a cpu one.
    if (const c10::Storage* device = device_storage_of(now)) {
      impl->set_storage_keep_dtype(*device);
    } else {
      impl->set_storage_keep_dtype(adopted_storage(view.storage(), original.device()));
    }
  }
  if (impl->sizes() != view.sizes() || impl->strides() != view.strides() ||
      impl->storage_offset() != view.storage_offset())
    impl->set_sizes_and_strides(view.sizes(), view.strides(), view.storage_offset());
}

at::Tensor adopt_on_device(const at::Tensor& cpu_output, c10::Device device) {
  const c10::Storage& s = cpu_output.storage();
  c10::Storage storage;
  if (s.use_count() == 1) {
    // A fresh output nobody else holds: its memory changes hands (the
    // device DataPtr takes over the cpu one's context and deleter), which
    // saves keeping the cpu storage alive beside it.
    c10::StorageImpl* impl = s.unsafeGetStorageImpl();
    const std::size_t nbytes = impl->nbytes();
    c10::DataPtr cpu = impl->set_data_ptr(c10::DataPtr(nullptr, c10::Device(c10::DeviceType::CPU)));
    void* data = cpu.get();
    std::unique_ptr<void, c10::DeleterFnPtr> context = std::move(cpu.move_context());
    const c10::DeleterFnPtr deleter = context.get_deleter();
    storage = c10::Storage(c10::Storage::use_byte_size_t(), nbytes,
                           c10::DataPtr(data, context.release(), deleter, device), device_allocator(device.index()),
                           /*resizable=*/true);
  } else {
    storage = adopted_storage(s, device);
  }
  auto impl = c10::make_intrusive<c10::TensorImpl>(std::move(storage), c10::DispatchKeySet(c10::DispatchKey::CUDA),
                                                   cpu_output.dtype());
  return with_geometry(std::move(impl), cpu_output);
}

at::Tensor device_view(const c10::Storage& base, const at::Tensor& geometry) {
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::TensorImpl::VIEW, c10::Storage(base),
                                                   c10::DispatchKeySet(c10::DispatchKey::CUDA), geometry.dtype());
  return with_geometry(std::move(impl), geometry);
}

bool shares_storage(const at::Tensor& a, const at::Tensor& b) {
  return a.defined() && b.defined() && a.has_storage() && b.has_storage() &&
         a.storage().unsafeGetStorageImpl() == b.storage().unsafeGetStorageImpl();
}

}  // namespace tensor_run
