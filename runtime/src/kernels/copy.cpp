// Copy with dtype conversion: the kernel behind to(), copy_(), contiguous().
#include <cstring>

#include "dtype_dispatch.h"
#include "kernels/kernels.h"
#include "kernels/loops.h"

namespace tt::detail::kernels {

namespace {

// Contiguous conversions that have a SIMD path; false if (from, to) has none.
bool simd_cast(ScalarType from, ScalarType to, const char* s, char* d, int64_t n, int64_t total_bytes) {
  using ST = ScalarType;
  if (from == ST::Float && to == ST::Half) {
    cast_f32_to_f16(reinterpret_cast<const float*>(s), reinterpret_cast<uint16_t*>(d), n, total_bytes);
  } else if (from == ST::Half && to == ST::Float) {
    cast_f16_to_f32(reinterpret_cast<const uint16_t*>(s), reinterpret_cast<float*>(d), n, total_bytes);
  } else if (from == ST::Float && to == ST::BFloat16) {
    cast_f32_to_bf16(reinterpret_cast<const float*>(s), reinterpret_cast<uint16_t*>(d), n, total_bytes);
  } else if (from == ST::BFloat16 && to == ST::Float) {
    cast_bf16_to_f32(reinterpret_cast<const uint16_t*>(s), reinterpret_cast<float*>(d), n, total_bytes);
  } else {
    return false;
  }
  return true;
}

template <class To, class From>
void convert_run(char* d, const char* s, int64_t n, int64_t ds, int64_t ss) {
  if (ds == sizeof(To) && ss == sizeof(From)) {
    To* dp = reinterpret_cast<To*>(d);
    const From* sp = reinterpret_cast<const From*>(s);
    for (int64_t i = 0; i < n; ++i) dp[i] = convert<To>(sp[i]);
  } else {
    for (int64_t i = 0; i < n; ++i)
      *reinterpret_cast<To*>(d + i * ds) = convert<To>(*reinterpret_cast<const From*>(s + i * ss));
  }
}

}  // namespace

static void copy_cpu(const TensorImpl& dst, const TensorImpl& src) {
  const int64_t n = dst.numel;
  if (n == 0) return;
  const ScalarType from = src.dtype, to = dst.dtype;
  if (dst.is_contiguous() && src.is_contiguous() && src.numel == n) {
    char* d = dst.data();
    const char* s = src.data();
    const size_t din = element_size(from), dout = element_size(to);
    if (from == to) {
      parallel_for(n * din, kParallelGrain * 8, [&](int64_t b, int64_t e) { std::memcpy(d + b, s + b, e - b); });
      return;
    }
    parallel_for(n, kParallelGrain, [&](int64_t b, int64_t e) {
      if (simd_cast(from, to, s + b * din, d + b * dout, e - b, n * static_cast<int64_t>(dout))) return;
      visit_dtype(to, [&](auto tt_) {
        visit_dtype(from, [&](auto tf) {
          using To = typename decltype(tt_)::type;
          using From = typename decltype(tf)::type;
          convert_run<To, From>(d + b * dout, s + b * din, e - b, sizeof(To), sizeof(From));
        });
      });
    });
    return;
  }
  visit_dtype(to, [&](auto tt_) {
    visit_dtype(from, [&](auto tf) {
      using To = typename decltype(tt_)::type;
      using From = typename decltype(tf)::type;
      for_each_run<2>(dst.sizes, {&dst, &src},
                      [](const std::array<char*, 2>& p, int64_t len, const std::array<int64_t, 2>& st) {
                        convert_run<To, From>(p[0], p[1], len, st[0], st[1]);
                      });
    });
  });
}

static void fill_cpu(const TensorImpl& dst, const Scalar& value) {
  visit_dtype(dst.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    if (value.is_floating_point())
      v = convert<T>(value.to_double());
    else if (value.is_boolean())
      v = convert<T>(value.to_bool());
    else
      v = convert<T>(value.to_long());
    for_each_run<1>(dst.sizes, {&dst},
                    [v](const std::array<char*, 1>& p, int64_t len, const std::array<int64_t, 1>& st) {
                      if (st[0] == sizeof(T)) {
                        T* d = reinterpret_cast<T*>(p[0]);
                        std::fill(d, d + len, v);
                      } else {
                        for (int64_t i = 0; i < len; ++i) *reinterpret_cast<T*>(p[0] + i * st[0]) = v;
                      }
                    });
  });
}

TT_DEFINE_DISPATCH(copy, copy_cpu);
TT_DEFINE_DISPATCH(fill, fill_cpu);

}  // namespace tt::detail::kernels
