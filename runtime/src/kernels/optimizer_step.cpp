// The optimizers' fused per-parameter updates on host memory. SGD's
// momentum update as three in-place ops reads and writes the parameter-sized
// buffers eight times in three parallel regions, Adam's about twenty times in
// ten; here each is one pass in one region (ATen's fused SGD and Adam,
// aten/src/ATen/native/cpu/Fused{SGD,Adam}Kernel.cpp).
// The arithmetic is op_math.h's, in the order and with the rounding of the
// unfused ops, so the fused step changes speed, never results. The bodies
// are in optimizer_step_kernels.inc, the arguments and the one-element
// lanes in optimizer_math.h (both shared with cuda/); this file has the
// SIMD lanes and the dispatch.
//
// Subnormal floats. x86 computes with them exactly, but every instruction
// that reads or produces one takes a microcode assist of over a hundred
// cycles (Intel's optimization manual, "floating-point assists"). The
// optimizers' averages reach that range in ordinary training: the momentum
// buffer of a weight whose gradient stays zero (the weight of an input
// pixel that is always black in MNIST) decays by 0.9 a step below 2^-126
// and stays there for some 130 steps. Flushing them to zero (FTZ/DAZ)
// would change results, and PyTorch does not flush by default either.
//
// So float steps run in groups of 8 elements (AVX2) or 4 (SSE2), and a
// group in which a state buffer (the operands that decay: SGD's momentum,
// Adam's averages) holds a value that is nonzero and so small that the
// step's products may fall below 2^-126 (tiny_magnitude) is computed in
// double, rounded to float after every operation. Float's subnormals are
// normal doubles, and a float operation done in double and rounded to
// float is exactly the float operation's result (double rounding is
// innocuous for +, -, *, / and sqrt when 53 >= 2 * 24 + 2: S. Figueroa,
// "When is double rounding innocuous?", SIGNUM Newsletter 30(3), 1995).
// Which path a group takes changes its speed only: both give the same bits
// whatever the data and the scalars (a subnormal gradient, not watched,
// costs its assist), but for which NaN comes out where two NaNs meet: x86
// returns an instruction's first operand's, and the compiler may swap the
// operands of an add or multiply, here as in the unfused ops' kernels
// (IEEE 754 leaves the choice open; a GPU returns its one canonical NaN).
// The lanes are written with intrinsics: GCC, by the same theorem, turns
// (float)((double)x * (double)y) back into a float multiply, and it
// vectorises no loop that branches per group (clang, which builds the
// fuzzers, keeps the intrinsics' conversions too). bfloat16 shares float's
// exponent range but stays on the plain path (no bfloat16 training on the
// cpu is measured); float16's values and their products are normal floats.
//
// Measured (runtime_bench sgd_step_f32, one thread, a 256 x 784 parameter,
// docs/performance.md, session 30): a quarter of the buffer subnormal took
// 936 us a step in plain float and 82 us here (LibTorch 1.13: 545 us);
// none, 57 us both.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <type_traits>

#include "dtype_dispatch.h"
#include "environment.h"
#include "kernels/kernels.h"
#include "kernels/op_math.h"
#include "kernels/optimizer_math.h"
#include "kernels/parallel.h"
#include "scalar_math.h"

namespace tt::detail::kernels {

namespace {

// The magnitude below which a nonzero operand may make a subnormal when
// multiplied by the step's scalars in turn: 2^-126 over the product of
// those below 1 (zeros make no product), with a factor 2 of margin (a
// rounding, a cancellation), at most 2^-40.
double tiny_magnitude(std::initializer_list<double> factors) {
  double scale = 1;
  for (double f : factors)
    if (f != 0) scale *= std::min(1.0, std::fabs(f));
  return std::min(std::ldexp(1.0, -125) / scale, std::ldexp(1.0, -40));
}

// The bits of a positive float magnitude, which order as the magnitudes do.
uint32_t magnitude_bits(double magnitude) {
  const auto f = static_cast<float>(magnitude);
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// --- Baseline x86-64 lanes ---------------------------------------------------

// OpmathLanes<float>'s arithmetic (optimizer_math.h) on 4 floats at a time (SSE2).
struct FloatLanes {
  using V = __m128;
  static constexpr int64_t kLanes = 4;
  static V splat(float s) { return _mm_set1_ps(s); }
  static V load(const float* x) { return _mm_loadu_ps(x); }
  static void store(float* x, V v) { _mm_storeu_ps(x, v); }
  static V as_t(V v) { return v; }
  template <BinaryOp Op>
  static V arith(V x, V y) {
    static_assert(Op == BinaryOp::Add || Op == BinaryOp::Mul || Op == BinaryOp::Div);
    if constexpr (Op == BinaryOp::Add)
      return _mm_add_ps(x, y);
    else if constexpr (Op == BinaryOp::Mul)
      return _mm_mul_ps(x, y);
    else
      return _mm_div_ps(x, y);
  }
  static V sqrt(V x) { return _mm_sqrt_ps(x); }
  static V gt_select(V x, V y) {
    const V gt = _mm_cmpgt_ps(x, y);
    return _mm_or_ps(_mm_and_ps(gt, x), _mm_andnot_ps(gt, y));
  }
  // The lanes of x[0, 4) that are nonzero with magnitude bits below
  // `bound`, as a bit mask, compared as integers: comparing the floats
  // would itself take the assist. Adding 2^31 - 1 to the magnitude bits m
  // maps 0 to INT32_MAX and 1 <= m to INT32_MIN + m - 1, so one signed
  // comparison with INT32_MIN + bound - 1 finds 1 <= m < bound.
  static int tiny(const float* x, uint32_t bound) {
    const __m128i m = _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x)), _mm_set1_epi32(0x7FFFFFFF));
    const __m128i shifted = _mm_add_epi32(m, _mm_set1_epi32(0x7FFFFFFF));
    const __m128i t = _mm_cmplt_epi32(shifted, _mm_set1_epi32(static_cast<int32_t>(0x80000000u + bound - 1u)));
    return _mm_movemask_ps(_mm_castsi128_ps(t));
  }
};

// And on 4 floats at a time with each operation done in double and rounded
// to float (see above): no operand or result is a subnormal double.
struct FloatInDoubleLanes {
  struct V {
    __m128d lo, hi;
  };
  static constexpr int64_t kLanes = 4;
  static __m128d round(__m128d d) { return _mm_cvtps_pd(_mm_cvtpd_ps(d)); }
  static V splat(float s) { return {_mm_set1_pd(s), _mm_set1_pd(s)}; }
  static V load(const float* x) {
    const __m128 f = _mm_loadu_ps(x);
    return {_mm_cvtps_pd(f), _mm_cvtps_pd(_mm_movehl_ps(f, f))};
  }
  static void store(float* x, V v) { _mm_storeu_ps(x, _mm_movelh_ps(_mm_cvtpd_ps(v.lo), _mm_cvtpd_ps(v.hi))); }
  static V as_t(V v) { return v; }  // every operation already rounds to float
  template <BinaryOp Op>
  static V arith(V x, V y) {
    static_assert(Op == BinaryOp::Add || Op == BinaryOp::Mul || Op == BinaryOp::Div);
    if constexpr (Op == BinaryOp::Add)
      return {round(_mm_add_pd(x.lo, y.lo)), round(_mm_add_pd(x.hi, y.hi))};
    else if constexpr (Op == BinaryOp::Mul)
      return {round(_mm_mul_pd(x.lo, y.lo)), round(_mm_mul_pd(x.hi, y.hi))};
    else
      return {round(_mm_div_pd(x.lo, y.lo)), round(_mm_div_pd(x.hi, y.hi))};
  }
  static V sqrt(V x) { return {round(_mm_sqrt_pd(x.lo)), round(_mm_sqrt_pd(x.hi))}; }
  static __m128d select(__m128d mask, __m128d x, __m128d y) {
    return _mm_or_pd(_mm_and_pd(mask, x), _mm_andnot_pd(mask, y));
  }
  static V gt_select(V x, V y) {
    return {select(_mm_cmpgt_pd(x.lo, y.lo), x.lo, y.lo), select(_mm_cmpgt_pd(x.hi, y.hi), x.hi, y.hi)};
  }
};

namespace baseline {
#include "kernels/optimizer_step_kernels.inc"
}  // namespace baseline

// --- AVX2 lanes: the same 8 floats wide ----------------------------------------
// Everything from here to the region's end is compiled for AVX2, the kernel
// bodies included again; it runs only where the CPU has AVX2 (use_avx2).
// Vectors pass only among these functions; the code outside calls them with
// pointers, scalars and references.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

struct FloatLanes8 {
  using V = __m256;
  static constexpr int64_t kLanes = 8;
  static V splat(float s) { return _mm256_set1_ps(s); }
  static V load(const float* x) { return _mm256_loadu_ps(x); }
  static void store(float* x, V v) { _mm256_storeu_ps(x, v); }
  static V as_t(V v) { return v; }
  template <BinaryOp Op>
  static V arith(V x, V y) {
    static_assert(Op == BinaryOp::Add || Op == BinaryOp::Mul || Op == BinaryOp::Div);
    if constexpr (Op == BinaryOp::Add)
      return _mm256_add_ps(x, y);
    else if constexpr (Op == BinaryOp::Mul)
      return _mm256_mul_ps(x, y);
    else
      return _mm256_div_ps(x, y);
  }
  static V sqrt(V x) { return _mm256_sqrt_ps(x); }
  static V gt_select(V x, V y) { return _mm256_blendv_ps(y, x, _mm256_cmp_ps(x, y, _CMP_GT_OQ)); }
  // FloatLanes::tiny for x[0, 8).
  static int tiny(const float* x, uint32_t bound) {
    const __m256i m =
        _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x)), _mm256_set1_epi32(0x7FFFFFFF));
    const __m256i shifted = _mm256_add_epi32(m, _mm256_set1_epi32(0x7FFFFFFF));
    const __m256i t = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int32_t>(0x80000000u + bound - 1u)), shifted);
    return _mm256_movemask_ps(_mm256_castsi256_ps(t));
  }
};

struct FloatInDoubleLanes8 {
  struct V {
    __m256d lo, hi;
  };
  static constexpr int64_t kLanes = 8;
  static __m256d round(__m256d d) { return _mm256_cvtps_pd(_mm256_cvtpd_ps(d)); }
  static V splat(float s) { return {_mm256_set1_pd(s), _mm256_set1_pd(s)}; }
  static V load(const float* x) { return {_mm256_cvtps_pd(_mm_loadu_ps(x)), _mm256_cvtps_pd(_mm_loadu_ps(x + 4))}; }
  static void store(float* x, V v) {
    _mm_storeu_ps(x, _mm256_cvtpd_ps(v.lo));
    _mm_storeu_ps(x + 4, _mm256_cvtpd_ps(v.hi));
  }
  static V as_t(V v) { return v; }
  template <BinaryOp Op>
  static V arith(V x, V y) {
    static_assert(Op == BinaryOp::Add || Op == BinaryOp::Mul || Op == BinaryOp::Div);
    if constexpr (Op == BinaryOp::Add)
      return {round(_mm256_add_pd(x.lo, y.lo)), round(_mm256_add_pd(x.hi, y.hi))};
    else if constexpr (Op == BinaryOp::Mul)
      return {round(_mm256_mul_pd(x.lo, y.lo)), round(_mm256_mul_pd(x.hi, y.hi))};
    else
      return {round(_mm256_div_pd(x.lo, y.lo)), round(_mm256_div_pd(x.hi, y.hi))};
  }
  static V sqrt(V x) { return {round(_mm256_sqrt_pd(x.lo)), round(_mm256_sqrt_pd(x.hi))}; }
  static V gt_select(V x, V y) {
    return {_mm256_blendv_pd(y.lo, x.lo, _mm256_cmp_pd(x.lo, y.lo, _CMP_GT_OQ)),
            _mm256_blendv_pd(y.hi, x.hi, _mm256_cmp_pd(x.hi, y.hi, _CMP_GT_OQ))};
  }
};

namespace avx2 {
#include "kernels/optimizer_step_kernels.inc"
}  // namespace avx2

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

// Whether the float steps take the AVX2 lanes; throws tt::ConfigurationError
// for a TT_CPU_DISPATCH it does not know.
bool use_avx2() {
  static const bool avx2 = [] {
    __builtin_cpu_init();
    return env_cpu_dispatch() != "portable" && __builtin_cpu_supports("avx2");
  }();
  return avx2;
}

// Runs Kernel<T, F1, F2> over elements [begin, end) of its arguments.
// Elements go one at a time in OpmathLanes<T> (GCC vectorises that loop);
// float's go in groups of 8 (the same kernel compiled for AVX2,
// Avx2Kernel<float, F1, F2>, where `avx2`) then of 4, each group in the
// double lanes when one of `watch` has a tiny lane there (bound:
// magnitude_bits), else in the float lanes (run_groups).
template <template <class, bool, bool> class Kernel, template <class, bool, bool> class Avx2Kernel, class T, bool F1,
          bool F2, class Args, size_t N>
void run_lanes(int64_t begin, int64_t end, const Args& args, const std::array<const T*, N>& watch, uint32_t bound,
               bool avx2) {
  const Kernel<T, F1, F2> k{args};  // a local: the kernel's stores cannot alias its pointers and scalars
  int64_t i = begin;
  if constexpr (std::is_same_v<T, float>) {
    if (avx2) i = avx2::run_groups<FloatLanes8, FloatInDoubleLanes8>(i, end, watch, bound, Avx2Kernel<T, F1, F2>{args});
    i = baseline::run_groups<FloatLanes, FloatInDoubleLanes>(i, end, watch, bound, k);
  }
  const auto scalar = k.template consts<OpmathLanes<T>>();
  for (; i < end; i += OpmathLanes<T>::kLanes) k.template group<OpmathLanes<T>>(i, scalar);
}

template <class T, bool Decays, bool Nesterov>
void sgd_run(const SgdArgs<T>& args, int64_t numel, const SgdStep& o) {
  const uint32_t bound =
      magnitude_bits(tiny_magnitude({o.momentum, 1 - o.dampening, o.lr, o.weight_decay, Nesterov ? o.momentum : 0.0}));
  const std::array<const T*, 1> watch{args.b};
  const bool avx2 = use_avx2();  // here: it may throw (TT_CPU_DISPATCH), and the region must not
  parallel_for(numel, kParallelGrain, [&](int64_t begin, int64_t end) {
    run_lanes<baseline::SgdKernel, avx2::SgdKernel, T, Decays, Nesterov>(begin, end, args, watch, bound, avx2);
  });
}

template <class T>
void sgd_step_typed(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& buf, const SgdStep& o) {
  const SgdArgs<T> a = sgd_args<T>(reinterpret_cast<T*>(param.data()), reinterpret_cast<const T*>(grad.data()),
                                   reinterpret_cast<T*>(buf.data()), o);
  with_flags(o.weight_decay != 0, o.nesterov,
             [&]<bool Decays, bool Nesterov>() { sgd_run<T, Decays, Nesterov>(a, param.numel, o); });
}

template <class T, bool Decays, bool AmsGrad>
void adam_run(const AdamArgs<T>& args, int64_t numel, const AdamStep& o) {
  const uint32_t bound = magnitude_bits(  // step_size is -lr / (1 - beta1^step)
      tiny_magnitude(
          {o.beta1, 1 - o.beta1, o.beta2, 1 - o.beta2, static_cast<double>(args.step_size), o.weight_decay}));
  const std::array<const T*, 2> watch{args.m, args.v};
  const bool avx2 = use_avx2();  // here: it may throw (TT_CPU_DISPATCH), and the region must not
  parallel_for(numel, kParallelGrain, [&](int64_t begin, int64_t end) {
    run_lanes<baseline::AdamKernel, avx2::AdamKernel, T, Decays, AmsGrad>(begin, end, args, watch, bound, avx2);
  });
}

template <class T>
void adam_step_typed(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& exp_avg,
                     const TensorImpl& exp_avg_sq, const TensorImpl* max_exp_avg_sq, const AdamStep& o) {
  const AdamArgs<T> a = adam_args<T>(reinterpret_cast<T*>(param.data()), reinterpret_cast<const T*>(grad.data()),
                                     reinterpret_cast<T*>(exp_avg.data()), reinterpret_cast<T*>(exp_avg_sq.data()),
                                     max_exp_avg_sq ? reinterpret_cast<T*>(max_exp_avg_sq->data()) : nullptr, o);
  with_flags(o.weight_decay != 0, a.vmax != nullptr,
             [&]<bool Decays, bool AmsGrad>() { adam_run<T, Decays, AmsGrad>(a, param.numel, o); });
}

void adam_step_cpu(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& exp_avg,
                   const TensorImpl& exp_avg_sq, const TensorImpl* max_exp_avg_sq, const AdamStep& o) {
  visit_dtype(param.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) adam_step_typed<T>(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, o);
  });
}

void sgd_step_cpu(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& buf, const SgdStep& o) {
  visit_dtype(param.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) sgd_step_typed<T>(param, grad, buf, o);
  });
}

}  // namespace

TT_DEFINE_DISPATCH(sgd_step, sgd_step_cpu);
TT_DEFINE_DISPATCH(adam_step, adam_step_cpu);

}  // namespace tt::detail::kernels
