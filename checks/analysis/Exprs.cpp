//===--- Exprs.cpp - Expressions as the user wrote them -------------------===//

#include "Exprs.h"
#include "clang/AST/IgnoreExpr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::tensor::analysis {
namespace {

// A copy or move construction of one argument: the value it copies.
Expr *ignoreCopySingleStep(Expr *E) {
  if (auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && CE->getNumArgs() == 1 &&
      CE->getConstructor()->isCopyOrMoveConstructor())
    return CE->getArg(0);
  return E;
}

Expr *ignoreFunctionalCastSingleStep(Expr *E) {
  if (auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    return FC->getSubExpr();
  return E;
}

Expr *mut(const Expr *E) { return const_cast<Expr *>(E); }

} // namespace

const Expr *ignoreTransparent(const Expr *E) {
  return E ? IgnoreExprNodes(mut(E), IgnoreImplicitSingleStep,
                             IgnoreParensSingleStep)
           : nullptr;
}

const Expr *writtenForm(const Expr *E) {
  return E ? IgnoreExprNodes(mut(E), IgnoreImplicitSingleStep,
                             ignoreCopySingleStep)
           : nullptr;
}

const Expr *strip(const Expr *E) {
  return E ? IgnoreExprNodes(mut(E), IgnoreImplicitSingleStep,
                             IgnoreParensSingleStep, ignoreCopySingleStep,
                             ignoreFunctionalCastSingleStep)
           : nullptr;
}

const ValueDecl *referencedVar(const Expr *E) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(E)))
    if (isa<VarDecl>(DRE->getDecl()))
      return DRE->getDecl();
  return nullptr;
}

bool isDerefCall(const Expr *E) {
  const auto *OCE = dyn_cast_or_null<CXXOperatorCallExpr>(E);
  return OCE &&
         (OCE->getOperator() == OO_Arrow || OCE->getOperator() == OO_Star) &&
         OCE->getNumArgs() == 1;
}

const Expr *throughDeref(const Expr *E) {
  while (true) {
    E = strip(E);
    if (isDerefCall(E))
      E = cast<CXXOperatorCallExpr>(E)->getArg(0);
    else if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E);
             UO && UO->getOpcode() == UO_Deref)
      E = UO->getSubExpr();
    else
      return E;
  }
}

const ValueDecl *objectVar(const Expr *E) {
  return referencedVar(throughDeref(E));
}

bool isStd(const NamedDecl *D, llvm::StringRef Name) {
  if (!D || !D->getIdentifier() || D->getName() != Name)
    return false;
  const DeclContext *DC = D->getDeclContext();
  while (DC && !DC->isNamespace())
    DC = DC->getParent(); // a member: its class's namespace
  while (DC && DC->isInlineNamespace())
    DC = DC->getParent(); // std::__cxx11, std::__1
  return DC && DC->isStdNamespace();
}

bool isStdAnyOf(const NamedDecl *D,
                std::initializer_list<llvm::StringRef> Names) {
  return llvm::any_of(Names, [&](llvm::StringRef N) { return isStd(D, N); });
}

const ParmVarDecl *firstTensorParameter(const FunctionDecl *Fn,
                                        const ApiModel &Api) {
  for (const ParmVarDecl *P : Fn->parameters())
    if (Api.isTensorValueType(
            P->getType().getNonReferenceType().getUnqualifiedType()))
      return P;
  return nullptr;
}

const Expr *elementContainerExpr(const Expr *E) {
  E = strip(E);
  if (const auto *OCE = dyn_cast_or_null<CXXOperatorCallExpr>(E)) {
    if (OCE->getOperator() == OO_Subscript && OCE->getNumArgs() == 2)
      return OCE->getArg(0);
  } else if (const auto *MCE = dyn_cast_or_null<CXXMemberCallExpr>(E)) {
    if (isStdAnyOf(MCE->getMethodDecl(), {"at", "front", "back"}))
      return MCE->getImplicitObjectArgument();
  }
  return nullptr;
}

const ValueDecl *elementContainer(const Expr *E) {
  return referencedVar(elementContainerExpr(E));
}

namespace {
template <typename Range>
llvm::SmallVector<const Expr *, 2> withoutDefaults(Range Args) {
  llvm::SmallVector<const Expr *, 2> Out;
  for (const Expr *A : Args)
    if (!isa<CXXDefaultArgExpr>(A))
      Out.push_back(A);
  return Out;
}
} // namespace

llvm::SmallVector<const Expr *, 2> writtenArgs(const CXXConstructExpr *CE) {
  return withoutDefaults(CE->arguments());
}

llvm::SmallVector<const Expr *, 2> writtenArgs(const CallExpr *CE) {
  return withoutDefaults(CE->arguments());
}

llvm::SmallVector<const Expr *, 4> listElements(const Expr *E) {
  llvm::SmallVector<const Expr *, 4> Out;
  E = strip(E);
  if (const auto *SIL = dyn_cast_or_null<CXXStdInitializerListExpr>(E))
    E = strip(SIL->getSubExpr());
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E))
    if (auto Args = writtenArgs(CE); Args.size() == 1)
      return listElements(Args[0]);
  if (const auto *ILE = dyn_cast_or_null<InitListExpr>(E))
    for (const Expr *Init : ILE->inits())
      Out.push_back(Init);
  return Out;
}

int sizesRank(const Expr *E, const ApiModel &Api) {
  E = strip(E);
  if (const auto *SIL = dyn_cast_or_null<CXXStdInitializerListExpr>(E))
    E = strip(SIL->getSubExpr());
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E)) {
    auto Args = writtenArgs(CE);
    if (Args.empty() && CE->isListInitialization())
      return 0;
    if (Args.size() != 1)
      return -1;
    // IntArrayRef(n): c10::ArrayRef's one-element constructor.
    const CXXRecordDecl *RD = CE->getConstructor()->getParent();
    if (Api.isArrayRefClass(RD) && !CE->isListInitialization() &&
        strip(Args[0])->getType()->isIntegerType())
      return 1;
    return sizesRank(Args[0], Api);
  }
  if (const auto *ILE = dyn_cast_or_null<InitListExpr>(E))
    return ILE->getNumInits();
  return -1;
}

int nestedListRank(const Expr *E, const ApiModel &Api, QualType *Leaf) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = strip(E);
    if (!E)
      return -1;
    QualType T = E->getType().getNonReferenceType().getCanonicalType();
    if (T->isArithmeticType()) {
      if (Leaf)
        *Leaf = T.getUnqualifiedType();
      return 0;
    }
    // std::vector<float>, c10::ArrayRef<int64_t>: one dimension.
    if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            T->getAsCXXRecordDecl());
        Spec && (isStd(Spec, "vector") || Api.isArrayRefClass(Spec)) &&
        Spec->getTemplateArgs().size() >= 1 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
        Spec->getTemplateArgs()[0].getAsType()->isArithmeticType()) {
      if (Leaf)
        *Leaf = Spec->getTemplateArgs()[0].getAsType().getCanonicalType();
      return 1;
    }
    if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E)) {
      E = SIL->getSubExpr();
      continue;
    }
    if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
      if (ILE->getNumInits() == 0)
        return -1; // no value to infer a dtype from
      int Inner = nestedListRank(ILE->getInit(0), Api, Leaf);
      return Inner < 0 ? -1 : Inner + 1;
    }
    // A converting construction (TensorDataContainer from a list or a
    // value): what it was built from.
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      auto Args = writtenArgs(CE);
      if (Args.size() != 1)
        return -1;
      E = Args[0];
      continue;
    }
    return -1;
  }
  return -1;
}

namespace {
// The scalar type of the value container built at \p E (a list's is its
// first value's, as LibTorch's is), and in \p Mixed the first list inside
// whose values disagree.
std::optional<DType> containerType(const Expr *E, const ApiModel &Api,
                                   std::optional<MixedValues> &Mixed,
                                   unsigned Depth) {
  const auto *CE = dyn_cast_or_null<CXXConstructExpr>(strip(E));
  if (!CE || CE->getNumArgs() != 1 || Depth > 16)
    return std::nullopt;
  std::optional<DType> Element;
  switch (Api.valueElement(CE->getConstructor(), Element)) {
  case ApiModel::ValueElement::None:
    return std::nullopt;
  case ApiModel::ValueElement::Values:
    return Element;
  case ApiModel::ValueElement::List:
    break;
  }
  const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(strip(CE->getArg(0)));
  const auto *ILE =
      SIL ? dyn_cast<InitListExpr>(strip(SIL->getSubExpr())) : nullptr;
  if (!ILE || ILE->getNumInits() == 0)
    return std::nullopt;
  std::optional<DType> First;
  for (unsigned I = 0; I < ILE->getNumInits(); ++I) {
    std::optional<DType> T =
        containerType(ILE->getInit(I), Api, Mixed, Depth + 1);
    if (I == 0)
      First = T;
    else if (!Mixed && First && T && *T != *First)
      Mixed = MixedValues{ILE->getInit(0), *First, ILE->getInit(I), *T};
  }
  return First;
}
} // namespace

std::optional<MixedValues> mixedValues(const Expr *E, const ApiModel &Api) {
  std::optional<MixedValues> Mixed;
  containerType(E, Api, Mixed, 0);
  return Mixed;
}

const EnumConstantDecl *enumConstant(const Expr *E) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    return dyn_cast<EnumConstantDecl>(DRE->getDecl());
  return nullptr;
}

const MemberExpr *thisMemberExpr(const Expr *E) {
  const auto *ME = dyn_cast_or_null<MemberExpr>(strip(E));
  return ME && isa<CXXThisExpr>(strip(ME->getBase())) ? ME : nullptr;
}

const StringLiteral *writtenString(const Expr *E) {
  E = strip(E);
  if (const auto *SC = dyn_cast_or_null<CXXConstructExpr>(E))
    if (auto Args = writtenArgs(SC); Args.size() == 1)
      E = strip(Args[0]);
  return dyn_cast_or_null<StringLiteral>(E);
}

const Expr *constantInit(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (VD && VD->getType().isConstQualified() && VD->hasGlobalStorage() &&
      VD->getAnyInitializer())
    return VD->getAnyInitializer();
  return nullptr;
}

std::optional<llvm::SmallVector<QualType, 4>> tupleElementTypes(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  if (!isStdAnyOf(Spec, {"tuple", "pair"}))
    return std::nullopt;
  llvm::SmallVector<QualType, 4> Types;
  for (const TemplateArgument &A : Spec->getTemplateArgs().asArray()) {
    if (A.getKind() == TemplateArgument::Pack) {
      for (const TemplateArgument &P : A.pack_elements())
        Types.push_back(P.getKind() == TemplateArgument::Type ? P.getAsType()
                                                              : QualType());
      continue;
    }
    Types.push_back(A.getKind() == TemplateArgument::Type ? A.getAsType()
                                                          : QualType());
  }
  return Types;
}

std::optional<std::pair<unsigned, const Expr *>> tupleGet(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!isStd(FD, "get") || CE->getNumArgs() != 1)
    return std::nullopt;
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || Args->size() < 1 ||
      Args->get(0).getKind() != TemplateArgument::Integral ||
      !tupleElementTypes(CE->getArg(0)->getType()))
    return std::nullopt;
  return std::make_pair(
      static_cast<unsigned>(Args->get(0).getAsIntegral().getZExtValue()),
      CE->getArg(0));
}

const CallExpr *tieCall(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(strip(E));
  return CE && isStd(CE->getDirectCallee(), "tie") ? CE : nullptr;
}

llvm::SmallVector<const Expr *, 4> tupleArguments(const Expr *E) {
  E = strip(E);
  if (!E || !tupleElementTypes(E->getType()))
    return {};
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    auto Args = writtenArgs(CE);
    if (Args.size() == 1 && !isa<InitListExpr>(strip(Args[0])))
      return tupleArguments(Args[0]); // a converting copy
    return {Args.begin(), Args.end()};
  }
  if (const auto *ILE = dyn_cast<InitListExpr>(E))
    return {ILE->inits().begin(), ILE->inits().end()};
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = Call->getDirectCallee();
        isStdAnyOf(FD, {"make_tuple", "make_pair"}))
      return {Call->arg_begin(), Call->arg_end()};
  return {};
}

const Expr *keptInitialiser(const VarDecl *VD, const FunctionDecl *FD) {
  // A variable of another function (captured by a lambda, whose body is
  // analysed on its own) may be written where this body does not show.
  const auto *Owner =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getInit() ||
      VD->getType()->isReferenceType() || !FD->getBody() || !Owner ||
      Owner->getCanonicalDecl() != FD->getCanonicalDecl())
    return nullptr;
  class Writes : public RecursiveASTVisitor<Writes> {
  public:
    explicit Writes(const VarDecl *VD) : VD(VD) {}
    bool Found = false;
    bool VisitBinaryOperator(BinaryOperator *BO) {
      Found |= BO->isAssignmentOp() &&
               (names(BO->getLHS()) || element(BO->getLHS()));
      return !Found;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
      const OverloadedOperatorKind K = OCE->getOperator();
      Found |= OCE->getNumArgs() >= 1 &&
               (K == OO_Equal || (K >= OO_PlusEqual && K <= OO_PipeEqual)) &&
               (names(OCE->getArg(0)) || element(OCE->getArg(0)));
      return !Found;
    }
    // A method that may change the variable (v.erase(...)); reading an
    // element (v[i], v.at(i)) does not.
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
      const CXXMethodDecl *MD = MCE->getMethodDecl();
      Found |= MD && !MD->isConst() &&
               names(MCE->getImplicitObjectArgument()) &&
               !isStdAnyOf(MD, {"at", "front", "back", "data", "begin", "end",
                                "size", "empty"});
      return !Found;
    }
    // Bound to a non-const reference: std::swap(p, q), std::tie(p, n),
    // a `float *&` out-parameter.
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      const unsigned Offset =
          isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(Callee)
              ? 1
              : 0;
      for (unsigned I = Offset; I < CE->getNumArgs(); ++I)
        if (names(CE->getArg(I)) &&
            (!Callee || I - Offset >= Callee->getNumParams() ||
             mutableReference(Callee->getParamDecl(I - Offset)->getType())))
          Found = true;
      return !Found;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      const CXXConstructorDecl *Ctor = C->getConstructor();
      for (unsigned I = 0; I < C->getNumArgs() && I < Ctor->getNumParams(); ++I)
        Found |= names(C->getArg(I)) &&
                 mutableReference(Ctor->getParamDecl(I)->getType());
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      Found |= UO->getOpcode() == UO_AddrOf && names(UO->getSubExpr());
      return !Found;
    }
    bool VisitVarDecl(VarDecl *Other) {
      Found |= mutableReference(Other->getType()) && Other->getInit() &&
               names(Other->getInit());
      return !Found;
    }
    bool VisitLambdaExpr(LambdaExpr *LE) {
      for (const LambdaCapture &C : LE->captures())
        Found |= C.capturesVariable() && C.getCaptureKind() == LCK_ByRef &&
                 C.getCapturedVar() == VD;
      return !Found;
    }

  private:
    static bool mutableReference(QualType T) {
      return T->isReferenceType() &&
             !T.getNonReferenceType().isConstQualified();
    }
    bool names(const Expr *E) const {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return DRE && DRE->getDecl() == VD;
    }
    // v[i] or v.at(i) written to.
    bool element(const Expr *E) const {
      E = E->IgnoreParenImpCasts();
      if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E))
        return OCE->getOperator() == OO_Subscript && OCE->getNumArgs() >= 1 &&
               names(OCE->getArg(0));
      if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E))
        return names(MCE->getImplicitObjectArgument());
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
        return names(ASE->getBase());
      return false;
    }
    const VarDecl *VD;
  };
  Writes W(VD);
  W.TraverseStmt(FD->getBody());
  return W.Found ? nullptr : VD->getInit();
}

} // namespace clang::tidy::tensor::analysis
