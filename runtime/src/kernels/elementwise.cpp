// Elementwise binary, unary, clamp and where kernels over broadcast views.
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "dtype_dispatch.h"
#include "kernels/kernels.h"
#include "kernels/loops.h"
#include "kernels/op_math.h"

namespace tt::detail::kernels {

namespace {

// Applies f elementwise; specialised runs for the layouts that dominate
// (all contiguous, one side a broadcast scalar) so the compiler vectorises.
template <class Out, class T, class F>
void binary_loop(const TensorImpl& out, const TensorImpl& a, const TensorImpl& b, const F& f) {
  for_each_run<3>(
      out.sizes, {&out, &a, &b}, [&f](const std::array<char*, 3>& p, int64_t n, const std::array<int64_t, 3>& st) {
        Out* o = reinterpret_cast<Out*>(p[0]);
        const T* x = reinterpret_cast<const T*>(p[1]);
        const T* y = reinterpret_cast<const T*>(p[2]);
        if (st[0] == sizeof(Out) && st[1] == sizeof(T) && st[2] == sizeof(T)) {
          for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]);
        } else if (st[0] == sizeof(Out) && st[1] == sizeof(T) && st[2] == 0) {
          const T yv = *y;
          for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], yv);
        } else if (st[0] == sizeof(Out) && st[1] == 0 && st[2] == sizeof(T)) {
          const T xv = *x;
          for (int64_t i = 0; i < n; ++i) o[i] = f(xv, y[i]);
        } else {
          for (int64_t i = 0; i < n; ++i)
            *reinterpret_cast<Out*>(p[0] + i * st[0]) =
                f(*reinterpret_cast<const T*>(p[1] + i * st[1]), *reinterpret_cast<const T*>(p[2] + i * st[2]));
        }
      });
}

template <class T, class F>
void unary_loop(const TensorImpl& out, const TensorImpl& in, const F& f) {
  for_each_run<2>(out.sizes, {&out, &in},
                  [&f](const std::array<char*, 2>& p, int64_t n, const std::array<int64_t, 2>& st) {
                    T* o = reinterpret_cast<T*>(p[0]);
                    const T* x = reinterpret_cast<const T*>(p[1]);
                    if (st[0] == sizeof(T) && st[1] == sizeof(T)) {
                      for (int64_t i = 0; i < n; ++i) o[i] = f(x[i]);
                    } else {
                      for (int64_t i = 0; i < n; ++i)
                        *reinterpret_cast<T*>(p[0] + i * st[0]) = f(*reinterpret_cast<const T*>(p[1] + i * st[1]));
                    }
                  });
}

// c ? a : b, bit for bit (NaN payloads and signed zeros kept), written as
// masks so a loop of it vectorises.
template <class T>
T bit_select(uint8_t c, T a, T b) {
  using U = std::conditional_t<
      sizeof(T) == 1, uint8_t,
      std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  static_assert(sizeof(U) == sizeof(T));
  const U m = static_cast<U>(U(0) - static_cast<U>(c != 0));
  return std::bit_cast<T>(static_cast<U>((std::bit_cast<U>(a) & m) | (std::bit_cast<U>(b) & static_cast<U>(~m))));
}

template <class T>
void binary_typed(BinaryOp op, const TensorImpl& out, const TensorImpl& a, const TensorImpl& b, const Scalar& alpha_s) {
  using M = opmath_t<T>;
  // The op is a template argument here, so each loop is its own
  // vectorisable instance; what it computes is op_math.h's, shared with cuda/.
  auto cmp = [&]<BinaryOp Op>() {
    binary_loop<bool, T>(out, a, b, [](T x, T y) { return math::compare<Op, M>(M(x), M(y)); });
  };
  switch (op) {
    case BinaryOp::Eq: return cmp.template operator()<BinaryOp::Eq>();
    case BinaryOp::Ne: return cmp.template operator()<BinaryOp::Ne>();
    case BinaryOp::Lt: return cmp.template operator()<BinaryOp::Lt>();
    case BinaryOp::Le: return cmp.template operator()<BinaryOp::Le>();
    case BinaryOp::Gt: return cmp.template operator()<BinaryOp::Gt>();
    case BinaryOp::Ge: return cmp.template operator()<BinaryOp::Ge>();
    default: break;
  }
  if constexpr (std::is_same_v<T, bool>) {
    if (op == BinaryOp::Add)
      return binary_loop<bool, bool>(out, a, b, [](bool x, bool y) { return math::logical<BinaryOp::Add>(x, y); });
    return binary_loop<bool, bool>(out, a, b, [](bool x, bool y) { return math::logical<BinaryOp::Mul>(x, y); });
  } else {
    const M alpha =
        alpha_s.is_floating_point() ? static_cast<M>(alpha_s.to_double()) : static_cast<M>(alpha_s.to_long());
    auto run = [&]<BinaryOp Op>() {
      binary_loop<T, T>(out, a, b, [](T x, T y) { return T(math::arith<Op, M>(M(x), M(y))); });
    };
    auto run_alpha = [&]<BinaryOp Op>() {
      binary_loop<T, T>(out, a, b, [alpha](T x, T y) { return T(math::arith_alpha<Op, M>(M(x), M(y), alpha)); });
    };
    switch (op) {
      case BinaryOp::Add:
        if (alpha == M(1)) return run.template operator()<BinaryOp::Add>();
        return run_alpha.template operator()<BinaryOp::Add>();
      case BinaryOp::Sub:
        if (alpha == M(1)) return run.template operator()<BinaryOp::Sub>();
        return run_alpha.template operator()<BinaryOp::Sub>();
      case BinaryOp::Mul: return run.template operator()<BinaryOp::Mul>();
      case BinaryOp::Div:
        if constexpr (std::is_floating_point_v<M>) return run.template operator()<BinaryOp::Div>();
        break;  // true division never runs on integers (promoted to float by the op)
      case BinaryOp::Pow: return run.template operator()<BinaryOp::Pow>();
      default: break;
    }
  }
}

template <class T>
void unary_typed(UnaryOp op, const TensorImpl& out, const TensorImpl& in) {
  using M = opmath_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    // abs and relu of bool are identities; neg is refused by the op.
    if (op == UnaryOp::Abs || op == UnaryOp::Relu) unary_loop<T>(out, in, [](T x) { return x; });
  } else {
    auto run = [&]<UnaryOp Op>() {
      if constexpr (math::unary_defined<Op, M>())
        unary_loop<T>(out, in, [](T x) { return T(math::unary<Op, M>(M(x))); });
    };
    switch (op) {
      case UnaryOp::Neg: return run.template operator()<UnaryOp::Neg>();
      case UnaryOp::Abs: return run.template operator()<UnaryOp::Abs>();
      case UnaryOp::Relu: return run.template operator()<UnaryOp::Relu>();
      case UnaryOp::Sigmoid: return run.template operator()<UnaryOp::Sigmoid>();
      case UnaryOp::Tanh: return run.template operator()<UnaryOp::Tanh>();
      case UnaryOp::Exp: return run.template operator()<UnaryOp::Exp>();
      case UnaryOp::Log: return run.template operator()<UnaryOp::Log>();
      case UnaryOp::Sqrt: return run.template operator()<UnaryOp::Sqrt>();
    }
  }
}

}  // namespace

static void binary_cpu(BinaryOp op, const TensorImpl& out, const TensorImpl& a, const TensorImpl& b,
                       const Scalar& alpha) {
  visit_dtype(a.dtype, [&](auto tag) { binary_typed<typename decltype(tag)::type>(op, out, a, b, alpha); });
}

static void unary_cpu(UnaryOp op, const TensorImpl& out, const TensorImpl& in) {
  visit_dtype(in.dtype, [&](auto tag) { unary_typed<typename decltype(tag)::type>(op, out, in); });
}

static void clamp_cpu(const TensorImpl& out, const TensorImpl& in, std::optional<double> lo, std::optional<double> hi) {
  visit_dtype(in.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    if constexpr (!std::is_same_v<T, bool>) {
      const bool has_lo = lo.has_value(), has_hi = hi.has_value();
      const M l = has_lo ? static_cast<M>(*lo) : M(0), h = has_hi ? static_cast<M>(*hi) : M(0);
      unary_loop<T>(out, in, [=](T x) { return T(math::clamp<M>(M(x), has_lo, l, has_hi, h)); });
    }
  });
}

static void where_cpu(const TensorImpl& out, const TensorImpl& cond, const TensorImpl& x, const TensorImpl& y) {
  visit_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for_each_run<4>(out.sizes, {&out, &cond, &x, &y},
                    [](const std::array<char*, 4>& p, int64_t n, const std::array<int64_t, 4>& st) {
                      T* o = reinterpret_cast<T*>(p[0]);
                      // The mask as bytes: any non-zero byte is true, as the strided path reads it.
                      const uint8_t* c = reinterpret_cast<const uint8_t*>(p[1]);
                      const T* a = reinterpret_cast<const T*>(p[2]);
                      const T* b = reinterpret_cast<const T*>(p[3]);
                      // The layouts of masks and ReLU-style gradients (where(x > 0, g, 0)):
                      // contiguous, or one branch a broadcast scalar. A bitwise select
                      // of both loaded values (in bounds either way), which GCC
                      // vectorises where it does not vectorise `c ? a : b`.
                      if (st[0] == sizeof(T) && st[1] == 1 && st[2] == sizeof(T) && st[3] == sizeof(T)) {
                        for (int64_t i = 0; i < n; ++i) o[i] = bit_select(c[i], a[i], b[i]);
                      } else if (st[0] == sizeof(T) && st[1] == 1 && st[2] == sizeof(T) && st[3] == 0) {
                        const T bv = *b;
                        for (int64_t i = 0; i < n; ++i) o[i] = bit_select(c[i], a[i], bv);
                      } else if (st[0] == sizeof(T) && st[1] == 1 && st[2] == 0 && st[3] == sizeof(T)) {
                        const T av = *a;
                        for (int64_t i = 0; i < n; ++i) o[i] = bit_select(c[i], av, b[i]);
                      } else {
                        for (int64_t i = 0; i < n; ++i) {
                          const bool ci = *reinterpret_cast<const uint8_t*>(p[1] + i * st[1]) != 0;
                          *reinterpret_cast<T*>(p[0] + i * st[0]) =
                              *reinterpret_cast<const T*>((ci ? p[2] + i * st[2] : p[3] + i * st[3]));
                        }
                      }
                    });
  });
}

TT_DEFINE_DISPATCH(binary, binary_cpu);
TT_DEFINE_DISPATCH(unary, unary_cpu);
TT_DEFINE_DISPATCH(clamp, clamp_cpu);
TT_DEFINE_DISPATCH(where, where_cpu);

}  // namespace tt::detail::kernels
