// Elementwise binary ops (arithmetic with the cpu kernels' semantics,
// comparisons), unary ops, clamp and where, over broadcast views. One
// kernel per dtype (and output dtype) with the op as a uniform run-time
// switch: a memory-bound kernel does not notice the branch, and nvcc
// compiles 10x fewer kernels than one per (op, dtype).
#include <cmath>
#include <type_traits>

#include "check.h"
#include "device_context.h"
#include "device_types.cuh"
#include "kernel_table.h"
#include "kernels/op_math.h"
#include "launch_utils.h"

namespace tt::cuda_backend {

namespace {

using detail::TensorImpl;
using detail::kernels::BinaryOp;
using detail::kernels::UnaryOp;

/// One input of an elementwise kernel: device memory (contiguous or
/// planned) or a value passed by argument (a host scalar).
template <class T>
struct Operand {
  const char* p = nullptr;
  T value{};
  bool by_value = false;
};

template <class T>
Operand<T> operand(const TensorImpl& t) {
  Operand<T> o;
  if (is_host_operand(t)) {
    o.value = host_scalar<T>(t);
    o.by_value = true;
  } else {
    o.p = t.data();
  }
  return o;
}

template <class T>
__device__ __forceinline__ T load_at(const Operand<T>& o, int64_t byte_offset) {
  return o.by_value ? o.value : *reinterpret_cast<const T*>(o.p + byte_offset);
}

template <class T>
struct BinaryArgs {
  int op;
  opmath_t<T> alpha;
  bool unit_alpha;
};

// One op of op_math.h's functions, the cpu's binary_typed own (no FMA:
// -fmad=false), as a compile-time constant.
template <BinaryOp Op, class T, class Out>
__device__ __forceinline__ Out binary_op(const BinaryArgs<T>& args, T xs, T ys) {
  namespace m = detail::kernels::math;
  using M = opmath_t<T>;
  // pow(x, 1) may return x itself, NaN payload and all: it loads exactly.
  const M x = Op == BinaryOp::Pow ? load_math(xs) : load_math_canonical(xs);
  const M y = Op == BinaryOp::Pow ? load_math(ys) : load_math_canonical(ys);
  if constexpr (std::is_same_v<Out, bool>) {
    if constexpr (Op == BinaryOp::Add || Op == BinaryOp::Mul)
      return m::logical<Op>(x, y);  // bool inputs: or, and
    else
      return m::compare<Op, M>(x, y);
  } else if constexpr (Op == BinaryOp::Add || Op == BinaryOp::Sub) {
    return store_math<Out>(args.unit_alpha ? m::arith<Op, M>(x, y) : m::arith_alpha<Op, M>(x, y, args.alpha));
  } else {
    return store_math<Out>(m::arith<Op, M>(x, y));
  }
}

// f(std::integral_constant<BinaryOp, op>{}) for the run-time op, which is
// uniform over the grid: the kernels switch once per vector (not per
// element), and each case is straight-line code over the vector.
template <class T, class Out, class F>
__device__ __forceinline__ void with_binary_op(int op, F&& f) {
  using B = BinaryOp;
  if constexpr (std::is_same_v<Out, bool>) {
    switch (static_cast<B>(op)) {
      case B::Eq: f(std::integral_constant<B, B::Eq>{}); return;
      case B::Ne: f(std::integral_constant<B, B::Ne>{}); return;
      case B::Lt: f(std::integral_constant<B, B::Lt>{}); return;
      case B::Le: f(std::integral_constant<B, B::Le>{}); return;
      case B::Gt: f(std::integral_constant<B, B::Gt>{}); return;
      case B::Ge: f(std::integral_constant<B, B::Ge>{}); return;
      default: break;
    }
    if constexpr (std::is_same_v<T, bool>) {  // logical or / and; arithmetic on other inputs is never bool
      if (static_cast<B>(op) == B::Add)
        f(std::integral_constant<B, B::Add>{});
      else
        f(std::integral_constant<B, B::Mul>{});
    }
  } else {
    switch (static_cast<B>(op)) {
      case B::Add: f(std::integral_constant<B, B::Add>{}); return;
      case B::Sub: f(std::integral_constant<B, B::Sub>{}); return;
      case B::Mul: f(std::integral_constant<B, B::Mul>{}); return;
      case B::Div:
        if constexpr (std::is_floating_point_v<opmath_t<T>>) f(std::integral_constant<B, B::Div>{});
        return;  // integers: never launched, true division promotes them
      default: f(std::integral_constant<B, B::Pow>{}); return;
    }
  }
}

template <class T, class Out>
__device__ __forceinline__ Out binary_apply(const BinaryArgs<T>& args, T x, T y) {
  Out r{};
  with_binary_op<T, Out>(args.op, [&](auto op) { r = binary_op<decltype(op)::value, T, Out>(args, x, y); });
  return r;
}

/// V elements of o from vector i (a by-value operand repeats its value).
template <class T, int V>
__device__ __forceinline__ Vec<T, V> load_vec(const Operand<T>& o, int64_t i) {
  if (!o.by_value) return reinterpret_cast<const Vec<T, V>*>(o.p)[i];
  Vec<T, V> x;
#pragma unroll
  for (int j = 0; j < V; ++j) x.v[j] = o.value;
  return x;
}

// mode 0: every operand contiguous (or by value), pointers aligned for
// vector access; mode 1: contiguous, unaligned; mode 2: planned strides.
template <class T, class Out>
__global__ void binary_kernel(BinaryArgs<T> args, char* out, Operand<T> a, Operand<T> b, StridedPlan<3> plan, int mode,
                              int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t tid = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (mode == 0) {
    constexpr int V = vec_width<T, Out>();
    const int64_t nvec = n / V;
    auto* o = reinterpret_cast<Vec<Out, V>*>(out);
    with_binary_op<T, Out>(args.op, [&](auto op) {
      constexpr BinaryOp Op = decltype(op)::value;
      int64_t i = tid;
      for (; i + (kUnroll - 1) * stride < nvec; i += kUnroll * stride) {
        Vec<T, V> x[kUnroll], y[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
          x[u] = load_vec<T, V>(a, i + u * stride);
          y[u] = load_vec<T, V>(b, i + u * stride);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
          Vec<Out, V> r;
#pragma unroll
          for (int j = 0; j < V; ++j) r.v[j] = binary_op<Op, T, Out>(args, x[u].v[j], y[u].v[j]);
          o[i + u * stride] = r;
        }
      }
      for (; i < nvec; i += stride) {
        const Vec<T, V> x = load_vec<T, V>(a, i), y = load_vec<T, V>(b, i);
        Vec<Out, V> r;
#pragma unroll
        for (int j = 0; j < V; ++j) r.v[j] = binary_op<Op, T, Out>(args, x.v[j], y.v[j]);
        o[i] = r;
      }
    });
    for (int64_t i = nvec * V + tid; i < n; i += stride)
      reinterpret_cast<Out*>(out)[i] = binary_apply<T, Out>(args, load_at(a, i * sizeof(T)), load_at(b, i * sizeof(T)));
  } else if (mode == 1) {
    for (int64_t i = tid; i < n; i += stride)
      reinterpret_cast<Out*>(out)[i] = binary_apply<T, Out>(args, load_at(a, i * sizeof(T)), load_at(b, i * sizeof(T)));
  } else {
    for (int64_t i = tid; i < n; i += stride) {
      int64_t off[3];
      plan_offsets<3>(plan, i, off);
      *reinterpret_cast<Out*>(out + off[0]) = binary_apply<T, Out>(args, load_at(a, off[1]), load_at(b, off[2]));
    }
  }
}

// Unary ops and clamp (op == -1).
template <class T>
struct UnaryArgs {
  int op;
  bool has_lo, has_hi;
  opmath_t<T> lo, hi;
};

template <class T>
__device__ __forceinline__ T unary_apply(const UnaryArgs<T>& args, T xs) {
  namespace m = detail::kernels::math;
  using M = opmath_t<T>;
  const M x = load_math(xs);
  if (args.op < 0) return store_math<T>(m::clamp<M>(x, args.has_lo, args.lo, args.has_hi, args.hi));
  if constexpr (std::is_same_v<T, bool>) {
    return xs;  // abs/relu of bool are identities; neg is refused by the op
  } else {
    auto run = [&]<UnaryOp Op>() -> M {
      if constexpr (m::unary_defined<Op, M>())
        return m::unary<Op, M>(x);
      else
        return x;  // never launched (the op refuses the dtype)
    };
    M r;
    switch (static_cast<UnaryOp>(args.op)) {
      case UnaryOp::Neg: r = run.template operator()<UnaryOp::Neg>(); break;
      case UnaryOp::Abs: r = run.template operator()<UnaryOp::Abs>(); break;
      case UnaryOp::Relu: r = run.template operator()<UnaryOp::Relu>(); break;
      case UnaryOp::Sigmoid: r = run.template operator()<UnaryOp::Sigmoid>(); break;
      case UnaryOp::Tanh: r = run.template operator()<UnaryOp::Tanh>(); break;
      case UnaryOp::Exp: r = run.template operator()<UnaryOp::Exp>(); break;
      case UnaryOp::Log: r = run.template operator()<UnaryOp::Log>(); break;
      default: r = run.template operator()<UnaryOp::Sqrt>(); break;
    }
    return store_math<T>(r);
  }
}

template <class T>
__global__ void unary_kernel(UnaryArgs<T> args, char* out, const char* in, StridedPlan<2> plan, int mode, int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t tid = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (mode == 0) {
    constexpr int V = vec_of<T>();
    const int64_t nvec = n / V;
    for (int64_t i = tid; i < nvec; i += stride) {
      const Vec<T, V> x = reinterpret_cast<const Vec<T, V>*>(in)[i];
      Vec<T, V> o;
#pragma unroll
      for (int j = 0; j < V; ++j) o.v[j] = unary_apply<T>(args, x.v[j]);
      reinterpret_cast<Vec<T, V>*>(out)[i] = o;
    }
    for (int64_t i = nvec * V + tid; i < n; i += stride)
      reinterpret_cast<T*>(out)[i] = unary_apply<T>(args, reinterpret_cast<const T*>(in)[i]);
  } else {
    for (int64_t i = tid; i < n; i += stride) {
      int64_t off[2];
      plan_offsets<2>(plan, i, off);
      *reinterpret_cast<T*>(out + off[0]) = unary_apply<T>(args, *reinterpret_cast<const T*>(in + off[1]));
    }
  }
}

template <class T>
__global__ void where_kernel(char* out, Operand<bool> cond, Operand<T> x, Operand<T> y, StridedPlan<4> plan,
                             int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[4];
    plan_offsets<4>(plan, i, off);
    *reinterpret_cast<T*>(out + off[0]) = load_at(cond, off[1]) ? load_at(x, off[2]) : load_at(y, off[3]);
  }
}

bool dense(const TensorImpl& t, int64_t n) { return is_host_operand(t) ? true : (t.is_contiguous() && t.numel == n); }

template <class T>
void run_unary(UnaryArgs<T> args, const TensorImpl& out, const TensorImpl& in) {
  const int64_t n = out.numel;
  if (n == 0) return;
  const int dev = out.device().index();
  auto& ctx = context(dev);
  DeviceGuard guard(dev);
  constexpr int V = vec_of<T>();
  const bool vec = out.is_contiguous() && in.is_contiguous() && in.numel == n && aligned(out.data(), sizeof(T) * V) &&
                   aligned(in.data(), sizeof(T) * V);
  StridedPlan<2> plan{};
  if (!vec) plan = strided_plan<2>(out.sizes, {&out, &in});
  unary_kernel<T><<<grid_for(vec ? n / V + 1 : n, dev), kThreads, 0, ctx.stream>>>(args, out.data(), in.data(), plan,
                                                                                   vec ? 0 : 2, n);
  TT_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_binary(BinaryOp op, const TensorImpl& out, const TensorImpl& a, const TensorImpl& b,
                   const Scalar& alpha_s) {
  const int64_t n = out.numel;
  if (n == 0) return;
  const int dev = out.device().index();
  auto& ctx = context(dev);
  DeviceGuard guard(dev);
  visit_device_dtype(a.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    BinaryArgs<T> args{static_cast<int>(op), M{}, true};
    if constexpr (!std::is_same_v<T, bool>) {
      args.alpha =
          alpha_s.is_floating_point() ? static_cast<M>(alpha_s.to_double()) : static_cast<M>(alpha_s.to_long());
      args.unit_alpha = args.alpha == M(1);
    }
    const Operand<T> oa = operand<T>(a), ob = operand<T>(b);
    auto launch = [&](auto out_tag) {
      using Out = typename decltype(out_tag)::type;
      constexpr int V = vec_width<T, Out>();
      int mode = 2;
      StridedPlan<3> plan{};
      if (out.is_contiguous() && dense(a, n) && dense(b, n)) {
        const bool al = aligned(out.data(), sizeof(Out) * V) && (oa.by_value || aligned(oa.p, sizeof(T) * V)) &&
                        (ob.by_value || aligned(ob.p, sizeof(T) * V));
        mode = al ? 0 : 1;
      } else {
        plan = strided_plan<3>(out.sizes, {&out, &a, &b});
      }
      binary_kernel<T, Out><<<grid_for(mode == 0 ? n / V + 1 : n, dev), kThreads, 0, ctx.stream>>>(args, out.data(), oa,
                                                                                                   ob, plan, mode, n);
      TT_CUDA_CHECK_LAUNCH();
    };
    if (out.dtype == ScalarType::Bool)
      launch(DTag<bool>{});
    else
      launch(DTag<T>{});
  });
}

void launch_unary(UnaryOp op, const TensorImpl& out, const TensorImpl& in) {
  visit_device_dtype(in.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_unary<T>(UnaryArgs<T>{static_cast<int>(op), false, false, {}, {}}, out, in);
  });
}

void launch_clamp(const TensorImpl& out, const TensorImpl& in, std::optional<double> lo, std::optional<double> hi) {
  visit_device_dtype(in.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    if constexpr (!std::is_same_v<T, bool>) {
      UnaryArgs<T> args{-1, lo.has_value(), hi.has_value(), lo ? static_cast<M>(*lo) : M(0),
                        hi ? static_cast<M>(*hi) : M(0)};
      run_unary<T>(args, out, in);
    }
  });
}

void launch_where(const TensorImpl& out, const TensorImpl& cond, const TensorImpl& x, const TensorImpl& y) {
  const int64_t n = out.numel;
  if (n == 0) return;
  const int dev = out.device().index();
  auto& ctx = context(dev);
  DeviceGuard guard(dev);
  visit_device_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto plan = strided_plan<4>(out.sizes, {&out, &cond, &x, &y});
    where_kernel<T><<<grid_for(n, dev), kThreads, 0, ctx.stream>>>(out.data(), operand<bool>(cond), operand<T>(x),
                                                                   operand<T>(y), plan, n);
    TT_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace tt::cuda_backend
