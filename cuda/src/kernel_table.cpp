// The CUDA backend's kernels handed to the runtime's dispatch stubs: one
// launcher per stub, and copies between GPUs.
#include "kernel_table.h"

#include <memory>

#include "kernels/dispatch_stub.h"
#include "tensor_impl.h"
#include "tt/backend.h"

namespace tt::cuda_backend {

namespace {

using detail::TensorImpl;
namespace k = detail::kernels;

// cuda:i -> cuda:j: convert on the source device to a contiguous buffer of
// the destination dtype, move the bytes (peer copy through the backend),
// then lay them out on the destination device.
void copy_across_devices(const TensorImpl& dst, const TensorImpl& src) {
  const auto loc = k::device_call_site();
  const TensorImpl* s = &src;
  Tensor staged_src;
  if (!src.is_contiguous() || src.dtype != dst.dtype || src.numel != dst.numel) {
    staged_src = detail::make_empty(dst.sizes, dst.dtype, src.device(), loc);
    s = detail::TensorAccess::shared(staged_src).get();
    launch_copy(*s, src);
  }
  const size_t nbytes = static_cast<size_t>(dst.numel) * element_size(dst.dtype);
  auto backend = get_backend(DeviceType::CUDA);
  if (dst.is_contiguous()) {
    backend->copy(dst.data(), dst.device(), s->data(), s->device(), nbytes, false);
    return;
  }
  Tensor landed = detail::make_empty(dst.sizes, dst.dtype, dst.device(), loc);
  const auto& li = *detail::TensorAccess::shared(landed);
  backend->copy(li.data(), dst.device(), s->data(), s->device(), nbytes, false);
  launch_copy(dst, li);
}

// copy's cuda function: within one device, or across two.
void copy_on_gpus(const TensorImpl& dst, const TensorImpl& src) {
  if (dst.device() != src.device()) return copy_across_devices(dst, src);
  launch_copy(dst, src);
}

// seed_device_generator's cuda function: torch.manual_seed seeds every GPU.
void seed_generator(Device, uint64_t seed) { set_seed(seed); }

}  // namespace

void register_kernel_table() {
  k::copy.register_cuda(&copy_on_gpus);
  k::fill.register_cuda(&launch_fill);
  k::binary.register_cuda(&launch_binary);
  k::unary.register_cuda(&launch_unary);
  k::clamp.register_cuda(&launch_clamp);
  k::where.register_cuda(&launch_where);
  k::reduce.register_cuda(&launch_reduce);
  k::softmax.register_cuda(&launch_softmax);
  k::gemm.register_cuda(&cuda_backend::gemm);
  k::gemm_2d.register_cuda(&cuda_backend::gemm_2d);
  k::sgd_step.register_cuda(&launch_sgd_step);
  k::adam_step.register_cuda(&launch_adam_step);
  k::arange.register_cuda(&launch_arange);
  k::uniform.register_cuda(&launch_uniform);
  k::normal.register_cuda(&launch_normal);
  k::seed_device_generator.register_cuda(&seed_generator);
  k::set_cuda_kernels_enabled(true);
}

}  // namespace tt::cuda_backend
