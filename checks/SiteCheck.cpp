//===--- SiteCheck.cpp - Base of the checks that judge analysis sites -----===//

#include "SiteCheck.h"
#include "UserCode.h"
#include "analysis/Exprs.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SetVector.h"

using namespace clang::ast_matchers;

namespace clang::tidy::tensor {

// One match per translation unit: the functions are found by walking the
// declarations, skipping system headers wholesale. Matching every function
// declaration instead costs a matcher call per declaration of <torch/torch.h>
// (tens of thousands), several times the analysis itself.
void SiteCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void SiteCheck::onStartOfTranslationUnit() {
  Api.startTranslationUnit();
  Analysis->reset();
  Reported.clear();
}

namespace {

// Does user code call set_default_dtype? Then a factory's default float
// dtype depends on when it runs.
class DefaultDTypeChange : public RecursiveASTVisitor<DefaultDTypeChange> {
public:
  explicit DefaultDTypeChange(const ApiModel &Api) : Api(Api) {}
  bool Found = false;
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    Found |= Api.isSetDefaultDtype(FD);
    return !Found;
  }

private:
  const ApiModel &Api;
};

} // namespace

void SiteCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *TU = Result.Nodes.getNodeAs<TranslationUnitDecl>("tu");
  if (!TU)
    return;
  ASTContext &Ctx = *Result.Context;
  std::vector<const FunctionDecl *> Functions =
      userFunctions(TU, *Result.SourceManager, /*Patterns=*/false);
  llvm::SetVector<const FunctionDecl *> Unique(Functions.begin(),
                                               Functions.end());
  if (!Analysis->defaultFloatDecided()) {
    DefaultDTypeChange Change(Api);
    for (const FunctionDecl *Fn : Unique)
      if (!Change.Found && Fn->hasBody())
        Change.TraverseStmt(Fn->getBody());
    Analysis->setDefaultFloatKnown(!Change.Found);
  }
  // First what each function proves on its own, then what the calls into
  // user code prove with the callers' facts (reported there if not yet).
  std::vector<const FunctionFacts *> Analysed;
  for (const FunctionDecl *Fn : Unique) {
    if (!Fn->hasBody() || Fn->isDependentContext())
      continue;
    const FunctionFacts &Facts = Analysis->analyze(Fn, Ctx, Api);
    if (!Facts.Complete)
      continue;
    Analysed.push_back(&Facts);
    for (const Site &S : Facts.Sites)
      judge(S, Ctx);
  }
  for (const FunctionFacts *Facts : Analysed) {
    llvm::SmallVector<const FollowedCall *, 4> Chain;
    for (const FollowedCall &Call : Facts->Calls)
      judgeCall(Call, Ctx, Chain);
  }
}

bool SiteCheck::judge(const Site &S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::pair<unsigned, unsigned> Key{
      SM.getExpansionLoc(S.Call->getBeginLoc()).getRawEncoding(),
      SM.getExpansionLoc(S.Call->getExprLoc()).getRawEncoding()};
  if (Reported.count(Key) || !checkSite(S, Ctx))
    return false;
  Reported.insert(Key);
  return true;
}

void SiteCheck::judgeCall(const FollowedCall &Call, ASTContext &Ctx,
                          llvm::SmallVectorImpl<const FollowedCall *> &Chain) {
  if (!Call.Facts || !Call.Facts->Complete ||
      Chain.size() >= DeviceDtypeAnalysis::MaxCallDepth ||
      llvm::any_of(
          Chain, [&](const FollowedCall *C) { return C->Facts == Call.Facts; }))
    return;
  Chain.push_back(&Call);
  const SourceManager &SM = Ctx.getSourceManager();
  // A lambda's body is its maker's code (it is followed only where it was
  // made); a named function's is every caller's.
  const bool Shared = llvm::any_of(Chain, [](const FollowedCall *C) {
    const auto *MD = dyn_cast<CXXMethodDecl>(C->Callee);
    return !MD || !MD->getParent()->isLambda();
  });
  for (const Site &S : Call.Facts->Sites) {
    InCallersContext = Shared;
    const bool Reported = judge(S, Ctx);
    InCallersContext = false;
    if (!Reported)
      continue;
    // Innermost call first, like a backtrace.
    for (const FollowedCall *C : llvm::reverse(Chain)) {
      const auto *MD = dyn_cast<CXXMethodDecl>(C->Callee);
      diag(SM.getExpansionLoc(C->Call->getExprLoc()), "in the call to %0 here",
           DiagnosticIDs::Note)
          << (MD && MD->getParent()->isLambda()
                  ? std::string("the lambda")
                  : "'" + C->Callee->getNameAsString() + "'");
    }
  }
  for (const FollowedCall &Inner : Call.Facts->Calls)
    judgeCall(Inner, Ctx, Chain);
  Chain.pop_back();
}

std::string SiteCheck::nameOf(const Expr *E, ASTContext &Ctx) const {
  E = analysis::writtenForm(E);
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    R = CharSourceRange::getTokenRange(SM.getSpellingLoc(R.getBegin()),
                                       SM.getSpellingLoc(R.getEnd()));
  std::string Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  if (Text.empty() || Text.find('\n') != std::string::npos)
    return "the operand";
  if (Text.size() > 40)
    Text = Text.substr(0, 37) + "...";
  return "'" + Text + "'";
}

std::string SiteCheck::moduleName(const Expr *E, ASTContext &Ctx) const {
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E))
    if ((OCE->getOperator() == OO_Arrow || OCE->getOperator() == OO_Star) &&
        OCE->getNumArgs() == 1)
      return moduleName(OCE->getArg(0), Ctx);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return moduleName(UO->getSubExpr(), Ctx);
  return nameOf(E, Ctx);
}

void SiteCheck::reportRegisteredCopy(const Site &S, ASTContext &Ctx,
                                     llvm::StringRef Copy,
                                     llvm::StringRef Registered, bool Device) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  const auto *Conversion = cast<CXXMemberCallExpr>(S.Call);
  const Expr *Tensor = S.Operands[0].E;
  // `register_parameter(name, t).to(d)` -> `register_parameter(name,
  // t.to(d))`: the conversion's text moves after the tensor, which must
  // take a postfix call as written and lie outside macros.
  llvm::SmallVector<FixItHint, 2> Fix;
  SourceLocation Loc = SM.getExpansionLoc(S.Call->getExprLoc());
  const Expr *Written = analysis::strip(Tensor);
  SourceLocation RegEnd = S.Registration->getRParenLoc(),
                 CallEnd = Conversion->getEndLoc(),
                 TensorEnd = Tensor->getEndLoc();
  if (isa_and_nonnull<CallExpr, DeclRefExpr, MemberExpr, CXXTemporaryObjectExpr,
                      CXXFunctionalCastExpr, ParenExpr>(Written) &&
      !RegEnd.isMacroID() && !CallEnd.isMacroID() && !TensorEnd.isMacroID() &&
      !Conversion->getBeginLoc().isMacroID()) {
    CharSourceRange Suffix = CharSourceRange::getCharRange(
        Lexer::getLocForEndOfToken(RegEnd, 0, SM, LO),
        Lexer::getLocForEndOfToken(CallEnd, 0, SM, LO));
    llvm::StringRef Text = Lexer::getSourceText(Suffix, SM, LO);
    if (!Text.empty() && Text.trim().starts_with(".")) {
      Fix.push_back(FixItHint::CreateInsertion(
          Lexer::getLocForEndOfToken(TensorEnd, 0, SM, LO), Text.trim()));
      Fix.push_back(FixItHint::CreateRemoval(Suffix));
      // Where the removed text starts, so that clangd, which shows a
      // diagnostic at the start of the fix-it's range around it, agrees.
      Loc = Suffix.getBegin();
    }
  }
  diag(Loc,
       "%0 returns a copy of the registered %1 %select{in|on}4 %2: the "
       "member keeps the copy, while the module moves, trains and saves the "
       "%1, which is %select{|on }4%3; convert the tensor before registering "
       "it")
      << calleeName(S) << S.ArgumentName << Copy << Registered << Device << Fix;
  if (Device)
    noteDeviceOrigin(S.Operands[0], Ctx);
  else
    noteTypeOrigin(S.Operands[0], Ctx);
}

std::string SiteCheck::calleeName(const Site &S) {
  const FunctionDecl *FD = S.Callee;
  if (FD->isOverloadedOperator())
    return "'operator" +
           std::string(getOperatorSpelling(FD->getOverloadedOperator())) + "'";
  return "'" + FD->getNameAsString() + "'";
}

const Expr *SiteCheck::fromBlobOptions(const Site &S) const {
  const auto *Call = cast<CallExpr>(S.Call);
  const Expr *Named = nullptr;
  for (unsigned I = 1; I < Call->getNumArgs(); ++I) {
    const Expr *A = Call->getArg(I);
    const CXXRecordDecl *RD =
        A->getType().getNonReferenceType()->getAsCXXRecordDecl();
    if (!isa<CXXDefaultArgExpr>(A) && Api.isTensorOptionsClass(RD))
      Named = A;
  }
  return Named;
}

void SiteCheck::noteDeviceOrigin(const Operand &O, ASTContext &Ctx) {
  const Origin &Or = O.Fact.DeviceOrigin;
  if (!Or.valid())
    return;
  std::string What = nameOf(O.E, Ctx) + " is on " + O.Fact.Device.describe();
  const char *How = nullptr;
  switch (Or.How) {
  case Origin::Created:
    How = "created here";
    break;
  case Origin::Moved:
    How = "moved here";
    break;
  case Origin::Batch:
    How = "batches come from the data loader on the cpu";
    break;
  case Origin::Result:
    How = "computed here";
    break;
  case Origin::ModuleMoved:
  case Origin::ModuleCreated:
  case Origin::ModuleLoaded:
  case Origin::ModuleKept:
    How = "output of a module placed here";
    break;
  case Origin::ModuleUnregistered:
    How = "output of a module built here and never registered";
    break;
  default:
    return;
  }
  diag(Ctx.getSourceManager().getExpansionLoc(Or.Loc), "%0: %1",
       DiagnosticIDs::Note)
      << What << How;
}

void SiteCheck::noteTypeOrigin(const Operand &O, ASTContext &Ctx) {
  const Origin &Or = O.Fact.TypeOrigin;
  if (!Or.valid())
    return;
  const char *How = Or.How == Origin::Converted ? "converted here"
                    : Or.How == Origin::Created ? "created here"
                    : Or.How == Origin::ModuleMoved
                        ? "output of a module cast here"
                        : "computed here";
  diag(Ctx.getSourceManager().getExpansionLoc(Or.Loc), "%0 is %1: %2",
       DiagnosticIDs::Note)
      << nameOf(O.E, Ctx) << O.Fact.Type.describe() << How;
}

void SiteCheck::noteModuleDevice(const Expr *Module, const ModuleFact &M,
                                 ASTContext &Ctx) {
  if (!M.DeviceOrigin.valid())
    return;
  SourceLocation Loc =
      Ctx.getSourceManager().getExpansionLoc(M.DeviceOrigin.Loc);
  if (M.DeviceOrigin.How == Origin::ModuleMoved)
    diag(Loc, "%0 was moved to %1 here", DiagnosticIDs::Note)
        << moduleName(Module, Ctx) << M.Device.describe();
  else if (M.DeviceOrigin.How == Origin::ModuleLoaded)
    diag(Loc, "%0 was loaded onto %1 here", DiagnosticIDs::Note)
        << moduleName(Module, Ctx) << M.Device.describe();
  else if (M.DeviceOrigin.How == Origin::ModuleUnregistered)
    diag(Loc,
         "%0 is built here on %1 and never registered with register_module: "
         "moving its module does not move it",
         DiagnosticIDs::Note)
        << moduleName(Module, Ctx) << M.Device.describe();
  else if (M.DeviceOrigin.How == Origin::ModuleKept)
    diag(Loc, "%0 is built here on %1, and no code of its class moves it",
         DiagnosticIDs::Note)
        << moduleName(Module, Ctx) << M.Device.describe();
  else
    diag(Loc, "%0 is on %1: created here", DiagnosticIDs::Note)
        << moduleName(Module, Ctx) << M.Device.describe();
}

void SiteCheck::noteModuleType(const Expr *Module, const ModuleFact &M,
                               ASTContext &Ctx) {
  if (!M.TypeOrigin.valid())
    return;
  SourceLocation Loc = Ctx.getSourceManager().getExpansionLoc(M.TypeOrigin.Loc);
  if (M.TypeOrigin.How == Origin::ModuleMoved)
    diag(Loc, "%0 was cast to %1 here", DiagnosticIDs::Note)
        << moduleName(Module, Ctx) << M.Type.describe();
  else if (M.TypeOrigin.How == Origin::ModuleUnregistered)
    diag(Loc,
         "%0 is built here with %1 parameters and never registered with "
         "register_module: casting its module does not cast it",
         DiagnosticIDs::Note)
        << moduleName(Module, Ctx) << M.Type.describe();
  else if (M.TypeOrigin.How == Origin::ModuleKept)
    diag(Loc,
         "%0 is built here with %1 parameters, and no code of its class "
         "casts it",
         DiagnosticIDs::Note)
        << moduleName(Module, Ctx) << M.Type.describe();
  else
    diag(Loc, "%0 has %1 parameters: created here", DiagnosticIDs::Note)
        << moduleName(Module, Ctx) << M.Type.describe();
}

} // namespace clang::tidy::tensor
