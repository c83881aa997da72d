//===--- UnmovedInputCheck.cpp - tensor-unmoved-input ---------------------===//

#include "UnmovedInputCheck.h"
#include "analysis/Escapes.h"
#include "analysis/Modules.h"
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
  const auto *Body =
      Fn ? dyn_cast_or_null<CompoundStmt>(Fn->getBody()) : nullptr;
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
    return OCE->getOperator() != OO_Call &&
           OCE->getOperator() != OO_Subscript && OCE->getOperator() != OO_Arrow;
  return !isa<DeclRefExpr, MemberExpr, CallExpr, ParenExpr>(E);
}

// A device, or a TensorOptions implicitly made from one (`x.to(device)`
// calls to(TensorOptions) through its converting constructor).
bool isDeviceArgument(const Expr *A, const ApiModel &Api) {
  while (A) {
    A = A->IgnoreImplicit();
    QualType T = A->getType().getNonReferenceType();
    if (const auto *RD = T->getAsCXXRecordDecl(); RD && Api.isDeviceClass(RD))
      return true;
    if (const auto *ET = T->getAs<EnumType>())
      return Api.isDeviceTypeEnum(ET->getDecl());
    const auto *CE = dyn_cast<CXXConstructExpr>(A);
    if (!CE || isa<CXXTemporaryObjectExpr>(CE) || CE->getNumArgs() != 1)
      return false;
    A = CE->getArg(0);
  }
  return false;
}

// Whether \p Target is \p S or inside it.
bool contains(const Stmt *S, const Stmt *Target) {
  if (!S)
    return false;
  if (S == Target)
    return true;
  for (const Stmt *C : S->children())
    if (contains(C, Target))
      return true;
  return false;
}

StringRef sourceText(const Expr *E, const SourceManager &SM,
                     const LangOptions &LO) {
  return Lexer::getSourceText(
      CharSourceRange::getTokenRange(E->IgnoreImplicit()->getSourceRange()), SM,
      LO);
}

// A move of the variable \p VD to the module's device that
// tensor-discarded-cast reports with its fix-it (`x = x.to(device)`): a
// statement `x.to(<the expression the module was moved with>)` on a
// non-const local or parameter, outside macros, that runs before \p Call
// whenever the call runs (a statement of a block that encloses the call,
// before it; not in a branch, a loop the call is not in, or a lambda), with
// no assignment to x between the two. Fixing it moves the input, so that
// finding owns the fix.
const CXXMemberCallExpr *discardedMoveOf(const VarDecl *VD, const Expr *Call,
                                         const FunctionDecl *Fn,
                                         const Expr *ModuleDevice,
                                         const ApiModel &Api, ASTContext &Ctx) {
  if (!Fn || !Fn->getBody() || !ModuleDevice || Fn->isTemplateInstantiation() ||
      VD->getType().getNonReferenceType().isConstQualified())
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  StringRef DeviceText = sourceText(ModuleDevice, SM, LO);
  if (DeviceText.empty())
    return nullptr;
  auto IsVD = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  };
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(A, B);
  };

  // Down the blocks that enclose the call, the last qualifying move.
  const CXXMemberCallExpr *Found = nullptr;
  const Stmt *S = Fn->getBody();
  while (S && S != Call) {
    const Stmt *Next = nullptr;
    for (const Stmt *Child : S->children()) {
      if (!Child)
        continue;
      if (contains(Child, Call)) {
        if (isa<LambdaExpr>(Child))
          return nullptr; // the call runs whenever the lambda does
        Next = Child;
        break;
      }
      if (isa<LambdaExpr>(Child))
        continue;
      if (!isa<CompoundStmt>(S))
        continue;
      const auto *E = dyn_cast<Expr>(Child);
      const auto *MC =
          E ? dyn_cast<CXXMemberCallExpr>(E->IgnoreImplicit()) : nullptr;
      if (!MC || MC->getBeginLoc().isMacroID() ||
          !Api.isOutOfPlaceConversion(MC->getMethodDecl()) ||
          !IsVD(MC->getImplicitObjectArgument()) || MC->getNumArgs() == 0 ||
          !isDeviceArgument(MC->getArg(0), Api) ||
          sourceText(MC->getArg(0), SM, LO) != DeviceText)
        continue;
      Found = MC;
    }
    S = Next;
  }
  if (!Found)
    return nullptr;

  // Any assignment to x between the move and the call undoes the fix.
  llvm::SmallVector<const Stmt *, 64> Work{Fn->getBody()};
  while (!Work.empty()) {
    const Stmt *T = Work.pop_back_val();
    if (!T)
      continue;
    const Expr *LHS = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(T);
        BO && BO->isAssignmentOp())
      LHS = BO->getLHS();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(T);
             OC && OC->isAssignmentOp())
      LHS = OC->getArg(0);
    if (LHS && IsVD(LHS) && Before(Found->getBeginLoc(), T->getBeginLoc()) &&
        Before(T->getBeginLoc(), Call->getBeginLoc()))
      return nullptr;
    for (const Stmt *C : T->children())
      Work.push_back(C);
  }
  return Found;
}

} // namespace

bool UnmovedInputCheck::checkSite(const Site &S, ASTContext &Ctx) {
  // A loss has no parameters: a tensor its options gave it meets its
  // inputs as an operand (tensor-mixed-device).
  if (S.K != Site::ModuleCall || S.Operands.empty() ||
      Api.isLossModule(S.ModuleClass))
    return false;
  const Operand &In = S.Operands.front();
  const Expr *Written = analysis::writtenForm(In.E);
  if (!provablyDifferent(S.Module.Device, In.Fact.Device))
    return false;
  // A TorchScript module runs arbitrary code, which may combine a 0-dim cpu
  // input (a threshold, a temperature) with tensors on its device, as ATen
  // allows; an nn layer's input is data with dimensions.
  if (Api.isScriptModule(S.ModuleClass) && In.Fact.mayBeCpuScalar())
    return false;
  // A forward that moves its input itself expects it anywhere.
  if (analysis::forwardConvertsInput(S.ModuleClass, Api))
    return false;
  // A user module whose device the analysis knows from how it was built
  // (not from a move the user wrote) fails on the input only where its
  // forward() hands the input to a layer with parameters: one that divides
  // it by a 0-dim parameter, or uses none, runs on any device.
  if (S.Module.DeviceOrigin.How == Origin::ModuleCreated ||
      S.Module.DeviceOrigin.How == Origin::ModuleUnregistered ||
      S.Module.DeviceOrigin.How == Origin::ModuleKept) {
    const CXXRecordDecl *Gets = S.inputLayer();
    if (Gets && !Api.isBuiltinModule(Gets) &&
        !analysis::forwardFeedsLayerOnItsDevice(session(), Gets, In.Fact.Device,
                                                Ctx, Api))
      return false;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  const std::string Module = moduleName(S.ModuleExpr, Ctx);
  // One bug, one fix-it: when the input stayed behind because its own move
  // was discarded, tensor-discarded-cast's fix moves it.
  const CXXMemberCallExpr *OwnedBy = nullptr;
  const Expr *Named = Written->IgnoreImplicit();
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(Named);
      Copy && Copy->getNumArgs() == 1)
    Named = Copy->getArg(0)->IgnoreImplicit();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Named->IgnoreParens()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->isLocalVarDeclOrParm() &&
        isCheckEnabled("tensor-discarded-cast"))
      OwnedBy = discardedMoveOf(VD, S.Call, S.Function, S.Module.MoveDeviceArg,
                                Api, Ctx);
  {
    auto D = diag(SM.getExpansionLoc(In.E->getBeginLoc()),
                  "input %0 is on %1 but %2 is on %3")
             << nameOf(In.E, Ctx) << In.Fact.Device.describe() << Module
             << S.Module.Device.describe();
    const Expr *Dev = S.Module.MoveDeviceArg;
    SourceRange R = Written->getSourceRange();
    // Only a tensor can take .to(device): not a vector of inputs.
    if (Dev && !OwnedBy && !inCallersContext() &&
        Api.isTensorValueType(Written->getType().getUnqualifiedType()) &&
        !R.getBegin().isMacroID() && !R.getEnd().isMacroID() &&
        !Dev->getBeginLoc().isMacroID() &&
        usableAnywhereInFunction(Dev, S.Call, S.Function, Ctx)) {
      StringRef DevText = sourceText(Dev, SM, Ctx.getLangOpts());
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
  if (OwnedBy)
    diag(SM.getExpansionLoc(OwnedBy->getExprLoc()),
         "the fix-it of tensor-discarded-cast here, which assigns the "
         "result of this move, also moves %0",
         DiagnosticIDs::Note)
        << nameOf(In.E, Ctx);
  noteDeviceOrigin(In, Ctx);
  noteModuleDevice(S.ModuleExpr, S.Module, Ctx);
  return true;
}

} // namespace clang::tidy::tensor
