// The TT_* environment variables: every malformed value is a
// ConfigurationError (a ValueError) naming the variable and what it accepts
// (before, TT_EMULATE_CUDA_DEVICES=999, -3 and abc were taken silently,
// TT_VALIDATE=bogus was a warning).
#include <cstdlib>
#include <filesystem>
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
      if (it->second)
        setenv(it->first.c_str(), it->second->c_str(), 1);
      else
        unsetenv(it->first.c_str());
    }
    tt_test::RuntimeTest::TearDown();
  }

  // The message of the ConfigurationError f throws, "" when none. A setting
  // has no source location: what() is "tt: " and the message, naming no
  // file of the runtime's build tree (issue 23, item 7).
  template <class F>
  std::string error_of(F f) {
    try {
      f();
    } catch (const ConfigurationError& e) {
      EXPECT_EQ(std::string(e.what()), "tt: " + e.message());
      EXPECT_EQ(e.line(), 0u);
      EXPECT_STREQ(e.file(), "");
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

// Record mode whose log cannot be written used to drop every record while
// the program exited 0. set_validation_mode refuses it, naming the path and
// the reason, and leaves the settings as they were (the TT_VALIDATE_LOG
// path is tested in test_record_end_to_end.cpp, in a fresh process).
TEST_F(Environment, RecordModeNeedsAWritableLog) {
  const std::string missing = std::filesystem::temp_directory_path().string() + "/tt-no-such-dir/log.jsonl";
  const std::string before = validation_log_path();
  EXPECT_EQ(error_of([&] { set_validation_mode(ValidationMode::Record, missing); }),
            "TT_VALIDATE=record cannot write its validation log " + missing +
                ": No such file or directory (set TT_VALIDATE_LOG to a writable file)");
  EXPECT_EQ(validation_mode(), ValidationMode::Raise);
  EXPECT_EQ(validation_log_path(), before);
  const std::string dir = std::filesystem::temp_directory_path().string();
  EXPECT_NE(error_of([&] { set_validation_mode(ValidationMode::Record, dir); }).find(dir + ": Is a directory"),
            std::string::npos);
  tt_test::TempFile log("tt-env-log");
  set_validation_mode(ValidationMode::Record, log.path);
  EXPECT_EQ(validation_mode(), ValidationMode::Record);
  EXPECT_TRUE(std::filesystem::exists(log.path));       // created, empty, before any record
  set_validation_mode(ValidationMode::Raise, missing);  // raise mode writes nothing: no check
  EXPECT_EQ(validation_mode(), ValidationMode::Raise);
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
  EXPECT_EQ(error_of([] { detail::env_host_cache(); }), "environment variable TT_HOST_CACHE=on: expected 0 or 1");
}

TEST_F(Environment, PreferCublasLt) {
  set("TT_BLAS_PREFER_CUBLASLT", "");  // empty is unset
  EXPECT_FALSE(detail::env_prefer_cublaslt());
  set("TT_BLAS_PREFER_CUBLASLT", "1");
  EXPECT_TRUE(detail::env_prefer_cublaslt());
  set("TT_BLAS_PREFER_CUBLASLT", "0");
  EXPECT_FALSE(detail::env_prefer_cublaslt());
  set("TT_BLAS_PREFER_CUBLASLT", "true");
  EXPECT_EQ(error_of([] { detail::env_prefer_cublaslt(); }),
            "environment variable TT_BLAS_PREFER_CUBLASLT=true: expected 0 or 1");
}

}  // namespace
