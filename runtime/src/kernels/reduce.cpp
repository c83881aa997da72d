// Reductions (sum, mean, max, min, argmax) and softmax over [outer, r, inner].
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "dtype_dispatch.h"
#include "kernels/kernels.h"
#include "kernels/loops.h"
#include "kernels/op_math.h"

namespace tt::detail::kernels {

namespace {

// Accumulator: float sums accumulate blocks in float lanes and the block
// totals in double (fast and far more accurate than a running float);
// integers in int64, as PyTorch's sum of integers is int64.
template <class T>
struct SumAcc {
  using type = double;
};
template <>
struct SumAcc<bool> {
  using type = int64_t;
};
template <>
struct SumAcc<uint8_t> {
  using type = int64_t;
};
template <>
struct SumAcc<int8_t> {
  using type = int64_t;
};
template <>
struct SumAcc<int16_t> {
  using type = int64_t;
};
template <>
struct SumAcc<int32_t> {
  using type = int64_t;
};
template <>
struct SumAcc<int64_t> {
  using type = int64_t;
};

template <class T>
typename SumAcc<T>::type sum_contiguous(const T* x, int64_t n) {
  using Acc = typename SumAcc<T>::type;
  if constexpr (std::is_same_v<Acc, int64_t>) {
    Acc s = 0;
    for (int64_t i = 0; i < n; ++i) s += static_cast<Acc>(x[i]);
    return s;
  } else {
    using M = opmath_t<T>;
    constexpr int kLanes = 16;
    constexpr int64_t kBlock = 4096;
    double total = 0;
    for (int64_t b = 0; b < n; b += kBlock) {
      const int64_t e = std::min(n, b + kBlock);
      M lanes[kLanes] = {};
      int64_t i = b;
      for (; i + kLanes <= e; i += kLanes)
        for (int j = 0; j < kLanes; ++j) lanes[j] += M(x[i + j]);
      M block = 0;
      for (int j = 0; j < kLanes; ++j) block += lanes[j];
      for (; i < e; ++i) block += M(x[i]);
      total += static_cast<double>(block);
    }
    return total;
  }
}

// Splits n into up to max_threads() chunks and combines per-chunk results.
template <class R, class F, class C>
R parallel_reduce(int64_t n, R init, const F& chunk, const C& combine) {
  const int64_t nt = std::max<int64_t>(1, std::min<int64_t>(max_threads(), n / kParallelGrain));
  std::vector<R> partial(nt, init);
  const int64_t step = (n + nt - 1) / nt;
  parallel_for(nt, 1, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) partial[c] = chunk(c * step, std::min(n, (c + 1) * step));
  });
  R r = init;
  for (const auto& p : partial) r = combine(r, p);
  return r;
}

template <class T, class O>
void sum_typed(const TensorImpl& in, int64_t outer, int64_t r, int64_t inner, const TensorImpl& out, bool mean) {
  using Acc = typename SumAcc<T>::type;
  const T* x = reinterpret_cast<const T*>(in.data());
  O* o = reinterpret_cast<O*>(out.data());
  const double scale = mean ? 1.0 / static_cast<double>(r) : 1.0;
  auto finish = [&](Acc s) -> O {
    if constexpr (std::is_same_v<Acc, double>)
      return convert<O>(s * scale);
    else
      return convert<O>(s);
  };
  if (inner == 1 && outer == 1) {
    const Acc s = parallel_reduce<Acc>(
        r, Acc(0), [&](int64_t b, int64_t e) { return sum_contiguous<T>(x + b, e - b); },
        [](Acc a, Acc b) { return a + b; });
    o[0] = finish(s);
  } else if (inner == 1) {
    parallel_for(outer, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(r, 1)), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) o[i] = finish(sum_contiguous<T>(x + i * r, r));
    });
  } else {
    parallel_for(outer, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(r * inner, 1)),
                 [&](int64_t b, int64_t e) {
                   std::vector<Acc> acc(inner);
                   for (int64_t oi = b; oi < e; ++oi) {
                     std::fill(acc.begin(), acc.end(), Acc(0));
                     const T* base = x + oi * r * inner;
                     for (int64_t j = 0; j < r; ++j)
                       for (int64_t k = 0; k < inner; ++k) acc[k] += static_cast<Acc>(opmath_t<T>(base[j * inner + k]));
                     for (int64_t k = 0; k < inner; ++k) o[oi * inner + k] = finish(acc[k]);
                   }
                 });
  }
}

template <class T>
void minmax_typed(bool is_max, const TensorImpl& in, int64_t outer, int64_t r, int64_t inner, const TensorImpl* out,
                  const TensorImpl* indices) {
  using M = opmath_t<T>;
  const T* x = reinterpret_cast<const T*>(in.data());
  T* o = out ? reinterpret_cast<T*>(out->data()) : nullptr;
  int64_t* ix = indices ? reinterpret_cast<int64_t*>(indices->data()) : nullptr;
  parallel_for(outer * inner, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(r, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t w = b; w < e; ++w) {
                   const int64_t oi = w / inner, k = w % inner;
                   const T* base = x + oi * r * inner + k;
                   // op_math.h's combine step, shared with cuda/: the first NaN,
                   // else the best value at its smallest index.
                   math::BestAt<M> best{M(base[0]), 0, true};
                   for (int64_t j = 1; j < r; ++j) {
                     const math::BestAt<M> cand{M(base[j * inner]), j, true};
                     best = is_max ? math::combine<true>(best, cand) : math::combine<false>(best, cand);
                   }
                   if (o) o[w] = T(best.v);
                   if (ix) ix[w] = best.i;
                 }
               });
}

}  // namespace

static void reduce_cpu(ReduceOp op, const TensorImpl& in, int64_t outer, int64_t r, int64_t inner,
                       const TensorImpl* out, const TensorImpl* indices) {
  if (op == ReduceOp::Sum || op == ReduceOp::Mean) {
    visit_dtype(in.dtype, [&](auto ti) {
      visit_dtype(out->dtype, [&](auto to) {
        using T = typename decltype(ti)::type;
        using O = typename decltype(to)::type;
        if constexpr (std::is_same_v<O, T> || std::is_same_v<O, int64_t> || std::is_floating_point_v<O>)
          sum_typed<T, O>(in, outer, r, inner, *out, op == ReduceOp::Mean);
      });
    });
    return;
  }
  visit_dtype(in.dtype, [&](auto ti) {
    minmax_typed<typename decltype(ti)::type>(op != ReduceOp::Min, in, outer, r, inner, out, indices);
  });
}

static void softmax_cpu(bool log, const TensorImpl& in, const TensorImpl& out, int64_t outer, int64_t r,
                        int64_t inner) {
  visit_dtype(in.dtype, [&](auto ti) {
    using T = typename decltype(ti)::type;
    using M = opmath_t<T>;
    if constexpr (std::is_floating_point_v<M>) {
      const T* x = reinterpret_cast<const T*>(in.data());
      T* o = reinterpret_cast<T*>(out.data());
      parallel_for(outer * inner, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(r, 1)),
                   [&](int64_t b, int64_t e) {
                     for (int64_t w = b; w < e; ++w) {
                       const int64_t base = (w / inner) * r * inner + w % inner;
                       M mx = -std::numeric_limits<M>::infinity();
                       for (int64_t j = 0; j < r; ++j) mx = std::max(mx, M(x[base + j * inner]));
                       M sum = 0;
                       for (int64_t j = 0; j < r; ++j) sum += std::exp(M(x[base + j * inner]) - mx);
                       if (log) {
                         const M lse = std::log(sum) + mx;
                         for (int64_t j = 0; j < r; ++j) o[base + j * inner] = T(M(x[base + j * inner]) - lse);
                       } else {
                         for (int64_t j = 0; j < r; ++j)
                           o[base + j * inner] = T(std::exp(M(x[base + j * inner]) - mx) / sum);
                       }
                     }
                   });
    }
  });
}

TT_DEFINE_DISPATCH(reduce, reduce_cpu);
TT_DEFINE_DISPATCH(softmax, softmax_cpu);

}  // namespace tt::detail::kernels
