// The caching host allocator (runtime/src/host_allocator.h): large blocks
// come back for the same size class, small ones never enter the cache, and
// under AddressSanitizer a cached block still reports a use after free.
#include <cstring>

#include "host_allocator.h"  // runtime/src: the allocator under test
#include "test_util.h"

using namespace tt;

namespace {

class HostAllocator : public tt_test::RuntimeTest {
 protected:
  void SetUp() override {
    tt_test::RuntimeTest::SetUp();
    detail::host_empty_cache();
  }
};

TEST_F(HostAllocator, FreedLargeBlockIsReusedForTheSameSizeClass) {
  const auto before = detail::host_cache_stats();
  void* first = nullptr;
  {
    Tensor t = tt::zeros({1024, 256});  // 1 MiB of float32
    first = t.data_ptr();
  }
  EXPECT_EQ(detail::host_cache_stats().cached_bytes, std::size_t(1) << 20);
  // 1 MiB minus a few floats: the same whole-page size class.
  Tensor u = tt::empty({(1 << 18) - 3});
  EXPECT_EQ(u.data_ptr(), first);
  const auto after = detail::host_cache_stats();
  EXPECT_EQ(after.hits, before.hits + 1);
  EXPECT_EQ(after.misses, before.misses + 1);
  EXPECT_EQ(after.cached_bytes, 0u);
}

TEST_F(HostAllocator, ADifferentSizeClassIsNotServedFromTheCache) {
  {
    Tensor t = tt::zeros({1 << 18});
  }
  const auto before = detail::host_cache_stats();
  Tensor u = tt::zeros({(1 << 18) + 4096});
  const auto after = detail::host_cache_stats();
  EXPECT_EQ(after.hits, before.hits);
  EXPECT_EQ(after.misses, before.misses + 1);
  EXPECT_EQ(after.cached_bytes, std::size_t(1) << 20);
}

TEST_F(HostAllocator, SmallBlocksBypassTheCache) {
  const auto before = detail::host_cache_stats();
  {
    Tensor t = tt::zeros({16, 16});
  }
  const auto after = detail::host_cache_stats();
  EXPECT_EQ(after.hits, before.hits);
  EXPECT_EQ(after.misses, before.misses);
  EXPECT_EQ(after.cached_bytes, 0u);
}

TEST_F(HostAllocator, ARecycledBlockHoldsTheNewTensorsValues) {
  {
    Tensor t = tt::full({1 << 18}, 7.0);
  }
  Tensor u = tt::zeros({1 << 18});
  EXPECT_EQ(detail::host_cache_stats().cached_bytes, 0u);
  EXPECT_EQ(u.sum().item<float>(), 0.0f);
}

TEST_F(HostAllocator, EmptyCacheReturnsEveryBlock) {
  {
    Tensor a = tt::zeros({1 << 18}), b = tt::zeros({1 << 17});
  }
  EXPECT_EQ(detail::host_cache_stats().cached_bytes, (std::size_t(3) << 19));
  detail::host_empty_cache();
  EXPECT_EQ(detail::host_cache_stats().cached_bytes, 0u);
}

#if defined(__SANITIZE_ADDRESS__)
TEST_F(HostAllocator, UseOfACachedBlockIsReportedUnderAddressSanitizer) {
  void* p = detail::host_allocate(std::size_t(1) << 20);
  detail::host_free(p, std::size_t(1) << 20);
  ASSERT_EQ(detail::host_cache_stats().cached_bytes, std::size_t(1) << 20);
  EXPECT_DEATH(std::memset(p, 0, 16), "use-after-poison");
}
#endif

}  // namespace
