//===--- LoopsTest.cpp - The loops the first-iteration replay relies on ---===//
//
// Each test parses a function whose statements call `mark(N)`, builds its
// CFG as the solver does, and checks which marked blocks every first
// iteration of their loops runs (LoopNest::firstIterationRuns).
//
//===----------------------------------------------------------------------===//

#include "analysis/Loops.h"
#include "ParseFunction.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>
#include <map>

namespace clang::tidy::tensor::analysis {
namespace {

using namespace ast_matchers;

class LoopsTest : public ::testing::Test {
protected:
  /// Parses \p Code, builds the CFG of `f` and its loops, and maps each
  /// `mark(N)` to whether every first iteration of its loops runs it.
  std::map<int, bool> firstIterationRuns(llvm::StringRef Code) {
    std::string Source = "void mark(int);\nbool cond();\n";
    Source += Code;
    const FunctionDecl *Fn = test::parseFunction(Source, {"-std=c++17"}, AST);
    if (!Fn)
      return {};
    ASTContext &Ctx = AST->getASTContext();
    CFG::BuildOptions Opts;
    Opts.PruneTriviallyFalseEdges = true;
    G = CFG::buildCFG(Fn, Fn->getBody(), &Ctx, Opts);
    EXPECT_TRUE(G);
    if (!G)
      return {};
    PostOrderCFGView Order(G.get());
    LoopNest Loops(*G, Order);
    Empty = Loops.empty();
    std::map<int, bool> Marks;
    for (const CFGBlock *B : *G)
      for (const CFGElement &El : *B)
        if (auto S = El.getAs<CFGStmt>())
          if (const auto *Call = dyn_cast<CallExpr>(S->getStmt());
              Call && Call->getDirectCallee() &&
              Call->getDirectCallee()->getName() == "mark")
            if (const auto *N =
                    dyn_cast<IntegerLiteral>(Call->getArg(0)->IgnoreImpCasts()))
              Marks[N->getValue().getZExtValue()] = Loops.firstIterationRuns(B);
    return Marks;
  }

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<CFG> G;
  bool Empty = true;
};

TEST_F(LoopsTest, StraightBodyRunsAndCodeOutsideLoopsDoesNot) {
  auto M = firstIterationRuns(R"(
    void f(int n) {
      mark(0);
      for (int i = 0; i < n; ++i)
        mark(1);
      mark(2);
    })");
  EXPECT_FALSE(Empty);
  EXPECT_EQ(M, (std::map<int, bool>{{0, false}, {1, true}, {2, false}}));
}

TEST_F(LoopsTest, BranchesAndContinueMakeBlocksConditional) {
  auto M = firstIterationRuns(R"(
    void f(int n) {
      for (int i = 0; i < n; ++i) {
        if (i > 0)
          mark(1);
        mark(2);
        if (cond())
          continue;
        mark(3);
      }
    })");
  EXPECT_EQ(M, (std::map<int, bool>{{1, false}, {2, true}, {3, false}}));
}

// A path that leaves the loop does not count: the first iteration of a run
// that stays in the loop runs what comes after a break, return or throw.
TEST_F(LoopsTest, ExitsDoNotMakeBlocksConditional) {
  auto M = firstIterationRuns(R"(
    void f(int n) {
      while (true) {
        mark(1);
        if (cond())
          break;
        mark(2);
        if (cond())
          return;
        mark(3);
        if (cond())
          throw 1;
        mark(4);
      }
    })");
  EXPECT_EQ(M,
            (std::map<int, bool>{{1, true}, {2, true}, {3, true}, {4, true}}));
}

// An inner loop counts as one step of the outer one: its body runs in its
// own first iteration when the outer one reaches it, and what follows it
// runs in the outer one's first iteration.
TEST_F(LoopsTest, NestedLoops) {
  auto M = firstIterationRuns(R"(
    void f(int n) {
      for (int e = 0; e < n; ++e) {
        mark(1);
        for (int b = 0; b < n; ++b)
          mark(2);
        mark(3);
        if (cond())
          for (int b = 0; b < n; ++b)
            mark(4);
      }
    })");
  EXPECT_EQ(M,
            (std::map<int, bool>{{1, true}, {2, true}, {3, true}, {4, false}}));
}

TEST_F(LoopsTest, DoWhileBody) {
  auto M = firstIterationRuns(R"(
    void f(int n) {
      int i = 0;
      do {
        mark(1);
      } while (++i < n);
      mark(2);
    })");
  EXPECT_EQ(M, (std::map<int, bool>{{1, true}, {2, false}}));
}

// A cycle entered in two places has no first iteration to speak of: the
// nest is empty and no block counts.
TEST_F(LoopsTest, IrreducibleLoopGivesUp) {
  auto M = firstIterationRuns(R"(
    void f(int n) {
      if (cond())
        goto inside;
    top:
      mark(1);
    inside:
      mark(2);
      if (cond())
        goto top;
    })");
  EXPECT_TRUE(Empty);
  EXPECT_EQ(M, (std::map<int, bool>{{1, false}, {2, false}}));
}

} // namespace
} // namespace clang::tidy::tensor::analysis
