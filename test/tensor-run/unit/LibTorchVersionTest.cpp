// Which LibTorch a libc10 belongs to, read from the installation around it
// (LibTorchVersion.h); the refusal itself is other-libtorch.test.
#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "LibTorchVersion.h"

namespace tensor_run {
namespace {

TEST(SameLibTorchRelease, ComparesTheNumbersBothHave) {
  EXPECT_TRUE(same_libtorch_release("1.13", "1.13.0"));
  EXPECT_TRUE(same_libtorch_release("2.11.0+cu130", "2.11.0"));
  EXPECT_FALSE(same_libtorch_release("2.11.0", "1.13.0"));
  EXPECT_FALSE(same_libtorch_release("2.1.0", "2.11.0"));
  EXPECT_FALSE(same_libtorch_release("", "1.13.0"));
  EXPECT_FALSE(same_libtorch_release("2", "2.11.0"));  // a major version alone says too little
}

class Installation : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/libtorch-version-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    root_ = dir;
  }
  void TearDown() override { (void)!system(("rm -rf '" + root_ + "'").c_str()); }
  std::string write(const std::string& relative, const std::string& text) {
    const std::string path = root_ + "/" + relative;
    (void)!system(("mkdir -p '" + path.substr(0, path.rfind('/')) + "'").c_str());
    std::ofstream(path) << text;
    return path;
  }
  std::string root_;
};

TEST_F(Installation, ALibTorchArchiveSaysItInBuildVersion) {
  const std::string c10 = write("libtorch/lib/libc10.so", "");
  write("libtorch/build-version", "2.11.0+cpu\n");
  EXPECT_EQ(libtorch_version_at(c10), "2.11.0+cpu");
}

TEST_F(Installation, APyTorchInstallSaysItInVersionPy) {
  const std::string c10 = write("torch/lib/libc10.so", "");
  write("torch/version.py", "__all__ = ['__version__', 'cuda']\n__version__ = '2.11.0+cu130'\ncuda = '13.0'\n");
  EXPECT_EQ(libtorch_version_at(c10), "2.11.0+cu130");
}

TEST_F(Installation, TheCMakePackageSaysIt) {
  const std::string c10 = write("lib/libc10.so", "");
  write("share/cmake/Torch/TorchConfigVersion.cmake", "set(PACKAGE_VERSION \"2.4.1\")\n");
  EXPECT_EQ(libtorch_version_at(c10), "2.4.1");
}

TEST_F(Installation, ADebianSonameSaysIt) {
  EXPECT_EQ(libtorch_version_at(write("lib/libc10.so.1.13.0", "")), "1.13.0");
}

TEST_F(Installation, NothingElseIsBelieved) {
  const std::string c10 = write("libtorch/lib/libc10.so", "");
  write("libtorch/build-version", "not a version\n");
  EXPECT_EQ(libtorch_version_at(c10), "");
  EXPECT_EQ(libtorch_version_at(root_ + "/missing/libc10.so"), "");
}

}  // namespace
}  // namespace tensor_run
