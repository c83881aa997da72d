// Record mode end to end: run record_demo with TT_VALIDATE=record and
// TT_EMULATE_CUDA=1 (the environment path, not the API) and compare the log
// with the `expect-record:` markers in its source, line for line.
#include <sys/wait.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <regex>

#include "test_util.h"

using nlohmann::json;

namespace {

struct Expected {
  unsigned line;
  std::string check;
};

std::vector<Expected> markers() {
  std::vector<Expected> out;
  std::ifstream in(TT_RECORD_DEMO_SRC);
  const std::regex marker(R"(// expect-record: ([a-z-]+))");
  unsigned line = 0;
  for (std::string l; std::getline(in, l);) {
    ++line;
    std::smatch m;
    if (std::regex_search(l, m, marker) && l.find("expect-record: CHECK") == std::string::npos)
      out.push_back({line, m[1]});
  }
  return out;
}

struct DemoRun {
  int status;
  std::string out;
};

DemoRun run_demo(const std::string& env) {
  const std::string cmd = env + " " + TT_RECORD_DEMO_BIN + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, ""};
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

}  // namespace

// TT_VALIDATE=record with a log that cannot be written fails at the
// program's first tensor, naming the path and the reason (it used to drop
// every record and exit 0). It is a setting, so the error names no source
// location: neither the user's first tensor, which has nothing to do with
// it, nor a runtime file of the build tree (issue 23, item 7).
TEST(RecordEndToEnd, AnUnwritableLogFailsAtStart) {
  const DemoRun r = run_demo("TT_VALIDATE=record TT_EMULATE_CUDA=1 TT_VALIDATE_LOG=/nonexistent-tt-dir/log.jsonl");
  EXPECT_EQ(r.status, 3) << r.out;  // record_demo catches tt::Error and returns 3
  EXPECT_EQ(r.out,
            "tt: TT_VALIDATE=record cannot write its validation log /nonexistent-tt-dir/log.jsonl: No such file or "
            "directory (set TT_VALIDATE_LOG to a writable file)\n");
}

// A malformed TT_* variable, read at the first tensor or at the backend's
// start: the variable and what it accepts, without a location.
TEST(RecordEndToEnd, AMalformedSettingNamesTheVariableOnly) {
  DemoRun r = run_demo("TT_VALIDATE=bogus TT_EMULATE_CUDA=1");
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_EQ(r.out, "tt: environment variable TT_VALIDATE=bogus: expected raise or record\n");
  r = run_demo("TT_EMULATE_CUDA=yes");
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_EQ(r.out, "tt: environment variable TT_EMULATE_CUDA=yes: expected 0 or 1\n");
}

TEST(RecordEndToEnd, DemoProducesExactlyTheMarkedRecords) {
  tt_test::TempFile log("tt-demo");
  const auto expected = markers();
  ASSERT_EQ(expected.size(), 6u) << "record_demo.cpp markers changed";
  const DemoRun r = run_demo("TT_VALIDATE=record TT_EMULATE_CUDA=1 TT_VALIDATE_LOG=" + log.path);
  ASSERT_EQ(r.status, 0) << r.out;
  // The program ran to the end with the operands repaired.
  EXPECT_NE(r.out.find("hidden cpu 24"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("logits cuda:0 30"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mixed Float 24"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("counts 24"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("loss 25 clean 12"), std::string::npos) << r.out;

  // Records come in execution order; the markers in source order. The
  // discarded cast inside loss() runs last.
  auto lines = log.lines();
  ASSERT_EQ(lines.size(), expected.size());
  std::vector<std::pair<unsigned, std::string>> got, want;
  for (const auto& l : lines) {
    const json j = json::parse(l);
    got.emplace_back(j["line"].get<unsigned>(), j["check"].get<std::string>());
    EXPECT_EQ(j["file"], TT_RECORD_DEMO_SRC) << l;
    EXPECT_GT(j["column"].get<int>(), 0);
  }
  for (const auto& e : expected) want.emplace_back(e.line, e.check);
  std::rotate(want.begin(), want.begin() + 1, want.end());  // loss() first in source, last in time
  EXPECT_EQ(got, want);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(json::parse(lines[0])["message"],
            "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
  EXPECT_EQ(json::parse(lines[0])["op"], "matmul");
  EXPECT_EQ(json::parse(lines[1])["devices"], json::array({"cpu", "cuda:0"}));
  EXPECT_EQ(json::parse(lines[3])["dtypes"], json::array({"float32", "float16"}));
  EXPECT_EQ(json::parse(lines[4])["message"], "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(json::parse(lines[5])["dtypes"], json::array({"float16", "float32"}));
}

TEST(RecordEndToEnd, RaiseModeStopsAtTheFirstViolation) {
  tt_test::TempFile log("tt-demo-raise");
  const DemoRun r = run_demo("TT_EMULATE_CUDA=1 TT_VALIDATE_LOG=" + log.path);
  EXPECT_EQ(r.status, 3) << r.out;
  const unsigned line = markers().at(1).line;  // markers()[0] is in loss(), reached later
  EXPECT_NE(r.out.find(std::string(TT_RECORD_DEMO_SRC) + ":" + std::to_string(line) + ":"), std::string::npos) << r.out;
  EXPECT_NE(
      r.out.find("Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"),
      std::string::npos);
  EXPECT_TRUE(log.lines().empty());
}

TEST(RecordEndToEnd, WithoutCudaTheDemoFailsWithCudaUnavailable) {
  TT_SKIP_WITH_REAL_CUDA();
  const DemoRun r = run_demo("TT_VALIDATE=record TT_EMULATE_CUDA=0 TT_VALIDATE_LOG=/dev/null");
  // TT_EMULATE_CUDA=0 turns emulation off, not a real backend: on a GPU
  // machine the demo (built with the CUDA backend) finds its GPU and runs.
  if (r.status == 0 && std::filesystem::exists("/dev/nvidia0"))
    GTEST_SKIP()
        << "the demo found a real GPU (/dev/nvidia0) with emulation off; this case needs a machine without one";
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.out.find("CUDA is not available"), std::string::npos) << r.out;
}

TEST(RecordEndToEnd, ConcurrentProcessesAppendWholeLines) {
  tt_test::TempFile log("tt-demo-many");
  const std::string env = "TT_VALIDATE=record TT_EMULATE_CUDA=1 TT_VALIDATE_LOG=" + log.path;
  const std::string cmd = "for i in 1 2 3 4 5 6; do " + env + " " + TT_RECORD_DEMO_BIN + " >/dev/null & done; wait";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const auto lines = log.lines();
  ASSERT_EQ(lines.size(), 6u * markers().size());
  for (const auto& l : lines) EXPECT_TRUE(json::accept(l)) << l;
}
