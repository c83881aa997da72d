// Shared helpers for the runtime tests.
#pragma once

#include <gtest/gtest.h>
#include <tt/backend.h>
#include <tt/tt.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <typeinfo>
#include <vector>

namespace tt_test {

// Each test starts in raise mode with no cuda devices, whatever ran before
// in this process.
// Skips a case that needs no cuda devices or emulated ones (see
// real_cuda_backend), with the reason.
#define TT_SKIP_WITH_REAL_CUDA()                                                                          \
  if (const char* real_backend = ::tt_test::real_cuda_backend()) {                                        \
    GTEST_SKIP() << "a real CUDA backend (" << real_backend << ") is registered; it wins over emulation"; \
  }

class RuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tt::set_validation_mode(tt::ValidationMode::Raise);
    tt::set_cuda_emulation(0);
  }
  void TearDown() override {
    tt::set_validation_mode(tt::ValidationMode::Raise);
    tt::set_cuda_emulation(0);
  }
};

// The name of the real CUDA backend when one is registered (a GPU machine,
// or cuda/cpu's kernels on the cpu linked in), else nullptr. A real
// backend wins over emulation and set_cuda_emulation(0) (docs/runtime.md),
// so cases that need no cuda devices, or emulated ones, cannot run then.
inline const char* real_cuda_backend() {
  auto b = tt::get_backend(tt::kCUDA);
  return b && std::string(b->name()) != "emulated" ? b->name() : nullptr;
}

// A unique scratch file path, removed on destruction.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& stem) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path = (std::filesystem::temp_directory_path() /
            (stem + "-" + (info ? std::string(info->name()) : "x") + "-" + std::to_string(::getpid()) + ".jsonl"))
               .string();
    std::filesystem::remove(path);
  }
  ~TempFile() { std::filesystem::remove(path); }
  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    std::ifstream in(path);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  }
};

template <class T>
constexpr tt::ScalarType dtype_of();
template <>
constexpr tt::ScalarType dtype_of<bool>() {
  return tt::kBool;
}
template <>
constexpr tt::ScalarType dtype_of<uint8_t>() {
  return tt::kUInt8;
}
template <>
constexpr tt::ScalarType dtype_of<int32_t>() {
  return tt::kInt32;
}
template <>
constexpr tt::ScalarType dtype_of<int64_t>() {
  return tt::kInt64;
}
template <>
constexpr tt::ScalarType dtype_of<float>() {
  return tt::kFloat32;
}
template <>
constexpr tt::ScalarType dtype_of<double>() {
  return tt::kFloat64;
}

// The elements of t (any device, any layout) converted to T, row-major.
template <class T>
std::vector<T> values(const tt::Tensor& t) {
  tt::Tensor c = t.cpu().contiguous().to(dtype_of<T>());
  return std::vector<T>(c.data_ptr<T>(), c.data_ptr<T>() + c.numel());
}

}  // namespace tt_test

// Asserts that `stmt` throws exactly ErrType with PyTorch's message `msg`,
// located at this file and line. Keep the statement on the macro's line.
#define EXPECT_TT_ERROR(stmt, ErrType, msg)                                                      \
  do {                                                                                           \
    const unsigned tt_expected_line_ = __LINE__;                                                 \
    try {                                                                                        \
      stmt;                                                                                      \
      ADD_FAILURE() << "expected " #ErrType " from: " #stmt;                                     \
    } catch (const tt::Error& e) {                                                               \
      EXPECT_EQ(typeid(e), typeid(ErrType)) << "threw " << typeid(e).name() << ": " << e.what(); \
      EXPECT_EQ(e.message(), std::string(msg));                                                  \
      EXPECT_STREQ(e.file(), __FILE__);                                                          \
      EXPECT_EQ(e.line(), tt_expected_line_);                                                    \
    }                                                                                            \
  } while (0)
