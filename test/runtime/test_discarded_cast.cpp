// Run-time tensor-discarded-cast: a conversion result destroyed without
// ever being read is recorded at the conversion's call site; every way of
// using the result keeps the log empty.
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_util.h"

using namespace tt;
using nlohmann::json;

namespace {
int64_t consume(const Tensor& t) { return t.numel(); }
Tensor make_half(const Tensor& x) { return x.to(kHalf); }
}  // namespace

class DiscardedCast : public tt_test::RuntimeTest {
 protected:
  tt_test::TempFile log{"tt-discarded"};
  void SetUp() override {
    RuntimeTest::SetUp();
    set_cuda_emulation(1);
    set_validation_mode(ValidationMode::Record, log.path);
  }
  std::vector<json> records() const {
    std::vector<json> out;
    for (const auto& l : log.lines()) out.push_back(json::parse(l));
    return out;
  }
};

TEST_F(DiscardedCast, StatementConversionsAreRecordedAtTheirLine) {
  Tensor x = ones({2, 3});
  Tensor g = ones({2}, kCUDA);
  // Each conversion, then its expected record (at the line above).
  std::vector<std::pair<unsigned, std::string>> expected;
  x.to(kHalf);
  expected.emplace_back(__LINE__ - 1, "to");
  x.to(kCUDA);
  expected.emplace_back(__LINE__ - 1, "to");
  x.to(Device("cuda:0"), kBFloat16);
  expected.emplace_back(__LINE__ - 1, "to");
  x.half();
  expected.emplace_back(__LINE__ - 1, "half");
  x.bfloat16();
  expected.emplace_back(__LINE__ - 1, "bfloat16");
  x.toType(kInt32);
  expected.emplace_back(__LINE__ - 1, "toType");
  x.cuda();
  expected.emplace_back(__LINE__ - 1, "cuda");
  g.cpu();
  expected.emplace_back(__LINE__ - 1, "cpu");
  x.t().contiguous();
  expected.emplace_back(__LINE__ - 1, "contiguous");
  x.clone();
  expected.emplace_back(__LINE__ - 1, "clone");
  x.pin_memory();
  expected.emplace_back(__LINE__ - 1, "pin_memory");
  (void)x.to(kDouble);
  expected.emplace_back(__LINE__ - 1, "to");  // the runtime cannot see the cast to void
  const auto recs = records();
  ASSERT_EQ(recs.size(), expected.size());
  for (size_t i = 0; i < recs.size(); ++i) {
    EXPECT_EQ(recs[i]["check"], "tensor-discarded-cast");
    EXPECT_EQ(recs[i]["file"], __FILE__);
    EXPECT_EQ(recs[i]["line"], expected[i].first) << i;
    EXPECT_EQ(recs[i]["op"], expected[i].second) << i;
  }
  EXPECT_EQ(recs[0]["dtypes"], json::array({"float32", "float16"}));
  EXPECT_EQ(recs[0]["devices"], json::array({"cpu", "cpu"}));
  EXPECT_EQ(recs[1]["devices"], json::array({"cpu", "cuda:0"}));
  EXPECT_EQ(
      recs[0]["message"],
      "result of 'to' is discarded: the float16 cpu tensor converted from float32 cpu was destroyed without being "
      "used; tensor conversions return a new tensor and leave the source unchanged");
}

TEST_F(DiscardedCast, AssignedButNeverReadIsRecordedWhenItDies) {
  Tensor x = ones({2});
  unsigned line = 0;
  {
    line = __LINE__ + 1;
    Tensor y = x.to(kHalf);
    Tensor z = y;  // a copy is not a use
  }
  const auto recs = records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0]["line"], line);
}

TEST_F(DiscardedCast, EveryUseKeepsTheLogEmpty) {
  Tensor x = ones({2, 3});
  {
    Tensor y = x.to(kHalf);
    EXPECT_EQ(y.dtype(), kHalf);  // metadata is a read
  }
  {
    EXPECT_EQ(x.to(kHalf).sum().item<float>(), 6.f);
  }  // chained
  {
    EXPECT_EQ(consume(x.to(kDouble)), 6);
  }  // passed
  {
    EXPECT_EQ(make_half(x).dim(), 2);
  }  // returned, then used
  {
    x = x.to(kDouble);  // reassigned, then used
    EXPECT_EQ(x.dtype(), kDouble);
  }
  {
    std::vector<Tensor> v;
    v.push_back(x.half());
    EXPECT_EQ(v[0].numel(), 6);
  }
  {
    Tensor y = x.bfloat16();
    Tensor z = y;  // copy, later used
    EXPECT_NE(z.data_ptr(), nullptr);
  }
  {
    Tensor y = x.cuda();
    Tensor r = y + 1;  // operand of an op
    (void)r;
  }
  {
    std::ostringstream os;
    os << x.to(kFloat);  // printing
  }
  {
    Tensor dst = zeros({2, 3});
    dst.copy_(x.to(kHalf));  // source of a copy
  }
  {
    Tensor y = x.to(kFloat32);  // no-op conversion, used
    EXPECT_EQ(y.numel(), 6);
  }
  {
    Tensor y = x.clone();
    y.add_(1);  // mutated in place
  }
  {
    x + 1;  // a discarded op result is not a conversion
    x.sum();
  }
  EXPECT_TRUE(log.lines().empty()) << log.lines().front();
}

TEST_F(DiscardedCast, RaiseModeWritesNothing) {
  set_validation_mode(ValidationMode::Raise);
  Tensor x = ones({2});
  x.to(kHalf);
  x.cuda();
  EXPECT_TRUE(log.lines().empty());
}
