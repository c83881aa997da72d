// Internal: the cpu kernels. Callers (the ops) have already decided devices
// and dtypes through device_dtype_rules.cpp; kernels trust their arguments: operands
// share the output's shape (broadcast views allowed) and live in host memory.
#pragma once

#include <cstdint>
#include <optional>

#include "../tensor_impl.h"
#include "tt/scalar.h"

namespace tt::detail::kernels {

// dst = src converted to dst's dtype; same sizes; src may be a broadcast view.
void copy(const TensorImpl& dst, const TensorImpl& src);
void fill(const TensorImpl& dst, const Scalar& value);

enum class BinaryOp { Add, Sub, Mul, Div, Pow, Eq, Ne, Lt, Le, Gt, Ge };
// out = a op b (Add/Sub: a op alpha*b). a and b have the compute dtype;
// out has it too, or Bool for comparisons.
void binary(BinaryOp op, const TensorImpl& out, const TensorImpl& a, const TensorImpl& b, const Scalar& alpha);

enum class UnaryOp { Neg, Abs, Relu, Sigmoid, Tanh, Exp, Log, Sqrt };
// out = op(in), both of one dtype.
void unary(UnaryOp op, const TensorImpl& out, const TensorImpl& in);
void clamp(const TensorImpl& out, const TensorImpl& in, std::optional<double> lo, std::optional<double> hi);
// out = cond ? x : y; x, y and out share a dtype.
void where(const TensorImpl& out, const TensorImpl& cond, const TensorImpl& x, const TensorImpl& y);

enum class ReduceOp { Sum, Mean, Max, Min, ArgMax };
// Reduces a contiguous input viewed as [outer, r, inner] over r into
// contiguous out [outer, inner] (values; any dtype out for Sum) and/or
// indices (int64). Max/Min/ArgMax propagate NaN and keep the first index on ties.
void reduce(ReduceOp op, const TensorImpl& in, int64_t outer, int64_t r, int64_t inner, const TensorImpl* out,
            const TensorImpl* indices);
// Softmax / log-softmax over r of a contiguous [outer, r, inner] input.
void softmax(bool log, const TensorImpl& in, const TensorImpl& out, int64_t outer, int64_t r, int64_t inner);

// C[b] = A[b] @ B[b] for contiguous batches of row-major matrices:
// A [batch, m, k], B [batch, k, n], C [batch, m, n], one dtype.
void gemm(const TensorImpl& a, const TensorImpl& b, const TensorImpl& c, int64_t batch, int64_t m, int64_t k, int64_t n);

// C = op(A) @ op(B) for 2-D float32/float64 operands given by pointer and
// leading dimension, op being a transpose when trans_* (BLAS semantics, row
// major): the copy-free path for transposed views (x @ W.t() in Linear).
// C is contiguous [m, n].
void gemm_2d(ScalarType dtype, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const void* a,
             int64_t lda, const void* b, int64_t ldb, void* c);

void arange(const TensorImpl& out, double start, double step, int64_t istart, int64_t istep);
void uniform(const TensorImpl& out);
void normal(const TensorImpl& out);
void manual_seed(uint64_t seed);

// Contiguous bulk conversions with run-time SIMD dispatch (cast_simd.cpp).
// total_bytes: the whole output's size (n may be one thread's share); large
// outputs are written with streaming stores.
void cast_f32_to_f16(const float* src, uint16_t* dst, int64_t n, int64_t total_bytes);
void cast_f16_to_f32(const uint16_t* src, float* dst, int64_t n, int64_t total_bytes);
void cast_f32_to_bf16(const float* src, uint16_t* dst, int64_t n, int64_t total_bytes);
void cast_bf16_to_f32(const uint16_t* src, float* dst, int64_t n, int64_t total_bytes);
// Which implementation the dispatch picked ("avx2+f16c", "portable").
const char* cast_isa();

}  // namespace tt::detail::kernels
