// Elementwise binary, unary, clamp and where kernels over broadcast views.
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "dtype_dispatch.h"
#include "kernels/kernels.h"
#include "kernels/loops.h"

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
T bit_select(bool c, T a, T b) {
  using U = std::conditional_t<
      sizeof(T) == 1, uint8_t,
      std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  static_assert(sizeof(U) == sizeof(T));
  const U m = static_cast<U>(U(0) - static_cast<U>(c));
  return std::bit_cast<T>(static_cast<U>((std::bit_cast<U>(a) & m) | (std::bit_cast<U>(b) & static_cast<U>(~m))));
}

template <class M>
M int_pow(M base, M exp) {  // exp >= 0 (checked by the op)
  M result = 1;
  while (exp > 0) {
    if (exp & 1) result *= base;
    base *= base;
    exp >>= 1;
  }
  return result;
}

template <class T>
void binary_typed(BinaryOp op, const TensorImpl& out, const TensorImpl& a, const TensorImpl& b, const Scalar& alpha_s) {
  using M = opmath_t<T>;
  auto cmp = [&](auto pred) { binary_loop<bool, T>(out, a, b, [pred](T x, T y) { return pred(M(x), M(y)); }); };
  switch (op) {
    case BinaryOp::Eq: return cmp([](M x, M y) { return x == y; });
    case BinaryOp::Ne: return cmp([](M x, M y) { return x != y; });
    case BinaryOp::Lt: return cmp([](M x, M y) { return x < y; });
    case BinaryOp::Le: return cmp([](M x, M y) { return x <= y; });
    case BinaryOp::Gt: return cmp([](M x, M y) { return x > y; });
    case BinaryOp::Ge: return cmp([](M x, M y) { return x >= y; });
    default: break;
  }
  if constexpr (std::is_same_v<T, bool>) {
    // bool arithmetic is logical (PyTorch: True + True == True).
    if (op == BinaryOp::Add) return binary_loop<bool, bool>(out, a, b, [](bool x, bool y) { return x || y; });
    return binary_loop<bool, bool>(out, a, b, [](bool x, bool y) { return x && y; });  // Mul
  } else {
    const M alpha =
        alpha_s.is_floating_point() ? static_cast<M>(alpha_s.to_double()) : static_cast<M>(alpha_s.to_long());
    switch (op) {
      case BinaryOp::Add:
        if (alpha == M(1)) return binary_loop<T, T>(out, a, b, [](T x, T y) { return T(M(x) + M(y)); });
        return binary_loop<T, T>(out, a, b, [alpha](T x, T y) { return T(M(x) + alpha * M(y)); });
      case BinaryOp::Sub:
        if (alpha == M(1)) return binary_loop<T, T>(out, a, b, [](T x, T y) { return T(M(x) - M(y)); });
        return binary_loop<T, T>(out, a, b, [alpha](T x, T y) { return T(M(x) - alpha * M(y)); });
      case BinaryOp::Mul: return binary_loop<T, T>(out, a, b, [](T x, T y) { return T(M(x) * M(y)); });
      case BinaryOp::Div:
        if constexpr (std::is_floating_point_v<M>)
          return binary_loop<T, T>(out, a, b, [](T x, T y) { return T(M(x) / M(y)); });
        break;  // true division never runs on integers (promoted to float by the op)
      case BinaryOp::Pow:
        if constexpr (std::is_floating_point_v<M>)
          return binary_loop<T, T>(out, a, b, [](T x, T y) { return T(std::pow(M(x), M(y))); });
        else
          return binary_loop<T, T>(out, a, b, [](T x, T y) { return T(int_pow<M>(M(x), M(y))); });
      default: break;
    }
  }
}

template <class T>
void unary_typed(UnaryOp op, const TensorImpl& out, const TensorImpl& in) {
  using M = opmath_t<T>;
  switch (op) {
    case UnaryOp::Neg:
      if constexpr (!std::is_same_v<T, bool>) return unary_loop<T>(out, in, [](T x) { return T(-M(x)); });
      break;
    case UnaryOp::Abs:
      if constexpr (std::is_unsigned_v<M>)
        return unary_loop<T>(out, in, [](T x) { return x; });
      else
        return unary_loop<T>(out, in, [](T x) { return T(M(x) < M(0) ? M(-M(x)) : M(x)); });
    case UnaryOp::Relu:
      // NaN stays NaN, as at::relu (clamp_min).
      return unary_loop<T>(out, in, [](T x) { return T(M(x) < M(0) ? M(0) : M(x)); });
    default: break;
  }
  if constexpr (std::is_floating_point_v<M>) {
    switch (op) {
      case UnaryOp::Sigmoid: return unary_loop<T>(out, in, [](T x) { return T(M(1) / (M(1) + std::exp(-M(x)))); });
      case UnaryOp::Tanh: return unary_loop<T>(out, in, [](T x) { return T(std::tanh(M(x))); });
      case UnaryOp::Exp: return unary_loop<T>(out, in, [](T x) { return T(std::exp(M(x))); });
      case UnaryOp::Log: return unary_loop<T>(out, in, [](T x) { return T(std::log(M(x))); });
      case UnaryOp::Sqrt: return unary_loop<T>(out, in, [](T x) { return T(std::sqrt(M(x))); });
      default: break;
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
      unary_loop<T>(out, in, [=](T x) {
        M v = M(x);
        if (has_lo && v < l) v = l;  // comparisons with NaN are false: NaN passes through
        if (has_hi && v > h) v = h;
        return T(v);
      });
    }
  });
}

static void where_cpu(const TensorImpl& out, const TensorImpl& cond, const TensorImpl& x, const TensorImpl& y) {
  visit_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for_each_run<4>(out.sizes, {&out, &cond, &x, &y},
                    [](const std::array<char*, 4>& p, int64_t n, const std::array<int64_t, 4>& st) {
                      T* o = reinterpret_cast<T*>(p[0]);
                      const bool* c = reinterpret_cast<const bool*>(p[1]);
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
                          const bool ci = *reinterpret_cast<const bool*>(p[1] + i * st[1]);
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
