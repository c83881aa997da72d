//===--- LostCopies.cpp - conversions lost in copies ----------------------===//

#include "LostCopies.h"
#include "analysis/Exprs.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::tensor {
namespace {

// The mentions of one variable in a statement, lambdas' bodies included (a
// capture by reference mentions it there).
class Mentions : public RecursiveASTVisitor<Mentions> {
public:
  explicit Mentions(const VarDecl *V) : V(V) {}
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (DRE->getDecl() == V)
      ++Count;
    return true;
  }
  unsigned count(const Stmt *S) {
    Count = 0;
    TraverseStmt(const_cast<Stmt *>(S));
    return Count;
  }

private:
  const VarDecl *V;
  unsigned Count = 0;
};

// `V`, or a field path through it by value (`V.second`, `V.data.x`). A
// reference member (a pair of a name and a `Tensor &`) writes through to
// what it refers to, and is no copy.
bool isPathFrom(const Expr *E, const VarDecl *V) {
  E = E->IgnoreParenImpCasts();
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (ME->isArrow() || !Field || Field->getType()->isReferenceType())
      return false;
    E = ME->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE && DRE->getDecl() == V;
}

// A statement `path = path'.to(...)` whose left side is a tensor reached
// through V by value and whose right side an out-of-place conversion.
std::optional<LostConversion> conversionInto(const Stmt *S, const VarDecl *V,
                                             const ApiModel &Api) {
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return std::nullopt;
  const auto *Op =
      dyn_cast<CXXOperatorCallExpr>(analysis::ignoreTransparent(E));
  if (!Op || Op->getOperator() != OO_Equal || Op->getNumArgs() != 2)
    return std::nullopt;
  const Expr *Lhs = Op->getArg(0);
  if (!isPathFrom(Lhs, V) || !Api.isTensorValueType(Lhs->getType()))
    return std::nullopt;
  const auto *Call =
      dyn_cast<CXXMemberCallExpr>(analysis::writtenForm(Op->getArg(1)));
  if (!Call || !Call->getMethodDecl() ||
      !Api.isOutOfPlaceConversion(Call->getMethodDecl()))
    return std::nullopt;
  LostConversion L;
  L.Assign = Op;
  L.Conversion = Call;
  L.Copy = V;
  return L;
}

// The conversions into V that are the only mentions of V in Scope, each a
// statement of Scope itself (not in a branch or an inner loop, where an
// earlier mention might be read in a later iteration).
void findIn(const Stmt *Scope, const VarDecl *V, const CXXForRangeStmt *Loop,
            const ApiModel &Api, llvm::SmallVectorImpl<LostConversion> &Out) {
  if (!Scope)
    return;
  llvm::SmallVector<const Stmt *, 8> Top;
  if (const auto *CS = dyn_cast<CompoundStmt>(Scope))
    Top.append(CS->body_begin(), CS->body_end());
  else
    Top.push_back(Scope);
  Mentions M(V);
  const unsigned All = M.count(Scope);
  if (All == 0)
    return;
  llvm::SmallVector<LostConversion, 2> Found;
  unsigned Covered = 0;
  for (const Stmt *S : Top)
    if (std::optional<LostConversion> L = conversionInto(S, V, Api)) {
      L->Loop = Loop;
      Found.push_back(*L);
      Covered += M.count(S);
    }
  if (!Found.empty() && Covered == All)
    Out.append(Found.begin(), Found.end());
}

// A copy that may be assigned: a non-const object, not a reference, not a
// structured binding's hidden variable.
bool isAssignableCopy(const VarDecl *V) {
  QualType T = V->getType();
  return !isa<DecompositionDecl>(V) && !T->isReferenceType() &&
         !T.isConstQualified() && T->isRecordType();
}

class Loops : public RecursiveASTVisitor<Loops> {
public:
  Loops(const ApiModel &Api, llvm::SmallVectorImpl<LostConversion> &Out)
      : Api(Api), Out(Out) {}
  // A lambda's body is a function of its own (userFunctions lists it).
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *Loop) {
    if (const VarDecl *V = Loop->getLoopVariable(); V && isAssignableCopy(V))
      findIn(Loop->getBody(), V, Loop, Api, Out);
    return true;
  }

private:
  const ApiModel &Api;
  llvm::SmallVectorImpl<LostConversion> &Out;
};

} // namespace

llvm::SmallVector<LostConversion, 2> findLostConversions(const FunctionDecl *Fn,
                                                         const ApiModel &Api) {
  llvm::SmallVector<LostConversion, 2> Out;
  const Stmt *Body = Fn ? Fn->getBody() : nullptr;
  if (!Body || Fn->isDependentContext())
    return Out;
  if (!isa<CXXConstructorDecl>(Fn))
    for (const ParmVarDecl *P : Fn->parameters())
      if (isAssignableCopy(P))
        findIn(Body, P, nullptr, Api, Out);
  Loops(Api, Out).TraverseStmt(const_cast<Stmt *>(Body));
  return Out;
}

} // namespace clang::tidy::tensor
