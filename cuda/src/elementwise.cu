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

// The op as a uniform run-time switch over op_math.h's functions, which the
// cpu's binary_typed instantiates per op (no FMA: -fmad=false).
template <class T, class Out>
__device__ __forceinline__ Out binary_apply(const BinaryArgs<T>& args, T xs, T ys) {
  namespace m = detail::kernels::math;
  using M = opmath_t<T>;
  const M x = load_math(xs), y = load_math(ys);
  if constexpr (std::is_same_v<Out, bool>) {
    switch (static_cast<BinaryOp>(args.op)) {
      case BinaryOp::Eq: return m::compare<BinaryOp::Eq, M>(x, y);
      case BinaryOp::Ne: return m::compare<BinaryOp::Ne, M>(x, y);
      case BinaryOp::Lt: return m::compare<BinaryOp::Lt, M>(x, y);
      case BinaryOp::Le: return m::compare<BinaryOp::Le, M>(x, y);
      case BinaryOp::Gt: return m::compare<BinaryOp::Gt, M>(x, y);
      case BinaryOp::Ge: return m::compare<BinaryOp::Ge, M>(x, y);
      default: break;
    }
    if constexpr (std::is_same_v<T, bool>) {
      if (static_cast<BinaryOp>(args.op) == BinaryOp::Add) return m::logical<BinaryOp::Add>(x, y);
      return m::logical<BinaryOp::Mul>(x, y);
    }
    return false;  // never launched: arithmetic on non-bool inputs has a non-bool output
  } else {
    M r;
    switch (static_cast<BinaryOp>(args.op)) {
      case BinaryOp::Add:
        r = args.unit_alpha ? m::arith<BinaryOp::Add, M>(x, y) : m::arith_alpha<BinaryOp::Add, M>(x, y, args.alpha);
        break;
      case BinaryOp::Sub:
        r = args.unit_alpha ? m::arith<BinaryOp::Sub, M>(x, y) : m::arith_alpha<BinaryOp::Sub, M>(x, y, args.alpha);
        break;
      case BinaryOp::Mul: r = m::arith<BinaryOp::Mul, M>(x, y); break;
      case BinaryOp::Div:
        if constexpr (std::is_floating_point_v<M>)
          r = m::arith<BinaryOp::Div, M>(x, y);
        else
          r = M(0);  // never launched: true division promotes integers
        break;
      default: r = m::arith<BinaryOp::Pow, M>(x, y); break;
    }
    return store_math<Out>(r);
  }
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
    for (int64_t i = tid; i < nvec; i += stride) {
      Vec<T, V> x, y;
      if (a.by_value) {
#pragma unroll
        for (int j = 0; j < V; ++j) x.v[j] = a.value;
      } else {
        x = reinterpret_cast<const Vec<T, V>*>(a.p)[i];
      }
      if (b.by_value) {
#pragma unroll
        for (int j = 0; j < V; ++j) y.v[j] = b.value;
      } else {
        y = reinterpret_cast<const Vec<T, V>*>(b.p)[i];
      }
      Vec<Out, V> o;
#pragma unroll
      for (int j = 0; j < V; ++j) o.v[j] = binary_apply<T, Out>(args, x.v[j], y.v[j]);
      reinterpret_cast<Vec<Out, V>*>(out)[i] = o;
    }
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
