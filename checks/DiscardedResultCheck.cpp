//===--- DiscardedResultCheck.cpp - tensor-discarded-result ---------------===//

#include "DiscardedResultCheck.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::tensor {
namespace {

// Same parameter type, up to references and cv-qualifiers.
bool sameParamType(QualType A, QualType B) {
  auto Norm = [](QualType T) {
    return T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  };
  return Norm(A) == Norm(B);
}

// The in-place twin of \p MD (`add` -> `add_`) in its class or a base: one
// whose first \p NumArgs parameters have \p MD's types and whose others have
// defaults, so the call's arguments fit it as they fit \p MD.
const CXXMethodDecl *inPlaceTwin(const CXXMethodDecl *MD, unsigned NumArgs,
                                 const ApiModel &Api) {
  const IdentifierInfo *Id = MD->getIdentifier();
  if (!Id)
    return nullptr;
  const CXXRecordDecl *RD = MD->getParent();
  IdentifierInfo &TwinId =
      RD->getASTContext().Idents.get(Api.inPlaceTwinName(Id->getName()));
  const CXXMethodDecl *Found = nullptr;
  auto Search = [&](const CXXRecordDecl *C) {
    for (const NamedDecl *ND : C->lookup(&TwinId)) {
      const auto *M = dyn_cast<CXXMethodDecl>(ND->getUnderlyingDecl());
      if (!M || M->isStatic())
        continue;
      if (M->getMinRequiredArguments() > NumArgs ||
          NumArgs > M->getNumParams() || NumArgs > MD->getNumParams())
        continue;
      bool Fits = true;
      for (unsigned I = 0; I < NumArgs && Fits; ++I)
        Fits = sameParamType(M->getParamDecl(I)->getType(),
                             MD->getParamDecl(I)->getType());
      if (Fits) {
        Found = M;
        return false;
      }
    }
    return true;
  };
  if (Search(RD) && RD->hasDefinition())
    RD->forallBases([&](const CXXRecordDecl *Base) { return Search(Base); });
  return Found;
}

} // namespace

DiscardedResultCheck::DiscardedResultCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : DiscardedCallCheck(Name, Context) {
  const auto &Opts = Context->getOptions().CheckOptions;
  if (auto It = Opts.find("tensor-discarded-cast.ConversionMethods");
      It != Opts.end()) {
    SmallVector<StringRef, 8> Names;
    StringRef(It->getValue().Value).split(Names, ';', -1, false);
    for (StringRef N : Names)
      if (!N.trim().empty())
        CastCheckConversions.push_back(N.trim().str());
  }
}

bool DiscardedResultCheck::reports(const CXXMethodDecl *MD) const {
  const IdentifierInfo *Id = MD->getIdentifier();
  return Id && !MD->isStatic() && !Api.isInPlaceName(Id->getName()) &&
         Api.isTensorClass(MD->getParent()) &&
         Api.isTensorValueType(MD->getReturnType()) &&
         !Api.isOutOfPlaceConversion(MD) &&
         !llvm::is_contained(CastCheckConversions, Id->getName());
}

FixItHint DiscardedResultCheck::fixFor(const CXXMemberCallExpr *Call,
                                       const MemberExpr *Callee,
                                       StringRef RecvText) const {
  if (const CXXMethodDecl *Twin =
          inPlaceTwin(Call->getMethodDecl(), Call->getNumArgs(), Api))
    return FixItHint::CreateReplacement(
        CharSourceRange::getTokenRange(Callee->getMemberLoc()),
        Twin->getName());
  return FixItHint::CreateInsertion(Call->getBeginLoc(),
                                    (RecvText + " = ").str());
}

void DiscardedResultCheck::emit(const Finding &F) {
  {
    auto Diag = diag(F.Loc, "result of %0 is discarded; '%1' returns a new "
                            "tensor and leaves %2 unchanged")
                << F.CallText << F.Method << F.Object;
    if (F.Fix)
      Diag << F.FixIt;
  }
  if (F.Fix)
    return;
  if (const CXXMethodDecl *Twin =
          inPlaceTwin(F.Call->getMethodDecl(), F.Call->getNumArgs(), Api))
    diag(F.Loc, "use the result, or '%0' to change the tensor in place",
         DiagnosticIDs::Note)
        << Twin->getName();
  else
    diag(F.Loc, "use the result; '%0' has no in-place version",
         DiagnosticIDs::Note)
        << F.Method;
}

} // namespace clang::tidy::tensor
