// tt::save / tt::load: round trips across devices and dtypes, and every
// kind of damage (truncation at every length class, each flipped bit in a
// sample of positions, wrong architecture) gives a clear tt::Error and
// leaves the module untouched.
#include <fstream>

#include "test_util.h"

using namespace tt;
using tt_test::values;

namespace {

class Serialize : public tt_test::RuntimeTest {};

struct Small : nn::Module {
  explicit Small(int64_t hidden = 3) {
    fc1 = register_module("fc1", std::make_shared<nn::Linear>(4, hidden));
    fc2 = register_module("fc2", std::make_shared<nn::Linear>(hidden, 2));
    register_buffer("steps", tensor({int64_t(5)}));
  }
  std::shared_ptr<nn::Linear> fc1, fc2;
};

std::string read_all(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}
void write_all(const std::string& p, const std::string& s) {
  std::ofstream(p, std::ios::binary).write(s.data(), static_cast<std::streamsize>(s.size()));
}

std::vector<std::vector<float>> snapshot(const nn::Module& m) {
  std::vector<std::vector<float>> out;
  for (auto& p : m.parameters()) out.push_back(values<float>(p));
  return out;
}

std::string load_error(nn::Module& m, const std::string& path) {
  try {
    load(m, path);
  } catch (const Error& e) {
    return e.message();
  } catch (const std::exception& e) {
    return std::string("wrong exception type: ") + e.what();
  }
  return "";
}

}  // namespace

TEST_F(Serialize, RoundTripRestoresEveryParameterAndBuffer) {
  tt_test::TempFile file("ckpt");
  manual_seed(1);
  auto a = std::make_shared<Small>();
  save(a, file.path);
  manual_seed(2);
  Small b;
  ASSERT_NE(snapshot(*a), snapshot(b));
  b.named_buffers()[0].second.fill_(0);
  load(b, file.path);
  EXPECT_EQ(snapshot(*a), snapshot(b));
  EXPECT_EQ(b.named_buffers()[0].second.item<int64_t>(), 5);
  EXPECT_TRUE(b.fc1->weight.requires_grad());
  EXPECT_TRUE(b.fc1->weight.is_leaf());
}

TEST_F(Serialize, LoadConvertsToTheModulesDeviceAndDtype) {
  tt_test::TempFile file("ckpt-dev");
  set_cuda_emulation(1);
  Small a;
  a.to(kCUDA).to(kHalf);
  save(a, file.path);  // saved from half on cuda
  Small b;
  load(b, file.path);  // into float32 on cpu
  EXPECT_EQ(b.fc1->weight.dtype(), kFloat);
  EXPECT_EQ(b.fc1->weight.device(), Device(kCPU));
  EXPECT_EQ(values<float>(b.fc1->weight), values<float>(a.fc1->weight));
}

TEST_F(Serialize, EveryTruncationIsRejectedAndLeavesTheModelUntouched) {
  tt_test::TempFile file("ckpt-trunc"), cut("ckpt-cut");
  Small a;
  save(a, file.path);
  const std::string full = read_all(file.path);
  Small b;
  const auto before = snapshot(b);
  for (size_t len = 0; len < full.size(); len += (len < 64 ? 1 : 37)) {
    write_all(cut.path, full.substr(0, len));
    const std::string msg = load_error(b, cut.path);
    EXPECT_FALSE(msg.empty()) << "length " << len << " loaded";
    EXPECT_TRUE(msg.find("truncated") != std::string::npos || msg.find("bad magic") != std::string::npos)
        << len << ": " << msg;
    ASSERT_EQ(snapshot(b), before) << "half-loaded at length " << len;
  }
}

TEST_F(Serialize, EveryFlippedBitIsRejected) {
  tt_test::TempFile file("ckpt-flip"), bad("ckpt-bad");
  Small a;
  save(a, file.path);
  const std::string full = read_all(file.path);
  Small b;
  const auto before = snapshot(b);
  for (size_t pos = 0; pos < full.size(); pos += 7) {
    for (int bit : {0, 5}) {
      std::string damaged = full;
      damaged[pos] = static_cast<char>(damaged[pos] ^ (1 << bit));
      write_all(bad.path, damaged);
      const std::string msg = load_error(b, bad.path);
      EXPECT_FALSE(msg.empty()) << "flip at " << pos << " loaded";
      EXPECT_EQ(msg.find("wrong exception type"), std::string::npos) << msg;
      ASSERT_EQ(snapshot(b), before) << "modified by a corrupt file (byte " << pos << ")";
    }
  }
  write_all(bad.path, full.substr(0, 8) + "x" + full.substr(9));  // a flipped version byte
  EXPECT_NE(load_error(b, bad.path).find("format version"), std::string::npos);
}

TEST_F(Serialize, ArchitectureMismatchNamesTheKeysAndShapes) {
  tt_test::TempFile file("ckpt-arch");
  Small a(3);
  save(a, file.path);
  Small wider(5);
  const std::string msg = load_error(wider, file.path);
  EXPECT_NE(msg.find("Error(s) in loading state_dict for Small:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("size mismatch for fc1.weight: copying a param with shape [3, 4] from checkpoint, the shape in "
                     "current model is [5, 4]."),
            std::string::npos)
      << msg;
  nn::Linear other(4, 3);
  const std::string msg2 = load_error(other, file.path);
  EXPECT_NE(msg2.find("Missing key(s) in state_dict: \"weight\", \"bias\"."), std::string::npos) << msg2;
  EXPECT_NE(msg2.find("Unexpected key(s) in state_dict: "), std::string::npos) << msg2;
  EXPECT_NE(load_error(other, "/nonexistent/ckpt").find("cannot open checkpoint"), std::string::npos);
}

// A directory is said to be one (it read as a "bad magic number" before).
TEST_F(Serialize, ADirectoryIsNotAFile) {
  Small m;
  const std::string dir = ::testing::TempDir();
  EXPECT_EQ(load_error(m, dir), "cannot open checkpoint '" + dir + "': it is a directory");
  EXPECT_EQ(load_error(m, "/nonexistent/ckpt"),
            "cannot open checkpoint '/nonexistent/ckpt': No such file or directory");
}
