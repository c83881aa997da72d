//===--- ParseFunction.h - One function of a parsed snippet, for tests ----===//
//
// The analysis' unit tests parse a snippet and take its function `f`; the
// parse's failures are test failures (EXPECT), never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_TEST_CHECKS_UNIT_PARSEFUNCTION_H
#define TENSOR_TIDY_TEST_CHECKS_UNIT_PARSEFUNCTION_H

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::tensor::test {

/// Parses \p Source (compiled with \p Args) into \p AST and returns the
/// definition of its one function named `f`; null, with a failed
/// expectation, when the snippet does not parse cleanly or has no single `f`.
inline const FunctionDecl *parseFunction(const std::string &Source,
                                         const std::vector<std::string> &Args,
                                         std::unique_ptr<ASTUnit> &AST) {
  using namespace ast_matchers;
  AST = tooling::buildASTFromCodeWithArgs(Source, Args, "input.cc");
  EXPECT_TRUE(AST);
  if (!AST)
    return nullptr;
  EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  auto Found = match(functionDecl(hasName("f"), isDefinition()).bind("f"),
                     AST->getASTContext());
  EXPECT_EQ(Found.size(), 1u);
  return Found.size() == 1 ? Found[0].getNodeAs<FunctionDecl>("f") : nullptr;
}

} // namespace clang::tidy::tensor::test

#endif // TENSOR_TIDY_TEST_CHECKS_UNIT_PARSEFUNCTION_H
