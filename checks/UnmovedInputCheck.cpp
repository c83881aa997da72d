//===--- UnmovedInputCheck.cpp - tensor-unmoved-input ---------------------===//

#include "UnmovedInputCheck.h"
#include "analysis/Escapes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::tensor {
namespace {

// Can the expression that moved the module be written again at the call?
// A constant (torch::kCUDA), a global, a parameter of the function that
// holds the call, or a local declared at the top level of its body: those
// are in scope for the rest of it. (The module may have been moved in a
// caller, whose variables are not in scope here.)
bool usableAnywhereInFunction(const Expr *E, const Expr *Call,
                              const FunctionDecl *SiteFn, ASTContext &Ctx) {
  E = E->IgnoreImplicit();
  // Device(kCUDA): the implicit conversion from the DeviceType constant.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && !isa<CXXTemporaryObjectExpr>(CE) && CE->getNumArgs() >= 1 &&
      llvm::all_of(llvm::drop_begin(CE->arguments()),
                   [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); }))
    E = CE->getArg(0)->IgnoreImplicit();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return false;
  const ValueDecl *D = DRE->getDecl();
  if (isa<EnumConstantDecl>(D))
    return true;
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return false;
  if (VD->hasGlobalStorage() && !VD->isLocalVarDecl())
    return true;
  const auto *Fn = dyn_cast<FunctionDecl>(VD->getDeclContext());
  if (!Fn || Fn != SiteFn)
    return false;
  if (isa<ParmVarDecl>(VD))
    return true;
  const auto *Body = Fn ? dyn_cast_or_null<CompoundStmt>(Fn->getBody()) : nullptr;
  if (!Body)
    return false;
  for (const Stmt *S : Body->body())
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *Dcl : DS->decls())
        if (Dcl == VD)
          return Ctx.getSourceManager().isBeforeInTranslationUnit(
              VD->getLocation(), Call->getBeginLoc());
  return false;
}

// `.to(d)` binds tighter than any infix or prefix operator.
bool needsParens(const Expr *E) {
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E))
    return OCE->getOperator() != OO_Call && OCE->getOperator() != OO_Subscript &&
           OCE->getOperator() != OO_Arrow;
  return !isa<DeclRefExpr, MemberExpr, CallExpr, ParenExpr>(E);
}

} // namespace

bool UnmovedInputCheck::checkSite(const Site &S, ASTContext &Ctx) {
  if (S.K != Site::ModuleCall || S.Operands.empty())
    return false;
  const Operand &In = S.Operands.front();
  const Expr *Written = writtenForm(In.E);
  if (!provablyDifferent(S.Module.Device, In.Fact.Device))
    return false;
  // A TorchScript module runs arbitrary code, which may combine a 0-dim cpu
  // input (a threshold, a temperature) with tensors on its device, as ATen
  // allows; an nn layer's input is data with dimensions.
  if (Api.isScriptModule(S.ModuleClass) && In.Fact.Device.isCpu() &&
      (In.Fact.Dim == -1 || In.Fact.Dim == 0))
    return false;
  // A forward that moves its input itself expects it anywhere.
  if (analysis::forwardConvertsInput(S.ModuleClass, Api))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  const std::string Module = moduleName(S.ModuleExpr, Ctx);
  {
    auto D = diag(SM.getExpansionLoc(In.E->getBeginLoc()),
                  "input %0 is on %1 but %2 is on %3")
             << nameOf(In.E, Ctx) << In.Fact.Device.describe() << Module
             << S.Module.Device.describe();
    const Expr *Dev = S.Module.MoveDeviceArg;
    SourceRange R = Written->getSourceRange();
    // Only a tensor can take .to(device): not a vector of inputs.
    if (Dev && Api.isTensorValueType(Written->getType().getUnqualifiedType()) && !R.getBegin().isMacroID() &&
        !R.getEnd().isMacroID() &&
        !Dev->getBeginLoc().isMacroID() &&
        usableAnywhereInFunction(Dev, S.Call, S.Function, Ctx)) {
      StringRef DevText = Lexer::getSourceText(
          CharSourceRange::getTokenRange(Dev->getSourceRange()), SM,
          Ctx.getLangOpts());
      SourceLocation End =
          Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, Ctx.getLangOpts());
      if (!DevText.empty() && End.isValid()) {
        if (needsParens(Written))
          D << FixItHint::CreateInsertion(R.getBegin(), "(")
            << FixItHint::CreateInsertion(End, (").to(" + DevText + ")").str());
        else
          D << FixItHint::CreateInsertion(End, (".to(" + DevText + ")").str());
      }
    }
  }
  noteDeviceOrigin(In, Ctx);
  noteModuleDevice(S.ModuleExpr, S.Module, Ctx);
  return true;
}

} // namespace clang::tidy::tensor
