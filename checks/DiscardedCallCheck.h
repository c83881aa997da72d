//===--- DiscardedCallCheck.h - discarded results of tensor calls --------===//
//
// What tensor-discarded-cast and tensor-discarded-result share: finding
// member calls whose value is thrown away, once per place in the source,
// and deciding when a fix-it written there holds (outside macros, on a
// named receiver, in a function template only when every instantiation
// agrees). Each check says which calls it reports and how.
//
// Modelled on bugprone-unused-return-value (what counts as discarded, the
// AllowCastToVoid option).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_DISCARDEDCALLCHECK_H
#define TENSOR_TIDY_CHECKS_DISCARDEDCALLCHECK_H

#include "TensorCheck.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace clang::tidy::tensor {

/// Base of the checks that flag a discarded result of a tensor member call.
///
/// Discarded: the call is a full statement (in any body, branch, loop, case
/// or lambda), the left operand of a comma, a branch of a discarded `?:`, or
/// (with AllowCastToVoid=false) cast to void. One warning per source
/// location, also for calls in templates that resolve to tensors only in
/// their instantiations. A fix-it is offered when the receiver is a named,
/// modifiable tensor outside macros; in a function template it is written
/// once in the pattern, when the receiver is a local or parameter whose
/// declared type is not a bare template parameter and every instantiation
/// of the call in the translation unit is one this check reports.
///
/// Options: AllowCastToVoid (default true) plus the ApiModel options.
class DiscardedCallCheck : public TensorCheck {
public:
  DiscardedCallCheck(StringRef Name, ClangTidyContext *Context);
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

protected:
  /// One warning, as emitted.
  struct Finding {
    const CXXMemberCallExpr *Call = nullptr;
    SourceLocation Loc;   ///< the member name, at its expansion
    std::string CallText; ///< `'x.add(...)'`
    std::string Object;   ///< `'x'`, or "the tensor"
    std::string Method;   ///< `add`
    bool ConstReceiver = false;
    bool Fix = false; ///< whether the fix-it below holds
    FixItHint FixIt;  ///< the check's fix-it for a named receiver
  };

  /// Whether this check reports a discarded call of \p MD.
  virtual bool reports(const CXXMethodDecl *MD) const = 0;
  /// The fix-it for \p Call on the named receiver spelled \p RecvText.
  virtual FixItHint fixFor(const CXXMemberCallExpr *Call,
                           const MemberExpr *Callee,
                           StringRef RecvText) const = 0;
  /// Emits the warning and its notes.
  virtual void emit(const Finding &F) = 0;
  /// Called once for each user function whose body the check walks
  /// (templates' patterns and instantiations included), after the walk: for
  /// a check that reports more than discarded calls.
  virtual void checkFunction(const FunctionDecl *,
                             const ast_matchers::MatchFinder::MatchResult &) {}

  /// The source text of \p R.
  static StringRef textOf(SourceRange R, const SourceManager &SM,
                          const LangOptions &LO);
  /// `x.to(...)`, `p->cuda(...)`, or `to(...)` without a receiver's text.
  static std::string callSpelling(StringRef RecvText, const MemberExpr *Callee);

private:
  void findDiscarded(const Expr *E, bool CastToVoid,
                     const ast_matchers::MatchFinder::MatchResult &Result);
  void report(const CXXMemberCallExpr *Call, bool CastToVoid,
              const ast_matchers::MatchFinder::MatchResult &Result);

  const bool AllowCastToVoid;
  // Expansion locations already warned about: a template's call is seen once
  // in the pattern and again in every instantiation.
  llvm::DenseSet<SourceLocation> Reported;
  // Findings in function templates whose fix-it waits for every
  // instantiation, in the order found.
  llvm::MapVector<SourceLocation, Finding> Deferred;
  // Places where some instantiation calls something this check does not
  // report, in statement position.
  llvm::DenseSet<SourceLocation> OtherCalls;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_DISCARDEDCALLCHECK_H
