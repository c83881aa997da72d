// data: IDX reading (plain and gzip, every element type, corrupt files),
// TensorDataset, the DataLoader's batching, seeded shuffling, drop_last,
// workers and pinning; one short read of the real Fashion-MNIST files.
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <thread>

#include "test_util.h"

using namespace tt;
using tt_test::values;

namespace {

class Data : public tt_test::RuntimeTest {};

std::string write_file(const std::string& path, const std::string& bytes, bool gzip) {
  if (gzip) {
    gzFile f = gzopen(path.c_str(), "wb");
    gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(f);
  } else {
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  return path;
}

std::string be32(uint32_t v) { return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; }

// An IDX file of type `type` with sizes and raw big-endian payload.
std::string idx(uint8_t type, std::vector<uint32_t> sizes, const std::string& payload) {
  std::string s{0, 0, char(type), char(sizes.size())};
  for (auto d : sizes) s += be32(d);
  return s + payload;
}

std::shared_ptr<data::TensorDataset> numbered(int64_t n) {
  return std::make_shared<data::TensorDataset>(arange(n).to(kFloat).view({n, 1}), arange(n));
}

std::vector<int64_t> order(data::DataLoader& loader, std::vector<size_t>* batch_sizes = nullptr) {
  std::vector<int64_t> seen;
  for (auto& b : loader) {
    EXPECT_EQ(b.data.size(0), b.target.size(0));
    EXPECT_TRUE(b.data.is_cpu());
    if (batch_sizes) batch_sizes->push_back(static_cast<size_t>(b.target.size(0)));
    for (int64_t v : values<int64_t>(b.target)) seen.push_back(v);
    EXPECT_EQ(values<float>(b.data.flatten()), values<float>(b.target));  // rows stay paired
  }
  return seen;
}

}  // namespace

TEST_F(Data, ReadIdxPlainAndGzipAllTypes) {
  tt_test::TempFile plain("idx-plain"), gz("idx-gz");
  const std::string u8 = idx(0x08, {2, 3}, std::string("\x01\x02\x03\x04\x05\xff", 6));
  for (bool zipped : {false, true}) {
    Tensor t = data::read_idx(write_file(zipped ? gz.path : plain.path, u8, zipped));
    EXPECT_EQ(t.dtype(), kUInt8);
    EXPECT_EQ(t.sizes(), IntArrayRef({2, 3}));
    EXPECT_EQ(values<int64_t>(t), std::vector<int64_t>({1, 2, 3, 4, 5, 255}));
  }
  Tensor i32 = data::read_idx(write_file(plain.path, idx(0x0C, {2}, be32(7) + be32(0xFFFFFFFE)), false));
  EXPECT_EQ(i32.dtype(), kInt32);
  EXPECT_EQ(values<int64_t>(i32), std::vector<int64_t>({7, -2}));
  Tensor f32 = data::read_idx(write_file(plain.path, idx(0x0D, {1}, be32(0x3FC00000)), false));  // 1.5f
  EXPECT_EQ(values<float>(f32), std::vector<float>({1.5f}));
}

TEST_F(Data, ReadIdxRejectsBadFiles) {
  tt_test::TempFile f("idx-bad");
  EXPECT_THROW(data::read_idx("/nonexistent/file"), Error);
  write_file(f.path, idx(0x08, {4}, "ab"), true);  // 4 elements promised, 2 present
  try {
    data::read_idx(f.path);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("is truncated or corrupt while reading the data"), std::string::npos) << e.message();
  }
  write_file(f.path, std::string("\x01\x02\x08\x01", 4) + be32(1) + "a", false);
  EXPECT_THROW(data::read_idx(f.path), Error);
  write_file(f.path, idx(0x42, {1}, "a"), false);
  EXPECT_THROW(data::read_idx(f.path), Error);
}

TEST_F(Data, TensorDatasetGetAndBatch) {
  auto ds = numbered(5);
  EXPECT_EQ(ds->size(), 5u);
  EXPECT_EQ(ds->get(3).target.item<int64_t>(), 3);
  auto b = ds->get_batch({4, 0, 2});
  EXPECT_EQ(values<int64_t>(b.target), std::vector<int64_t>({4, 0, 2}));
  EXPECT_EQ(b.data.sizes(), IntArrayRef({3, 1}));
  EXPECT_THROW(ds->get(5), ValueError);
  EXPECT_THROW(data::TensorDataset(zeros({3, 2}), zeros({4})), ValueError);
}

TEST_F(Data, AnEmptyTensorDatasetGivesAnEmptyBatch) {
  data::TensorDataset empty_set(zeros({0, 3}), zeros({0}));
  auto b = empty_set.get_batch({});
  EXPECT_EQ(b.data.sizes(), IntArrayRef({0, 3}));
  EXPECT_THROW(empty_set.get_batch({0}), ValueError);
}

// MNIST keeps its pixels as uint8 and scales them as it gathers a batch:
// every pixel value must come out as LibTorch's `to(kFloat32).div_(255)`.
TEST_F(Data, MnistScalesEveryPixelValueAsLibTorchDoes) {
  tt_test::TempFile dir("mnist-dir");
  std::filesystem::create_directories(dir.path);
  std::string pixels, labels;
  for (int v = 0; v < 256; ++v) pixels += char(255 - v);  // 64 images of 2 x 2: every value once
  for (int i = 0; i < 64; ++i) labels += char(i % 10);
  write_file(dir.path + "/train-images-idx3-ubyte", idx(0x08, {64, 2, 2}, pixels), false);
  write_file(dir.path + "/train-labels-idx1-ubyte.gz", idx(0x08, {64}, labels), true);

  data::MNIST ds(dir.path);
  ASSERT_EQ(ds.size(), 64u);
  Tensor expected = data::read_idx(dir.path + "/train-images-idx3-ubyte").to(kFloat).div(255.0).view({64, 1, 2, 2});
  EXPECT_EQ(ds.images().dtype(), kFloat);
  EXPECT_EQ(values<float>(ds.images()), values<float>(expected));
  EXPECT_EQ(ds.targets().dtype(), kLong);

  const std::vector<size_t> picked = {5, 63, 0, 5};
  auto b = ds.get_batch(picked);
  EXPECT_EQ(b.data.sizes(), IntArrayRef({4, 1, 2, 2}));
  EXPECT_EQ(b.data.dtype(), kFloat);
  std::vector<float> rows;
  for (size_t i : picked)
    for (float v : values<float>(expected.select(0, static_cast<int64_t>(i)))) rows.push_back(v);
  EXPECT_EQ(values<float>(b.data), rows);
  EXPECT_EQ(values<int64_t>(b.target), std::vector<int64_t>({5, 3, 0, 5}));
  auto one = ds.get(63);
  EXPECT_EQ(one.data.sizes(), IntArrayRef({1, 2, 2}));
  EXPECT_EQ(values<float>(one.data), values<float>(expected.select(0, 63)));
  EXPECT_EQ(one.target.item<int64_t>(), 3);
  EXPECT_THROW(ds.get_batch({1, 64}), ValueError);
  EXPECT_THROW(ds.get(64), ValueError);

  data::MNIST first(dir.path, data::MNIST::Mode::kTrain, 10);
  EXPECT_EQ(first.size(), 10u);
  EXPECT_THROW(first.get(10), ValueError);
  std::filesystem::remove_all(dir.path);
}

TEST_F(Data, MnistRejectsImagesThatAreNotUint8OrDoNotMatchTheLabels) {
  tt_test::TempFile dir("mnist-bad");
  std::filesystem::create_directories(dir.path);
  write_file(dir.path + "/t10k-labels-idx1-ubyte", idx(0x08, {2}, std::string("\x01\x02", 2)), false);
  write_file(dir.path + "/t10k-images-idx3-ubyte", idx(0x0C, {1, 1, 1}, be32(7)), false);  // int32 pixels
  try {
    data::MNIST ds(dir.path, data::MNIST::Mode::kTest);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("does not hold uint8 images [N, H, W]"), std::string::npos) << e.message();
  }
  write_file(dir.path + "/t10k-images-idx3-ubyte", idx(0x08, {3, 1, 1}, "abc"), false);  // 3 images, 2 labels
  EXPECT_THROW(data::MNIST(dir.path, data::MNIST::Mode::kTest), Error);
  std::filesystem::remove_all(dir.path);
}

TEST_F(Data, SequentialBatchesAndDropLast) {
  data::DataLoader loader(numbered(10), data::DataLoaderOptions(4));
  std::vector<size_t> sizes;
  EXPECT_EQ(order(loader, &sizes), std::vector<int64_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(sizes, std::vector<size_t>({4, 4, 2}));
  EXPECT_EQ(loader.size(), 3u);
  data::DataLoader dropping(numbered(10), data::DataLoaderOptions(4).drop_last(true));
  sizes.clear();
  EXPECT_EQ(order(dropping, &sizes).size(), 8u);
  EXPECT_EQ(sizes, std::vector<size_t>({4, 4}));
  EXPECT_EQ(dropping.size(), 2u);
  EXPECT_THROW(data::DataLoader(numbered(3), data::DataLoaderOptions(0)), ValueError);
}

TEST_F(Data, ShuffleIsSeededAndChangesPerEpoch) {
  auto ds = numbered(50);
  data::DataLoader a(ds, data::DataLoaderOptions(8).shuffle(true).seed(42));
  data::DataLoader b(ds, data::DataLoaderOptions(8).shuffle(true).seed(42));
  data::DataLoader c(ds, data::DataLoaderOptions(8).shuffle(true).seed(43));
  const auto a1 = order(a), b1 = order(b), c1 = order(c);
  EXPECT_EQ(a1, b1);
  EXPECT_NE(a1, c1);
  std::vector<int64_t> sorted = a1;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < 50; ++i) EXPECT_EQ(sorted[i], i);  // a permutation
  const auto a2 = order(a);
  EXPECT_NE(a1, a2);  // the next epoch reshuffles
  EXPECT_EQ(a2, order(b));
}

TEST_F(Data, WorkersKeepTheOrderAndAnEarlyBreakStopsThem) {
  auto ds = numbered(97);
  data::DataLoader serial(ds, data::DataLoaderOptions(5).shuffle(true).seed(7));
  data::DataLoader parallel(ds, data::DataLoaderOptions(5).shuffle(true).seed(7).num_workers(3));
  EXPECT_EQ(order(serial), order(parallel));
  int n = 0;
  for (auto& batch : parallel) {
    (void)batch;
    if (++n == 2) break;  // workers are joined when the next epoch starts or the loader dies
  }
  EXPECT_EQ(order(parallel).size(), 97u);
}

TEST_F(Data, AWorkersExceptionReachesTheConsumer) {
  struct Failing : data::Dataset {
    size_t size() const override { return 8; }
    data::Example get(size_t i) const override {
      if (i == 5) throw ValueError("bad example 5", SourceLoc::current());
      return {ones({1}), tensor(int64_t(i))};
    }
  };
  data::DataLoader loader(Failing{}, data::DataLoaderOptions(2).num_workers(2));
  size_t batches = 0;
  try {
    for (auto& b : loader) {
      (void)b;
      ++batches;
    }
    ADD_FAILURE() << "expected the worker's error";
  } catch (const ValueError& e) {
    EXPECT_EQ(e.message(), "bad example 5");
  }
  EXPECT_EQ(batches, 2u);
}

TEST_F(Data, PinMemoryWithACudaBackendAndIgnoredWithout) {
  if (!tt_test::real_cuda_backend()) {  // a real backend is always there to pin with
    data::DataLoader no_cuda(numbered(4), data::DataLoaderOptions(2).pin_memory(true));
    for (auto& b : no_cuda) EXPECT_FALSE(b.data.is_pinned());
  }
  set_cuda_emulation(1);
  data::DataLoader pinned(numbered(4), data::DataLoaderOptions(2).pin_memory(true).num_workers(1));
  for (auto& b : pinned) {
    EXPECT_TRUE(b.data.is_pinned());
    EXPECT_TRUE(b.target.is_pinned());
    EXPECT_TRUE(b.data.is_cpu());  // batches stay on the cpu, as PyTorch
  }
}

TEST_F(Data, RealFashionMnistTestSplit) {
  const std::string dir = "/usr/share/datasets/fashion-mnist";
  if (!std::filesystem::exists(dir + "/t10k-images-idx3-ubyte.gz"))
    GTEST_SKIP() << "dataset-fashion-mnist not installed";
  data::MNIST test(dir, data::MNIST::Mode::kTest, 100);
  EXPECT_EQ(test.size(), 100u);
  auto e = test.get_batch({0, 1});
  EXPECT_EQ(e.data.sizes(), IntArrayRef({2, 1, 28, 28}));
  EXPECT_EQ(e.data.dtype(), kFloat);
  EXPECT_EQ(e.target.dtype(), kLong);
  // The first two test labels of Fashion-MNIST: ankle boot (9), pullover (2).
  EXPECT_EQ(values<int64_t>(e.target), std::vector<int64_t>({9, 2}));
  EXPECT_GE(e.data.min().item<float>(), 0.0f);
  EXPECT_LE(e.data.max().item<float>(), 1.0f);
  EXPECT_GT(e.data.max().item<float>(), 0.9f);
}

// The declared sizes are checked against what the file holds before
// allocating: a 28-byte file claiming 2^31 x 2^31 elements used to give a
// tensor that crashed on sum().
TEST_F(Data, ReadIdxChecksDeclaredSizesAgainstTheFile) {
  tt_test::TempFile f("idx-lies");
  for (bool zipped : {false, true}) {
    write_file(f.path, idx(0x0C, {0x80000000u, 0x80000000u}, std::string(12, 'x')), zipped);
    try {
      data::read_idx(f.path);
      ADD_FAILURE() << "expected an error (zipped " << zipped << ")";
    } catch (const Error& e) {
      const std::string m = e.message();
      EXPECT_TRUE(m.find("declares sizes [2147483648, 2147483648]") != std::string::npos ||
                  m.find("is truncated or corrupt while reading the data") != std::string::npos)
          << m;
    }
  }
  write_file(f.path, idx(0x08, {1000, 1000}, std::string(10, 'x')), false);
  try {
    data::read_idx(f.path);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("declares sizes [1000, 1000] (1000000 bytes of data) but holds 10"), std::string::npos)
        << e.message();
  }
}
