//===--- DiscardedCallCheck.cpp - discarded results of tensor calls ------===//

#include "DiscardedCallCheck.h"
#include "UserCode.h"
#include "analysis/Exprs.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::tensor {
namespace {

// A receiver that `x = x.to(...)` may assign to: a non-const variable or
// data member named directly (x, this->x, obj.x).
bool isAssignableName(const Expr *Recv) {
  Recv = Recv->IgnoreParenImpCasts();
  if (!Recv->isLValue() || Recv->getType().isConstQualified())
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Recv))
    return isa<VarDecl>(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(Recv)) {
    const Expr *Base = ME->getBase()->IgnoreImpCasts();
    if (!isa<FieldDecl>(ME->getMemberDecl()))
      return false;
    if (isa<CXXThisExpr>(Base))
      return true;
    return !ME->isArrow() && isAssignableName(Base);
  }
  return false;
}

// Is D inside a template instantiation? Then the code the user wrote may be
// dependent, and rewriting it could break other instantiations.
bool isInInstantiation(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DC)) {
      if (FD->isTemplateInstantiation())
        return true;
    } else if (const auto *RD = dyn_cast<CXXRecordDecl>(DC)) {
      if (RD->getTemplateSpecializationKind() != TSK_Undeclared)
        return true;
    }
  }
  return false;
}

// The function template instantiation a local or parameter belongs to.
const FunctionDecl *instantiatedOwner(const VarDecl *V) {
  const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
  return FD && FD->isTemplateInstantiation() ? FD : nullptr;
}

// The declaration of V in its function's template pattern: the parameter of
// the same index, or the local declared at the same place.
const VarDecl *patternOf(const VarDecl *V, const FunctionDecl *Inst) {
  const FunctionDecl *Pattern = Inst->getTemplateInstantiationPattern();
  if (!Pattern)
    return nullptr;
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    unsigned I = P->getFunctionScopeIndex();
    return I < Pattern->getNumParams() ? Pattern->getParamDecl(I) : nullptr;
  }
  const Stmt *Body = Pattern->getBody();
  if (!Body)
    return nullptr;
  // Locals are few; a walk of the pattern's body finds the one declared at
  // V's location.
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *PV = dyn_cast<VarDecl>(D);
            PV && PV->getLocation() == V->getLocation())
          return PV;
    if (const auto *FR = dyn_cast<CXXForRangeStmt>(S))
      if (const VarDecl *LV = FR->getLoopVariable();
          LV && LV->getLocation() == V->getLocation())
        return LV;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return nullptr;
}

// Whether `x = x.to(...)` written once in a template's pattern is right for
// every instantiation: x is a local or parameter of the function template,
// declared with a type that is not a bare template parameter (`T x` may be
// a module for another T, whose `to` moves it in place). An `auto` local
// and a tensor-typed one qualify.
bool isPatternLocal(const Expr *Recv) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Recv->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDeclOrParm())
    return false;
  const FunctionDecl *Inst = instantiatedOwner(V);
  if (!Inst)
    return false;
  const VarDecl *P = patternOf(V, Inst);
  if (!P)
    return false;
  QualType T = P->getType().getNonReferenceType();
  if (T.isConstQualified())
    return false;
  return !T->getAs<TemplateTypeParmType>() &&
         !T->getAs<SubstTemplateTypeParmType>();
}

// The variable a receiver such as `x` or `batch.data` starts from.
const VarDecl *rootVariable(const Expr *Recv) {
  Recv = Recv->IgnoreParenImpCasts();
  while (const auto *ME = dyn_cast<MemberExpr>(Recv)) {
    if (ME->isArrow())
      return nullptr;
    Recv = ME->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Recv);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

const Decl *namedDecl(const Expr *Recv) {
  Recv = Recv->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Recv))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(Recv))
    return ME->getMemberDecl();
  return nullptr;
}

} // namespace

StringRef DiscardedCallCheck::textOf(SourceRange R, const SourceManager &SM,
                                     const LangOptions &LO) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO);
}

std::string DiscardedCallCheck::callSpelling(StringRef RecvText,
                                             const MemberExpr *Callee) {
  std::string Method = Callee->getMemberNameInfo().getAsString();
  if (RecvText.empty())
    return Method + "(...)";
  return RecvText.str() + (Callee->isArrow() ? "->" : ".") + Method + "(...)";
}

DiscardedCallCheck::DiscardedCallCheck(StringRef Name,
                                       ClangTidyContext *Context)
    : TensorCheck(Name, Context),
      AllowCastToVoid(boolOption("AllowCastToVoid", true)) {}

void DiscardedCallCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  storeBool(Opts, "AllowCastToVoid", AllowCastToVoid);
  TensorCheck::storeOptions(Opts);
}

void DiscardedCallCheck::onStartOfTranslationUnit() {
  Api.startTranslationUnit();
  Reported.clear();
  Deferred.clear();
  OtherCalls.clear();
}

namespace {

// The expressions of a body in statement position, top-down: the children
// of a block, a branch, a loop's init, increment and body, a case's or a
// label's statement, and the left operand of a comma anywhere. A statement
// expression's last statement is its value, not discarded.
class StatementPositions : public RecursiveASTVisitor<StatementPositions> {
public:
  explicit StatementPositions(llvm::function_ref<void(const Expr *)> Found)
      : Found(Found) {}
  bool VisitStmtExpr(StmtExpr *SE) {
    if (const Stmt *Last = SE->getSubStmt()->body_back())
      Values.insert(Last);
    return true;
  }
  bool VisitCompoundStmt(CompoundStmt *CS) {
    for (const Stmt *S : CS->body())
      take(S);
    return true;
  }
  bool VisitIfStmt(IfStmt *S) {
    take(S->getThen());
    take(S->getElse());
    return true;
  }
  bool VisitForStmt(ForStmt *S) {
    take(S->getInit());
    take(S->getInc());
    take(S->getBody());
    return true;
  }
  bool VisitWhileStmt(WhileStmt *S) { return take(S->getBody()); }
  bool VisitDoStmt(DoStmt *S) { return take(S->getBody()); }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) { return take(S->getBody()); }
  bool VisitSwitchCase(SwitchCase *S) { return take(S->getSubStmt()); }
  bool VisitLabelStmt(LabelStmt *S) { return take(S->getSubStmt()); }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isCommaOp())
      take(BO->getLHS());
    return true;
  }

private:
  bool take(const Stmt *S) {
    if (const auto *E = dyn_cast_or_null<Expr>(S); E && !Values.contains(E))
      Found(E);
    return true;
  }
  llvm::function_ref<void(const Expr *)> Found;
  llvm::DenseSet<const Stmt *> Values;
};

} // namespace

// One match per translation unit: its user functions' bodies are walked
// top-down for expressions in statement position, whose discarded parts
// are then searched for calls (UserCode.h says why not one matcher per
// statement kind).
void DiscardedCallCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void DiscardedCallCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *TU = Result.Nodes.getNodeAs<TranslationUnitDecl>("tu");
  if (!TU)
    return;
  auto Found = [&](const Expr *E) {
    findDiscarded(E, /*CastToVoid=*/false, Result);
  };
  llvm::DenseSet<const FunctionDecl *> Walked;
  for (const FunctionDecl *Fn :
       userFunctions(TU, *Result.SourceManager, /*Patterns=*/true)) {
    if (!Walked.insert(Fn).second || !Fn->getBody())
      continue;
    StatementPositions Walker(Found);
    Walker.TraverseStmt(Fn->getBody());
    checkFunction(Fn, Result);
  }
}

// Descends through the parts of E whose value is discarded with E.
void DiscardedCallCheck::findDiscarded(const Expr *E, bool CastToVoid,
                                       const MatchFinder::MatchResult &Result) {
  E = analysis::ignoreTransparent(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isCommaOp()) {
      findDiscarded(BO->getLHS(), false, Result);
      findDiscarded(BO->getRHS(), CastToVoid, Result);
    }
    return;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    findDiscarded(CO->getTrueExpr(), CastToVoid, Result);
    findDiscarded(CO->getFalseExpr(), CastToVoid, Result);
    return;
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
    if (Cast->getTypeAsWritten()->isVoidType())
      findDiscarded(Cast->getSubExpr(), true, Result);
    return;
  }
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    if (!MD || !reports(MD)) {
      // Another instantiation of the same template code is something else
      // (a module's in-place `to`): a fix-it in the pattern would break it.
      if (const auto *Callee = dyn_cast<MemberExpr>(Call->getCallee()))
        OtherCalls.insert(
            Result.SourceManager->getExpansionLoc(Callee->getMemberLoc()));
      return;
    }
    if (!(CastToVoid && AllowCastToVoid))
      report(Call, CastToVoid, Result);
  }
}

void DiscardedCallCheck::report(const CXXMemberCallExpr *Call, bool CastToVoid,
                                const MatchFinder::MatchResult &Result) {
  const auto *Callee = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens());
  const Expr *Recv = Call->getImplicitObjectArgument();
  if (!Callee || !Recv)
    return;
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = Result.Context->getLangOpts();
  // Inside a macro body the user's code is the expansion site.
  SourceLocation Loc = SM.getExpansionLoc(Callee->getMemberLoc());
  // A place already reported needs nothing more from a later instantiation,
  // unless its fix-it still waits on every instantiation (below).
  if (Reported.contains(Loc) && !Deferred.count(Loc))
    return;

  const bool InMacro =
      Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID();
  // In a macro, the receiver may still be spelled by the user as an argument.
  SourceRange RecvRange = Recv->getSourceRange();
  if (InMacro)
    RecvRange = SourceRange(SM.getSpellingLoc(RecvRange.getBegin()),
                            SM.getSpellingLoc(RecvRange.getEnd()));
  const auto *This = dyn_cast<CXXThisExpr>(Recv->IgnoreParenImpCasts());
  StringRef RecvText = This && This->isImplicit() ? StringRef("this")
                                                  : textOf(RecvRange, SM, LO);
  std::string Method = Callee->getMemberNameInfo().getAsString();
  const std::string CallText = "'" + callSpelling(RecvText, Callee) + "'";
  const std::string Object =
      RecvText.empty()
          ? "the tensor"
          : (Callee->isArrow() ? "'*" : "'") + RecvText.str() + "'";

  const Decl *Named = namedDecl(Recv);
  const bool Fixable = !InMacro && !CastToVoid && !Callee->isArrow() &&
                       isAssignableName(Recv) && Named;
  Finding F;
  F.Call = Call;
  F.Loc = Loc;
  F.CallText = CallText;
  F.Object = Object;
  F.ConstReceiver = !Callee->isArrow() &&
                    Recv->IgnoreParenImpCasts()->getType().isConstQualified();
  F.Method = Method;
  if (Fixable)
    F.FixIt = fixFor(Call, Callee, RecvText);
  // Written in a template when the receiver, or the object it is a member
  // of, belongs to an instantiation.
  const VarDecl *Root = rootVariable(Recv);
  const bool InTemplate = Fixable && (isInInstantiation(Named) ||
                                      (Root && isInInstantiation(Root)));
  // A template's call is seen in the pattern and in every instantiation:
  // one warning. A later instantiation that could not take the pattern's
  // fix-it (a const receiver, another class's in-place twin) withdraws it.
  if (!Reported.insert(Loc).second) {
    auto It = Deferred.find(Loc);
    if (It != Deferred.end()) {
      const FixItHint &Pending = It->second.FixIt;
      if (!Fixable || !InTemplate || !isPatternLocal(Recv) ||
          F.FixIt.isNull() || F.FixIt.CodeToInsert != Pending.CodeToInsert ||
          F.FixIt.RemoveRange.getAsRange() != Pending.RemoveRange.getAsRange())
        OtherCalls.insert(Loc);
    }
    return;
  }
  if (Fixable && !InTemplate) {
    F.Fix = !F.FixIt.isNull();
    emit(F);
    return;
  }
  if (!Fixable || !isPatternLocal(Recv)) {
    emit(F);
    return;
  }
  // The call is in a function template, on a local or parameter of it: one
  // fix-it in the pattern serves every instantiation, if every one that
  // reaches this place is a call this check reports. Decided at the end of
  // the translation unit, when all instantiations have been seen.
  Deferred.try_emplace(Loc, std::move(F));
}

void DiscardedCallCheck::onEndOfTranslationUnit() {
  for (auto &[Loc, F] : Deferred) {
    F.Fix = !OtherCalls.contains(Loc) && !F.FixIt.isNull();
    emit(F);
  }
  Deferred.clear();
  OtherCalls.clear();
}

} // namespace clang::tidy::tensor
