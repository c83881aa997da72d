#include "HostViews.h"

#include <c10/core/InferenceMode.h>

#include <c10/core/StorageImpl.h>
#include <c10/core/TensorImpl.h>

#include "Config.h"
#include "DeviceMemory.h"
#include "TorchVersion.h"

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

// The dispatch keys of a tensor on `backend` (CPU or CUDA) that stands for
// `like` on the other side: the backend, and the functionality keys `like`
// has that change what its data means (a ZeroTensor, which
// _efficientzerotensor makes for zero gradients, has no memory and must
// stay one on either side). Conjugate and Negative are set by
// with_geometry.
c10::DispatchKeySet keys_like(c10::DispatchKey backend, const at::Tensor& like) {
  c10::DispatchKeySet keys(backend);
  if (like._is_zerotensor()) keys = keys.add(c10::DispatchKey::ZeroTensor);
  return keys;
}

// The allocator of a host view's storage: the device's memory (so that
// what a cpu kernel allocates when it resizes an output can become the
// device tensor's, in write_back), tagged as the cpu's, as a cpu storage's
// memory must be: ATen takes a storage's device from its DataPtr, and a
// cpu kernel would otherwise meet a cuda operand of its own making.
class HostSideAllocator final : public HostMemoryAllocator {
 public:
  explicit HostSideAllocator(c10::DeviceIndex index) : index_(index) {}
  c10::DataPtr allocate(std::size_t n) TENSOR_RUN_ALLOCATE_CONST override {
    c10::DataPtr p = device_allocator(index_)->allocate(n);
    p.unsafe_set_device(c10::Device(c10::DeviceType::CPU));
    return p;
  }
  c10::DeleterFnPtr raw_deleter() const override { return device_allocator(index_)->raw_deleter(); }

 private:
  c10::DeviceIndex index_;
};

c10::Allocator* host_side_allocator(c10::DeviceIndex index) {
  // Leaked: storages hold them until exit.
  static HostSideAllocator* const* allocators = [] {
    auto* all = new HostSideAllocator*[kMaxDevices];
    for (int i = 0; i < kMaxDevices; ++i) all[i] = new HostSideAllocator(static_cast<c10::DeviceIndex>(i));
    return all;
  }();
  return allocators[index];
}

// A device storage over a cpu storage's memory, keeping it alive.
c10::Storage adopted_storage(const c10::Storage& s, c10::Device device) {
  return c10::Storage(c10::Storage::use_byte_size_t(), s.nbytes(),
                      c10::DataPtr(storage_data(s), new Keep{s}, &release, device), device_allocator(device.index()),
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
                      c10::DataPtr(storage_data(s), c10::Device(c10::DeviceType::CPU)),
                      host_side_allocator(t.get_device()), s.resizable());
    shared_.push_back(Shared{s, std::move(host)});
    shared = &shared_.back();
  }
  auto impl =
      c10::make_intrusive<c10::TensorImpl>(c10::Storage(shared->host), keys_like(c10::DispatchKey::CPU, t), t.dtype());
  return with_geometry(std::move(impl), t);
}

void HostViews::write_back(const at::Tensor& original, const at::Tensor& view) {
  if (!original.defined() || !view.defined() || original.unsafeGetTensorImpl() == view.unsafeGetTensorImpl()) return;
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
      c10::DataPtr memory = from->set_data_ptr(c10::DataPtr(nullptr, c10::Device(c10::DeviceType::CPU)));
      memory.unsafe_set_device(original.device());
      to->set_data_ptr_noswap(std::move(memory));
      to->set_nbytes(from->nbytes());
      // The host storage points at the device's memory again, without
      // owning it, for the other views of this call.
      from->set_data_ptr_noswap(c10::DataPtr(storage_data(to), c10::Device(c10::DeviceType::CPU)));
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
  auto impl = c10::make_intrusive<c10::TensorImpl>(std::move(storage), keys_like(c10::DispatchKey::CUDA, cpu_output),
                                                   cpu_output.dtype());
  return with_geometry(std::move(impl), cpu_output);
}

at::Tensor device_view(const c10::Storage& base, const at::Tensor& geometry) {
  // The keys a cuda tensor made outside InferenceMode has: without the
  // autograd ones it would be an inference tensor, and autograd could not
  // make it a view of its base (ADInplaceOrView shares the base's version
  // counter with it), as ATen's alias_with_sizes_and_strides keeps them.
  c10::DispatchKeySet keys = keys_like(c10::DispatchKey::CUDA, geometry);
  if (!c10::InferenceMode::is_enabled())
    keys = keys | c10::getAutogradRelatedKeySetFromBackend(c10::BackendComponent::CUDABit);
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::TensorImpl::VIEW, c10::Storage(base), keys, geometry.dtype());
  return with_geometry(std::move(impl), geometry);
}

bool shares_storage(const at::Tensor& a, const at::Tensor& b) {
  return a.defined() && b.defined() && a.has_storage() && b.has_storage() &&
         a.storage().unsafeGetStorageImpl() == b.storage().unsafeGetStorageImpl();
}

}  // namespace tensor_run
