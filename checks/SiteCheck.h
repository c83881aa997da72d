//===--- SiteCheck.h - Base of the checks that judge analysis sites -------===//
//
// tensor-mixed-device, tensor-unmoved-input and tensor-mixed-dtype are thin:
// each function body is analysed once (DeviceDtypeAnalysis, shared by the
// checks of a translation unit), and each check judges the sites the
// analysis recorded. This base
// does the matching, the caching and the wording shared by their notes.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_SITECHECK_H
#define TENSOR_TIDY_CHECKS_SITECHECK_H

#include "TensorCheck.h"
#include "analysis/DeviceDtypeAnalysis.h"
#include <memory>
#include <set>

namespace clang::tidy::tensor {

class SiteCheck : public TensorCheck {
public:
  SiteCheck(StringRef Name, ClangTidyContext *Context)
      : TensorCheck(Name, Context),
        Analysis(DeviceDtypeAnalysis::shared(Context)) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) final;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final;
  void onStartOfTranslationUnit() override;

protected:
  /// Judges one site of an analysed function; true when it reported it.
  /// A site inside a called function may be judged in the context of a
  /// call (then the base adds the notes that show the calls).
  virtual bool checkSite(const Site &S, ASTContext &Ctx) = 0;

  /// The operand as written, shortened for a message: 'batch.data'.
  std::string nameOf(const Expr *E, ASTContext &Ctx) const;
  /// The module a call goes through: 'model' for model->forward(x).
  std::string moduleName(const Expr *E, ASTContext &Ctx) const;
  /// Notes where a tensor's device (or dtype) fact comes from:
  /// "'x' is on cpu: created here".
  void noteDeviceOrigin(const Operand &O, ASTContext &Ctx);
  void noteTypeOrigin(const Operand &O, ASTContext &Ctx);
  void noteModuleDevice(const Expr *Module, const ModuleFact &M,
                        ASTContext &Ctx);
  void noteModuleType(const Expr *Module, const ModuleFact &M, ASTContext &Ctx);
  /// The TensorOptions argument written in a from_blob call, or null (the
  /// defaults: the default dtype, the cpu).
  const Expr *fromBlobOptions(const Site &S) const;
  /// Reports a RegisteredCopy site (DeviceDtypeAnalysis.h) whose copy is
  /// provably \p Copy while the registered tensor is \p Registered (a
  /// device or a dtype, described), with the fix-it that converts the
  /// tensor before registering it: `register_parameter(name, t.to(d))`.
  void reportRegisteredCopy(const Site &S, ASTContext &Ctx,
                            llvm::StringRef Copy, llvm::StringRef Registered,
                            bool Device);
  /// Whether the site being judged is in a named function followed from a
  /// call, with facts that caller bound: a fix-it there would write one
  /// caller's device into code that every caller runs. (A lambda followed
  /// where it was made is that function's own code.)
  bool inCallersContext() const { return InCallersContext; }
  /// The callee as users name it: 'operator+', 'matmul', 'forward'.
  static std::string calleeName(const Site &S);
  /// The translation unit's analysis state, for questions a check asks it
  /// beyond the sites (Modules.h).
  analysis::Session &session() { return Analysis->session(); }

private:
  // Judges the sites of a followed call's callee (and of the calls it
  // makes in turn), with the chain of calls that leads there.
  void judgeCall(const FollowedCall &Call, ASTContext &Ctx,
                 llvm::SmallVectorImpl<const FollowedCall *> &Chain);
  bool judge(const Site &S, ASTContext &Ctx);
  // Sites reported in this translation unit, by location: a site in a
  // template is one site in every instantiation, and a site in a callee is
  // reported once, whichever call shows it first.
  std::set<std::pair<unsigned, unsigned>> Reported;
  bool InCallersContext = false;
  // Shared with the translation unit's other site checks: each function
  // body is analysed once for all of them.
  std::shared_ptr<DeviceDtypeAnalysis> Analysis;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_SITECHECK_H
