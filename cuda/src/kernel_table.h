// Internal: the CUDA implementations of tt's kernels (one launcher per
// kernels.h dispatch stub, defined in the .cu file of its family, with the
// stub's signature) and their registration with the runtime.
#pragma once

#include <cstdint>
#include <optional>

#include "kernels/kernels.h"
#include "tensor_impl.h"
#include "tt/scalar.h"

namespace tt::cuda_backend {

/// Registers the launchers with the runtime's dispatch stubs and enables
/// them (called by probe()).
void register_kernel_table();

// convert.cu: dst and src on the same device.
void launch_copy(const detail::TensorImpl& dst, const detail::TensorImpl& src);
void launch_fill(const detail::TensorImpl& dst, const Scalar& value);

// elementwise.cu: contracts of kernels.h; a and b (x and y of where) may be
// host broadcast scalars.
void launch_binary(detail::kernels::BinaryOp op, const detail::TensorImpl& out, const detail::TensorImpl& a,
                   const detail::TensorImpl& b, const Scalar& alpha);
void launch_unary(detail::kernels::UnaryOp op, const detail::TensorImpl& out, const detail::TensorImpl& in);
void launch_clamp(const detail::TensorImpl& out, const detail::TensorImpl& in, std::optional<double> lo,
                  std::optional<double> hi);
void launch_where(const detail::TensorImpl& out, const detail::TensorImpl& cond, const detail::TensorImpl& x,
                  const detail::TensorImpl& y);

// reduce.cu
void launch_reduce(detail::kernels::ReduceOp op, const detail::TensorImpl& in, int64_t outer, int64_t r, int64_t inner,
                   const detail::TensorImpl* out, const detail::TensorImpl* indices);
void launch_softmax(bool log, const detail::TensorImpl& in, const detail::TensorImpl& out, int64_t outer, int64_t r,
                    int64_t inner);

// optimizer_step.cu: the fused steps (kernels.h's sgd_step and adam_step).
void launch_sgd_step(const detail::TensorImpl& param, const detail::TensorImpl& grad, const detail::TensorImpl& buf,
                     const detail::kernels::SgdStep& o);
void launch_adam_step(const detail::TensorImpl& param, const detail::TensorImpl& grad,
                      const detail::TensorImpl& exp_avg, const detail::TensorImpl& exp_avg_sq,
                      const detail::TensorImpl* max_exp_avg_sq, const detail::kernels::AdamStep& o);

// random.cu
void launch_arange(const detail::TensorImpl& out, double start, double step, int64_t istart, int64_t istep);
void launch_uniform(const detail::TensorImpl& out);
void launch_normal(const detail::TensorImpl& out);
void set_seed(uint64_t seed);

// gemm.cpp (cuBLAS)
void gemm(const detail::TensorImpl& a, const detail::TensorImpl& b, const detail::TensorImpl& c, int64_t batch,
          int64_t m, int64_t k, int64_t n);
void gemm_2d(Device device, ScalarType dtype, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
             const void* a, int64_t lda, const void* b, int64_t ldb, void* c);

}  // namespace tt::cuda_backend
