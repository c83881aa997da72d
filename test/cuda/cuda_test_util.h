// Shared helpers for the GPU suite: the skip without a GPU, and cpu/cuda
// comparisons.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <tt/tt.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tt_cuda_test {

/// Every GPU test derives from this: without a device the case is reported
/// as SKIPPED with the reason, never as a silent pass.
class CudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
      GTEST_SKIP() << "no CUDA device: " << (e != cudaSuccess ? cudaGetErrorString(e) : "cudaGetDeviceCount() == 0");
    }
    ASSERT_TRUE(tt::cuda::is_available());
    ASSERT_EQ(tt::cuda::device_count(), n);
  }
};

/// A dtype's c10 name ("Float") as a std::string, for traces.
inline std::string dt_name(tt::ScalarType t) { return std::string(tt::to_string(t)); }

/// The 10 dtypes.
inline const std::vector<tt::ScalarType>& all_dtypes() {
  static const std::vector<tt::ScalarType> v{tt::kBool,  tt::kUInt8,   tt::kInt8,     tt::kInt16,   tt::kInt32,
                                             tt::kInt64, tt::kFloat16, tt::kBFloat16, tt::kFloat32, tt::kFloat64};
  return v;
}

/// Raw bytes of a contiguous cpu tensor.
inline std::vector<unsigned char> bytes_of(const tt::Tensor& t) {
  tt::Tensor c = t.contiguous();
  std::vector<unsigned char> b(c.nbytes());
  if (!b.empty()) std::memcpy(b.data(), c.data_ptr(), b.size());
  return b;
}

/// Elements of two cpu tensors of one dtype whose bits differ, a NaN
/// matching any NaN: float arithmetic that makes or meets a NaN returns the
/// GPU's one canonical NaN (0x7FFFFFFF), where x86 keeps an operand's sign
/// and payload (and 0/0 is 0xFFC00000). Conversions keep NaN bits exactly
/// and are compared with bytes_of instead.
inline int64_t count_differences(const tt::Tensor& a, const tt::Tensor& b) {
  const auto ba = bytes_of(a), bb = bytes_of(b);
  if (ba.size() != bb.size()) return INT64_MAX;
  const size_t w = tt::element_size(a.dtype());
  auto is_nan = [&](const unsigned char* p) {
    uint64_t u = 0;
    std::memcpy(&u, p, w);
    switch (a.dtype()) {
      case tt::kHalf: return (u & 0x7FFF) > 0x7C00;
      case tt::kBFloat16: return (u & 0x7FFF) > 0x7F80;
      case tt::kFloat: return (u & 0x7FFFFFFFu) > 0x7F800000u;
      case tt::kDouble: return (u & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
      default: return false;
    }
  };
  int64_t n = 0;
  for (size_t i = 0; i < ba.size(); i += w)
    n += std::memcmp(&ba[i], &bb[i], w) != 0 && !(is_nan(&ba[i]) && is_nan(&bb[i]));
  return n;
}

/// Distance in units in the last place between two floats/doubles (0 when
/// both are NaN or equal).
template <class T>
int64_t ulp_distance(T a, T b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (a == b) return 0;
  if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)) return INT64_MAX;
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  I ia, ib;
  std::memcpy(&ia, &a, sizeof(T));
  std::memcpy(&ib, &b, sizeof(T));
  auto ordered = [](I v) {
    return v < 0 ? static_cast<int64_t>(std::numeric_limits<I>::min()) - v : static_cast<int64_t>(v);
  };
  const int64_t d = ordered(ia) - ordered(ib);
  return d < 0 ? -d : d;
}

/// Largest ulp distance between two cpu tensors of one floating dtype,
/// 16-bit floats measured in their own ulps.
inline int64_t max_ulp(const tt::Tensor& a, const tt::Tensor& b) {
  if (a.dtype() == tt::kFloat64) {
    const double* x = a.contiguous().data_ptr<double>();
    const double* y = b.contiguous().data_ptr<double>();
    int64_t m = 0;
    for (int64_t i = 0; i < a.numel(); ++i) m = std::max(m, ulp_distance(x[i], y[i]));
    return m;
  }
  if (a.dtype() == tt::kFloat32) {
    const float* x = a.contiguous().data_ptr<float>();
    const float* y = b.contiguous().data_ptr<float>();
    int64_t m = 0;
    for (int64_t i = 0; i < a.numel(); ++i) m = std::max(m, ulp_distance(x[i], y[i]));
    return m;
  }
  // float16/bfloat16: their bit patterns are ordered like float's.
  const auto ba = bytes_of(a), bb = bytes_of(b);
  int64_t m = 0;
  for (size_t i = 0; i + 1 < ba.size(); i += 2) {
    int16_t x, y;
    std::memcpy(&x, &ba[i], 2);
    std::memcpy(&y, &bb[i], 2);
    auto ordered = [](int16_t v) { return v < 0 ? -32768 - static_cast<int64_t>(v) : static_cast<int64_t>(v); };
    const bool nx = (x & 0x7fff) > (a.dtype() == tt::kFloat16 ? 0x7c00 : 0x7f80);
    const bool ny = (y & 0x7fff) > (a.dtype() == tt::kFloat16 ? 0x7c00 : 0x7f80);
    if (nx && ny) continue;
    m = std::max(m, std::abs(ordered(x) - ordered(y)));
  }
  return m;
}

}  // namespace tt_cuda_test
