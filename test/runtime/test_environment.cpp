// The TT_* environment variables: every malformed value is a ValueError
// naming the variable and what it accepts (before, TT_EMULATE_CUDA_DEVICES
// =999, -3 and abc were taken silently, TT_VALIDATE=bogus was a warning).
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "environment.h"  // runtime/src: the readers under test
#include "test_util.h"

using namespace tt;

namespace {

class Environment : public tt_test::RuntimeTest {
 protected:
  // Sets a variable for the test and restores it after.
  void set(const char* name, const char* value) {
    const char* old = std::getenv(name);
    saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
    setenv(name, value, 1);
  }
  void TearDown() override {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second) setenv(it->first.c_str(), it->second->c_str(), 1);
      else unsetenv(it->first.c_str());
    }
    tt_test::RuntimeTest::TearDown();
  }

  template <class F>
  std::string error_of(F f) {
    try {
      f();
    } catch (const ValueError& e) {
      return e.message();
    }
    return "";
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST_F(Environment, EmulatedDevices) {
  set("TT_EMULATE_CUDA", "1");
  set("TT_EMULATE_CUDA_DEVICES", "3");
  EXPECT_EQ(detail::env_emulated_cuda_devices(), 3);
  for (const char* bad : {"999", "-3", "abc", "0", "17", "2x", " 2"}) {
    set("TT_EMULATE_CUDA_DEVICES", bad);
    EXPECT_EQ(error_of([] { detail::env_emulated_cuda_devices(); }),
              std::string("environment variable TT_EMULATE_CUDA_DEVICES=") + bad +
                  ": expected a number of devices from 1 to 16");
  }
  set("TT_EMULATE_CUDA_DEVICES", "2");
  set("TT_EMULATE_CUDA", "yes");
  EXPECT_EQ(error_of([] { detail::env_emulated_cuda_devices(); }),
            "environment variable TT_EMULATE_CUDA=yes: expected 0 or 1");
  set("TT_EMULATE_CUDA", "0");
  EXPECT_EQ(detail::env_emulated_cuda_devices(), 0);
}

TEST_F(Environment, ValidationMode) {
  set("TT_VALIDATE", "record");
  EXPECT_EQ(detail::env_validation_mode(), ValidationMode::Record);
  set("TT_VALIDATE", "bogus");
  EXPECT_EQ(error_of([] { detail::env_validation_mode(); }),
            "environment variable TT_VALIDATE=bogus: expected raise or record");
}

TEST_F(Environment, CpuDispatch) {
  set("TT_CPU_DISPATCH", "avx2");
  EXPECT_EQ(detail::env_cpu_dispatch(), "avx2");
  set("TT_CPU_DISPATCH", "sse9");
  EXPECT_EQ(error_of([] { detail::env_cpu_dispatch(); }),
            "environment variable TT_CPU_DISPATCH=sse9: expected portable or avx2");
}

TEST_F(Environment, HostCache) {
  set("TT_HOST_CACHE", "0");
  EXPECT_FALSE(detail::env_host_cache());
  set("TT_HOST_CACHE", "1");
  EXPECT_TRUE(detail::env_host_cache());
  set("TT_HOST_CACHE", "on");
  EXPECT_EQ(error_of([] { detail::env_host_cache(); }),
            "environment variable TT_HOST_CACHE=on: expected 0 or 1");
}

}  // namespace
