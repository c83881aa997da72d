// The DeviceKernels table of the CUDA backend: forwards each entry to its
// launcher, and moves data between GPUs for cross-device copies.
#include "kernel_table.h"

#include <memory>

#include "kernels/device_kernels.h"
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

class CudaKernels final : public k::DeviceKernels {
 public:
  void copy(const TensorImpl& dst, const TensorImpl& src) override {
    if (dst.device() != src.device()) return copy_across_devices(dst, src);
    launch_copy(dst, src);
  }
  void fill(const TensorImpl& dst, const Scalar& value) override { launch_fill(dst, value); }
  void binary(k::BinaryOp op, const TensorImpl& out, const TensorImpl& a, const TensorImpl& b,
              const Scalar& alpha) override {
    launch_binary(op, out, a, b, alpha);
  }
  void unary(k::UnaryOp op, const TensorImpl& out, const TensorImpl& in) override { launch_unary(op, out, in); }
  void clamp(const TensorImpl& out, const TensorImpl& in, std::optional<double> lo,
             std::optional<double> hi) override {
    launch_clamp(out, in, lo, hi);
  }
  void where(const TensorImpl& out, const TensorImpl& cond, const TensorImpl& x, const TensorImpl& y) override {
    launch_where(out, cond, x, y);
  }
  void reduce(k::ReduceOp op, const TensorImpl& in, int64_t outer, int64_t r, int64_t inner, const TensorImpl* out,
              const TensorImpl* indices) override {
    launch_reduce(op, in, outer, r, inner, out, indices);
  }
  void softmax(bool log, const TensorImpl& in, const TensorImpl& out, int64_t outer, int64_t r,
               int64_t inner) override {
    launch_softmax(log, in, out, outer, r, inner);
  }
  void gemm(const TensorImpl& a, const TensorImpl& b, const TensorImpl& c, int64_t batch, int64_t m, int64_t kk,
            int64_t n) override {
    cuda_backend::gemm(a, b, c, batch, m, kk, n);
  }
  void gemm_2d(Device device, ScalarType dtype, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t kk,
               const void* a, int64_t lda, const void* b, int64_t ldb, void* c) override {
    cuda_backend::gemm_2d(device, dtype, trans_a, trans_b, m, n, kk, a, lda, b, ldb, c);
  }
  void arange(const TensorImpl& out, double start, double step, int64_t istart, int64_t istep) override {
    launch_arange(out, start, step, istart, istep);
  }
  void uniform(const TensorImpl& out) override { launch_uniform(out); }
  void normal(const TensorImpl& out) override { launch_normal(out); }
  void manual_seed(uint64_t seed) override { set_seed(seed); }
};

}  // namespace

void register_kernel_table() {
  k::register_device_kernels(DeviceType::CUDA, std::make_shared<CudaKernels>());
}

}  // namespace tt::cuda_backend
