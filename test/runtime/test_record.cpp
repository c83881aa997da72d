// TT_VALIDATE=record in process: what a violation writes, and that the op
// continues with the offending operand moved/cast as the first one wants.
#include <nlohmann/json.hpp>
#include <thread>

#include "test_util.h"

using namespace tt;
using nlohmann::json;
using tt_test::values;

class Record : public tt_test::RuntimeTest {
 protected:
  tt_test::TempFile log{"tt-record"};
  void SetUp() override {
    RuntimeTest::SetUp();
    set_cuda_emulation(2);
    set_validation_mode(ValidationMode::Record, log.path);
  }
  std::vector<json> records() const {
    std::vector<json> out;
    for (const auto& l : log.lines()) out.push_back(json::parse(l));
    return out;
  }
};

TEST_F(Record, MixedDeviceIsRecordedAndTheOpContinuesOnTheFirstOperandsDevice) {
  Tensor c = ones({2, 3});
  Tensor g = full({2, 3}, 2.0, kCUDA);
  const unsigned line = __LINE__ + 1;
  Tensor r = c + g;
  EXPECT_EQ(r.device(), Device(kCPU));
  EXPECT_EQ(values<float>(r), std::vector<float>(6, 3.f));
  Tensor r2 = g * c;
  EXPECT_EQ(r2.device(), Device("cuda:0"));
  EXPECT_EQ(values<float>(r2), std::vector<float>(6, 2.f));
  const auto recs = records();
  ASSERT_EQ(recs.size(), 2u);
  const json& j = recs[0];
  EXPECT_EQ(j["check"], "tensor-mixed-device");
  EXPECT_EQ(j["file"], __FILE__);
  EXPECT_EQ(j["line"], line);
  EXPECT_GT(j["column"].get<int>(), 0);
  EXPECT_EQ(j["op"], "add");
  EXPECT_EQ(j["message"],
            "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
  EXPECT_EQ(j["devices"], json::array({"cuda:0", "cpu"}));
  EXPECT_EQ(j["dtypes"], json::array());
  EXPECT_TRUE(j.contains("function"));
  EXPECT_EQ(recs[1]["op"], "mul");
  // Field order is part of the format (docs/runtime.md).
  const auto ordered = nlohmann::ordered_json::parse(log.lines().at(0));
  std::vector<std::string> keys;
  for (auto it = ordered.begin(); it != ordered.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"check", "file", "line", "column", "function", "op", "message", "devices",
                                            "dtypes"}));
}

TEST_F(Record, MatmulDtypeMismatchCastsTheSecondOperand) {
  Tensor a = ones({2, 3});
  Tensor b = ones({3, 2}, kHalf);
  const unsigned line = __LINE__ + 1;
  Tensor r = matmul(a, b);
  EXPECT_EQ(r.dtype(), kFloat32);
  EXPECT_EQ(values<float>(r), std::vector<float>(4, 3.f));
  const auto recs = records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0]["check"], "tensor-mixed-dtype");
  EXPECT_EQ(recs[0]["line"], line);
  EXPECT_EQ(recs[0]["op"], "matmul");
  EXPECT_EQ(recs[0]["message"], "expected scalar type Float but found Half");
  EXPECT_EQ(recs[0]["dtypes"], json::array({"float32", "float16"}));
  EXPECT_EQ(recs[0]["devices"], json::array({"cpu"}));
}

TEST_F(Record, InPlaceUncastableResultIsRecordedAndWrittenCast) {
  Tensor l = zeros({2}, kLong);
  l.add_(tensor({1.75, 2.25}));
  EXPECT_EQ(values<int64_t>(l), std::vector<int64_t>({1, 2}));
  const auto recs = records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0]["check"], "tensor-mixed-dtype");
  EXPECT_EQ(recs[0]["message"], "result type Float can't be cast to the desired output type Long");
}

TEST_F(Record, BothViolationsInOneOpGiveTwoRecords) {
  Tensor a = ones({2, 2});
  Tensor b = ones({2, 2}, TensorOptions().device(kCUDA).dtype(kDouble));
  Tensor r = mm(a, b);
  EXPECT_EQ(r.device(), Device(kCPU));
  EXPECT_EQ(r.dtype(), kFloat32);
  const auto recs = records();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0]["check"], "tensor-mixed-device");
  EXPECT_EQ(recs[1]["check"], "tensor-mixed-dtype");
}

TEST_F(Record, CleanCodeRecordsNothing) {
  Tensor g = ones({2, 3}, kCUDA);
  Tensor r = g * tensor(2.0) + 1;  // cpu scalar with cuda: allowed
  Tensor h = ones({3, 2}, kHalf);
  Tensor m = matmul(r.to(kHalf), h.to(kCUDA));
  Tensor i = ones({2}, kInt32) + ones({2}, kInt64);  // promotion is not a violation
  EXPECT_EQ(m.dtype(), kHalf);
  EXPECT_EQ(i.dtype(), kInt64);
  EXPECT_TRUE(log.lines().empty());
}

TEST_F(Record, NonDeviceErrorsStillThrow) {
  TT_SKIP_WITH_REAL_CUDA();
  EXPECT_THROW(ones({3}) + ones({4}), ShapeError);
  EXPECT_THROW(ones({2}).item<float>(), ValueError);
  set_cuda_emulation(0);
  EXPECT_THROW(ones({2}).cuda(), CudaUnavailableError);
  EXPECT_TRUE(log.lines().empty());
}

TEST_F(Record, PublicRecordCallForOtherLayers) {
  const auto site = std::source_location::current();
  const unsigned line = site.line();
  record_violation(Violation{"tensor-unmoved-input",
                             "Linear",
                             "input on cpu, module on cuda:0",
                             {Device(kCPU), Device("cuda:0")},
                             {kFloat}},
                   site);
  const auto recs = records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0]["check"], "tensor-unmoved-input");
  EXPECT_EQ(recs[0]["line"], line);
  EXPECT_EQ(recs[0]["devices"], json::array({"cpu", "cuda:0"}));
  EXPECT_EQ(recs[0]["dtypes"], json::array({"float32"}));
}

TEST_F(Record, EscapesPathsAndMessages) {
  record_violation(Violation{"tensor-mixed-dtype", "x", "quote \" backslash \\ newline \n tab \t", {}, {}},
                   std::source_location::current());
  const auto recs = records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0]["message"], "quote \" backslash \\ newline \n tab \t");
}

TEST_F(Record, ConcurrentAppendsStayWholeLines) {
  constexpr int kThreads = 8, kEach = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      Tensor g = ones({4}, kCUDA);
      Tensor c = ones({4});
      for (int i = 0; i < kEach; ++i) {
        Tensor r = (t % 2 ? g + c : c + g);
        (void)r;
      }
    });
  }
  for (auto& th : threads) th.join();
  const auto lines = log.lines();
  ASSERT_EQ(lines.size(), static_cast<size_t>(kThreads * kEach));
  for (const auto& l : lines) EXPECT_EQ(json::parse(l)["check"], "tensor-mixed-device");
}
