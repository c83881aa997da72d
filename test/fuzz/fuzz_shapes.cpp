// libFuzzer harness: the factories' and views' shape arguments. The bytes
// are read as an op, a dtype and up to six int64 sizes; every shape either
// makes a tensor whose every element can be read, or throws tt::Error
// (ValueError for negative and overflowing shapes, OutOfMemoryError for
// impossible allocations). Allocations between 4 MiB and 1 TiB (which
// would succeed and cost real memory) are skipped, not tried.
#include <tt/errors.h>
#include <tt/factories.h>
#include <tt/ops.h>

#include <cstring>
#include <vector>

namespace {

constexpr uint64_t kTry = uint64_t(4) << 20;      // bytes worth allocating (and reading)
constexpr uint64_t kRefused = uint64_t(1) << 40;  // the allocator refuses this much

// Bytes the shape needs, or UINT64_MAX when the count overflows.
uint64_t bytes_of(const std::vector<int64_t>& sizes, size_t itemsize) {
  uint64_t n = itemsize;
  bool zero = false;
  for (int64_t s : sizes) {
    if (s < 0) return 0;  // refused before any allocation
    if (s == 0) zero = true;
    if (__builtin_mul_overflow(n, static_cast<uint64_t>(s == 0 ? 1 : s), &n)) return UINT64_MAX;
  }
  return zero ? 0 : n;
}

bool worth_trying(uint64_t bytes) { return bytes <= kTry || bytes >= kRefused; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint8_t op = data[0] % 6;
  const tt::ScalarType dtypes[] = {tt::kFloat32, tt::kFloat64, tt::kInt64, tt::kUInt8, tt::kFloat16, tt::kBool};
  const tt::ScalarType dtype = dtypes[data[1] % 6];
  std::vector<int64_t> sizes;
  for (size_t i = 2; i + 8 <= size && sizes.size() < 6; i += 8) {
    int64_t s;
    std::memcpy(&s, data + i, 8);
    sizes.push_back(s);
  }
  const uint64_t bytes = bytes_of(sizes, tt::element_size(dtype));
  try {
    tt::Tensor t;
    switch (op) {
      case 0:  // uninitialised: its metadata only (a bool byte may hold 190)
        if (!worth_trying(bytes)) return 0;
        t = tt::empty(sizes, dtype);
        (void)t.numel();
        return 0;
      case 1:
        if (!worth_trying(bytes)) return 0;
        t = tt::zeros(sizes, dtype);
        break;
      case 2:
        if (!worth_trying(bytes)) return 0;
        t = tt::full(sizes, 1, dtype);
        break;
      case 3: {  // a view of a small tensor to the fuzzed shape
        tt::Tensor base = tt::arange(24).to(dtype);
        t = base.view(sizes);
        break;
      }
      case 4: {
        tt::Tensor base = tt::zeros({0}, dtype);
        t = base.reshape(sizes);
        break;
      }
      default: {  // from_blob over a buffer big enough for the shape, or none
        static std::vector<unsigned char> buffer(kTry);
        if (bytes > kTry) {
          t = tt::from_blob(buffer.data(), sizes, dtype);  // must refuse or stay unread
          return 0;
        }
        t = tt::from_blob(buffer.data(), sizes, dtype);
        break;
      }
    }
    if (t.defined() && t.numel() > 0) (void)t.to(tt::kFloat64).sum().item<double>();
  } catch (const tt::Error&) {
  }
  return 0;
}
