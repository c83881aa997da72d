//===--- DiscardedCastCheck.h - tensor-discarded-cast ---------------------===//
//
// Tensor conversions (`to`, `cuda`, `contiguous`, ...) are out of place: they
// return a new tensor and leave their object as it was. Calling one as a
// statement, as if it were `module->to(device)`, does nothing useful and
// leaves the tensor on the old device or in the old dtype.
//
// Modelled on bugprone-unused-return-value (what counts as discarded, the
// AllowCastToVoid option), narrowed to tensor conversions so that it needs no
// configuration and has no false positives on other code.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_DISCARDEDCASTCHECK_H
#define TENSOR_TIDY_CHECKS_DISCARDEDCASTCHECK_H

#include "TensorCheck.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace clang::tidy::tensor {

/// Flags a discarded result of an out-of-place tensor conversion.
///
/// Discarded: the call is a full statement (in any body, branch, loop, case
/// or lambda), the left operand of a comma, a branch of a discarded `?:`, or
/// (with AllowCastToVoid=false) cast to void. Emits one warning per source
/// location, also for calls in templates that resolve to tensors only in
/// their instantiations, and offers `x = x.to(...)` when `x` is a named,
/// modifiable tensor outside macros. In a function template the fix-it is
/// written once in the pattern, when `x` is a local or parameter whose
/// declared type is not a bare template parameter and every instantiation
/// of the call in the translation unit is a discarded tensor conversion.
///
/// Options: AllowCastToVoid (default true) plus the ApiModel options.
/// For the user-facing documentation see docs/checks/tensor-discarded-cast.md.
class DiscardedCastCheck : public TensorCheck {
public:
  DiscardedCastCheck(StringRef Name, ClangTidyContext *Context);
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override {
    Reported.clear();
    ValueStatements.clear();
    Deferred.clear();
    OtherCalls.clear();
  }
  void onEndOfTranslationUnit() override;

private:
  /// One warning, as emitted.
  struct Finding {
    SourceLocation Loc;
    std::string CallText, Object;
    bool ConstReceiver = false;
    bool Fix = false;
    SourceLocation FixLoc;
    std::string FixText;
  };
  void emit(const Finding &F);
  void findDiscarded(const Expr *E, bool CastToVoid,
                     const ast_matchers::MatchFinder::MatchResult &Result);
  void report(const CXXMemberCallExpr *Call, bool CastToVoid,
              const ast_matchers::MatchFinder::MatchResult &Result);

  const bool AllowCastToVoid;
  // Expansion locations already warned about: a template's call is seen once
  // in the pattern and again in every instantiation.
  llvm::DenseSet<SourceLocation> Reported;
  // Last statements of GNU statement expressions: their value is used.
  llvm::DenseSet<const Stmt *> ValueStatements;
  // Findings in function templates whose fix-it waits for every
  // instantiation, in the order found.
  llvm::MapVector<SourceLocation, Finding> Deferred;
  // Places where some instantiation calls something other than a tensor
  // conversion in statement position.
  llvm::DenseSet<SourceLocation> OtherCalls;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_DISCARDEDCASTCHECK_H
