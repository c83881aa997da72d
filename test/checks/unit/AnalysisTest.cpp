//===--- AnalysisTest.cpp - ATen's semantics as the analysis models them --===//
//
// Each test parses a small translation unit against the mock LibTorch
// headers of the lit tests, analyses one function, and checks what the
// analysis says it returns or what it records at the sites it finds.
//
//===----------------------------------------------------------------------===//

#include "ParseFunction.h"
#include "analysis/DeviceDtypeAnalysis.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

namespace clang::tidy::tensor {
namespace {

using namespace ast_matchers;

class AnalysisTest : public ::testing::Test {
protected:
  /// Parses `#include <torch/torch.h>` + \p Code and analyses `f`.
  const FunctionFacts &analyze(llvm::StringRef Code) {
    std::string Source = "#include <torch/torch.h>\n#include <tuple>\n";
    Source += Code;
    const FunctionDecl *Fn =
        test::parseFunction(Source,
                            {"-std=c++17", "-isystem", TT_MOCK_LIBTORCH,
                             "-resource-dir=" TT_CLANG_RESOURCE_DIR},
                            AST);
    if (!Fn)
      return Nothing;
    Analysis.reset();
    return Analysis.analyze(Fn, AST->getASTContext(), Api);
  }

  /// What `f` returns.
  TensorFact returns(llvm::StringRef Code) {
    const FunctionFacts &F = analyze(Code);
    EXPECT_TRUE(F.Complete);
    return F.Returns;
  }

  ApiModel Api;
  DeviceDtypeAnalysis Analysis;
  std::unique_ptr<ASTUnit> AST;
  FunctionFacts Nothing;
};

// The checks of one translation unit (one ClangTidyContext) share one
// analysis while any of them is alive; another context gets its own.
TEST(AnalysisSharing, OneAnalysisPerOwnerWhileHeld) {
  int ContextA = 0, ContextB = 0;
  std::shared_ptr<DeviceDtypeAnalysis> First =
      DeviceDtypeAnalysis::shared(&ContextA);
  std::shared_ptr<DeviceDtypeAnalysis> Second =
      DeviceDtypeAnalysis::shared(&ContextA);
  std::shared_ptr<DeviceDtypeAnalysis> Other =
      DeviceDtypeAnalysis::shared(&ContextB);
  EXPECT_EQ(First.get(), Second.get());
  EXPECT_NE(First.get(), Other.get());
  std::weak_ptr<DeviceDtypeAnalysis> Gone = First;
  First.reset();
  Second.reset();
  EXPECT_TRUE(Gone.expired()); // no one else keeps it alive
}

// --- Factories and conversions
// ------------------------------------------------

TEST_F(AnalysisTest, FactoriesStartOnTheCpuInTheDefaultDtype) {
  TensorFact R = returns("at::Tensor f() { return torch::zeros({2, 3}); }");
  EXPECT_TRUE(R.Device.isCpu());
  EXPECT_EQ(R.Type, DTypeFact::known(DType::Float32));
  EXPECT_EQ(R.Dim, 2);
}

TEST_F(AnalysisTest, FactoryOptionsSetDeviceAndDtype) {
  TensorFact R = returns(
      "at::Tensor f() { return torch::ones({4}, "
      "torch::TensorOptions().dtype(torch::kHalf).device(torch::kCUDA)); }");
  EXPECT_EQ(R.Device, DeviceFact::cuda());
  EXPECT_EQ(R.Type, DTypeFact::known(DType::Float16));
  EXPECT_EQ(R.Dim, 1);
}

TEST_F(AnalysisTest, ConversionsChangeOnlyWhatTheyName) {
  TensorFact R = returns("at::Tensor f() { return torch::randn({2, "
                         "2}).to(torch::kHalf).cuda(); }");
  EXPECT_EQ(R.Device, DeviceFact::cuda());
  EXPECT_EQ(R.Type, DTypeFact::known(DType::Float16));
  EXPECT_EQ(R.Dim, 2);
}

TEST_F(AnalysisTest, DeviceParametersAreSymbolic) {
  TensorFact R = returns(
      "at::Tensor f(torch::Device d) { return torch::ones({2}).to(d); }");
  EXPECT_EQ(R.Device.Kind, FactKind::Symbolic);
  EXPECT_TRUE(R.Device.SymbolMayBeCuda);
}

// --- Ops that combine tensors ------------------------------------------------

TEST_F(AnalysisTest, ArithmeticPromotesDtypes) {
  TensorFact R =
      returns("at::Tensor f() { return torch::ones({2}, torch::kHalf) + "
              "torch::ones({2}, torch::kFloat); }");
  EXPECT_EQ(R.Type, DTypeFact::known(DType::Float32));
  EXPECT_TRUE(R.Device.isCpu());
}

TEST_F(AnalysisTest, CpuScalarTakesTheOtherDevice) {
  TensorFact R = returns("at::Tensor f() { return torch::ones({}) * "
                         "torch::ones({3}, torch::kCUDA); }");
  EXPECT_EQ(R.Device, DeviceFact::cuda());
}

TEST_F(AnalysisTest, CombineSiteRecordsEachOperand) {
  const FunctionFacts &F =
      analyze("void f() { auto a = torch::ones({2}); "
              "auto b = torch::ones({2}, torch::kCUDA); auto c = a + b; }");
  ASSERT_TRUE(F.Complete);
  ASSERT_EQ(F.Sites.size(), 1u);
  const Site &S = F.Sites[0];
  EXPECT_EQ(S.K, Site::Combine);
  ASSERT_EQ(S.Operands.size(), 2u);
  EXPECT_TRUE(S.Operands[0].Fact.Device.isCpu());
  EXPECT_EQ(S.Operands[1].Fact.Device, DeviceFact::cuda());
  EXPECT_TRUE(
      provablyDifferent(S.Operands[0].Fact.Device, S.Operands[1].Fact.Device));
}

// --- Flow
// ----------------------------------------------------------------------

TEST_F(AnalysisTest, PathsThatDisagreeGiveUnknown) {
  TensorFact R = returns("at::Tensor f(bool c) { auto x = torch::ones({2}); "
                         "if (c) x = x.cuda(); return x; }");
  EXPECT_EQ(R.Device.Kind, FactKind::Unknown);
  EXPECT_EQ(R.Type, DTypeFact::known(DType::Float32));
}

TEST_F(AnalysisTest, DeviceVariableSetOnSomePathsIsSymbolic) {
  TensorFact R = returns("at::Tensor f(bool c) { torch::Device d(torch::kCPU); "
                         "if (c) d = torch::Device(torch::kCUDA); return "
                         "torch::ones({2}).to(d); }");
  EXPECT_EQ(R.Device.Kind, FactKind::Symbolic);
  EXPECT_TRUE(R.Device.SymbolMayBeCuda);
  TensorFact Cpu =
      returns("at::Tensor f(bool c) { torch::Device d(torch::kCPU); "
              "if (c) d = torch::Device(torch::kCPU); return "
              "torch::ones({2}).to(d); }");
  EXPECT_TRUE(Cpu.Device.isCpu());
}

TEST_F(AnalysisTest, EscapedVariablesAreUnknown) {
  TensorFact R =
      returns("void g(at::Tensor &);\n"
              "at::Tensor f() { auto x = torch::ones({2}); g(x); return x; }");
  EXPECT_EQ(R.Device.Kind, FactKind::Unknown);
}

// --- Vectors, tuples, options
// --------------------------------------------------

TEST_F(AnalysisTest, VectorElementsShareOneFact) {
  TensorFact R =
      returns("at::Tensor f() { std::vector<at::Tensor> v; "
              "for (int i = 0; i < 3; ++i) v.push_back(torch::ones({2})); "
              "return torch::stack(v); }");
  EXPECT_TRUE(R.Device.isCpu());
  EXPECT_EQ(R.Dim, 2);
}

TEST_F(AnalysisTest, VectorElementWrittenJoins) {
  TensorFact R =
      returns("at::Tensor f() { std::vector<at::Tensor> v{torch::ones({2})}; "
              "v[0] = v[0].cuda(); return v[0]; }");
  EXPECT_EQ(R.Device.Kind, FactKind::Unknown);
}

TEST_F(AnalysisTest, VectorPassedByReferenceIsUnknown) {
  TensorFact R =
      returns("void fill(std::vector<at::Tensor> &);\n"
              "at::Tensor f() { std::vector<at::Tensor> v{torch::ones({2})}; "
              "fill(v); return v[0]; }");
  EXPECT_EQ(R.Device.Kind, FactKind::Unknown);
}

TEST_F(AnalysisTest, TupleElementsAreTrackedOneByOne) {
  TensorFact R =
      returns("at::Tensor f() { auto t = std::make_tuple(torch::ones({2}), "
              "torch::ones({2}, torch::kCUDA)); return std::get<1>(t); }");
  EXPECT_EQ(R.Device, DeviceFact::cuda());
  TensorFact First =
      returns("at::Tensor f() { auto t = std::make_tuple(torch::ones({2}), "
              "torch::ones({2}, torch::kCUDA)); auto [a, b] = t; return a; }");
  EXPECT_TRUE(First.Device.isCpu());
}

TEST_F(AnalysisTest, TiedTupleIsUnknown) {
  TensorFact R = returns("std::tuple<at::Tensor, at::Tensor> next();\n"
                         "at::Tensor f() { at::Tensor a = torch::ones({2}), b; "
                         "std::tie(a, b) = next(); return a; }");
  EXPECT_EQ(R.Device.Kind, FactKind::Unknown);
}

TEST_F(AnalysisTest, TieUnpacksATupleItKnows) {
  TensorFact R = returns(
      "std::tuple<at::Tensor, at::Tensor> next() { return "
      "std::make_tuple(torch::ones({2}), torch::ones({2}, torch::kCUDA)); }\n"
      "at::Tensor f() { at::Tensor a, b; std::tie(a, b) = next(); return b; }");
  EXPECT_EQ(R.Device, DeviceFact::cuda());
}

TEST_F(AnalysisTest, StructOfTensorsKeepsEachField) {
  const char *Batch =
      "struct B { at::Tensor x, y; void to_cuda() { x = x.cuda(); } };\n"
      "B make() { B b; b.x = torch::ones({2}); "
      "b.y = torch::ones({2}, torch::kCUDA); return b; }\n";
  TensorFact Y = returns(std::string(Batch) +
                         "at::Tensor f() { B b = make(); return b.y; }");
  EXPECT_EQ(Y.Device, DeviceFact::cuda());
  TensorFact X = returns(std::string(Batch) +
                         "at::Tensor f() { B b = make(); return b.x; }");
  EXPECT_TRUE(X.Device.isCpu());
  // A method of the struct writes its fields: followed, from what they
  // held at the call.
  TensorFact Moved =
      returns(std::string(Batch) +
              "at::Tensor f() { B b = make(); b.to_cuda(); return b.x; }");
  EXPECT_EQ(Moved.Device, DeviceFact::cuda());
}

TEST_F(AnalysisTest, ObjectFieldsFollowItsMethods) {
  const char *Smoother =
      "void enroll(void *);\n"
      "class S { public: void reset() { s_ = torch::zeros({2}); }\n"
      "  void to_cuda() { s_ = s_.cuda(); }\n"
      "  void shared() { s_ = s_.cuda(); enroll(this); }\n"
      "  at::Tensor get() const { return s_; }\n"
      "private: at::Tensor s_; };\n";
  TensorFact Reset =
      returns(std::string(Smoother) +
              "at::Tensor f() { S s; s.reset(); return s.get(); }");
  EXPECT_TRUE(Reset.Device.isCpu());
  TensorFact Moved = returns(
      std::string(Smoother) +
      "at::Tensor f() { S s; s.reset(); s.to_cuda(); return s.get(); }");
  EXPECT_EQ(Moved.Device, DeviceFact::cuda());
  // A method that hands out `this`: what the receiver does is not seen.
  TensorFact Shared =
      returns(std::string(Smoother) +
              "at::Tensor f() { S s; s.reset(); s.shared(); return s.get(); }");
  EXPECT_EQ(Shared.Device.Kind, FactKind::Unknown);
  // Paths that disagree.
  TensorFact Either =
      returns(std::string(Smoother) +
              "at::Tensor f(bool c) { S s; s.reset(); if (c) s.to_cuda(); "
              "return s.get(); }");
  EXPECT_EQ(Either.Device.Kind, FactKind::Unknown);
}

TEST_F(AnalysisTest, OptionsVariablesKeepTheirDevice) {
  TensorFact R = returns(
      "at::Tensor f() { auto o = torch::TensorOptions().device(torch::kCUDA); "
      "return torch::zeros({2}, o); }");
  EXPECT_EQ(R.Device, DeviceFact::cuda());
  TensorFact Changed = returns(
      "at::Tensor f(torch::Device d) { auto o = torch::TensorOptions(); "
      "o = o.device(d); return torch::zeros({2}, o); }");
  EXPECT_EQ(Changed.Device.Kind, FactKind::Symbolic);
}

} // namespace
} // namespace clang::tidy::tensor
