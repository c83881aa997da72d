//===--- DiscardedCastCheck.cpp - tensor-discarded-cast -------------------===//

#include "DiscardedCastCheck.h"
#include "LostCopies.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::tensor {

FixItHint DiscardedCastCheck::fixFor(const CXXMemberCallExpr *Call,
                                     const MemberExpr *,
                                     StringRef RecvText) const {
  return FixItHint::CreateInsertion(Call->getBeginLoc(),
                                    (RecvText + " = ").str());
}

void DiscardedCastCheck::emit(const Finding &F) {
  {
    auto Diag = diag(F.Loc, "result of %0 is discarded; tensor conversions "
                            "return a new tensor and leave %1 unchanged")
                << F.CallText << F.Object;
    if (F.Fix)
      Diag << F.FixIt;
  }
  if (F.Fix)
    return;
  if (F.ConstReceiver)
    diag(F.Loc,
         "%0 is const; assign the result to a new variable to keep the "
         "converted tensor",
         DiagnosticIDs::Note)
        << F.Object;
  else
    diag(F.Loc, "assign the result to keep the converted tensor",
         DiagnosticIDs::Note);
}

void DiscardedCastCheck::onStartOfTranslationUnit() {
  DiscardedCallCheck::onStartOfTranslationUnit();
  LostReported.clear();
}

void DiscardedCastCheck::checkFunction(const FunctionDecl *Fn,
                                       const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = Result.Context->getLangOpts();
  for (const LostConversion &L : findLostConversions(Fn, Api)) {
    SourceLocation Loc = SM.getExpansionLoc(L.Assign->getOperatorLoc());
    if (Loc.isInvalid() || !LostReported.insert(Loc).second)
      continue;
    const auto *Callee =
        dyn_cast<MemberExpr>(L.Conversion->getCallee()->IgnoreParens());
    const Expr *Recv = L.Conversion->getImplicitObjectArgument();
    const std::string Call =
        Callee ? callSpelling(
                     Recv ? textOf(Recv->getSourceRange(), SM, LO) : "", Callee)
               : textOf(L.Conversion->getSourceRange(), SM, LO).str();
    if (!L.Loop) {
      diag(Loc, "result of '%0' is assigned to parameter %1, a copy that "
                "is not read again; the caller's tensor is unchanged")
          << Call << L.Copy;
      diag(Loc, "return the converted tensor, or take %0 by reference",
           DiagnosticIDs::Note)
          << L.Copy;
      continue;
    }
    const Expr *Range = L.Loop->getRangeInit();
    const std::string RangeText =
        Range ? textOf(Range->getSourceRange(), SM, LO).str() : "the range";
    // A temporary range (`m.parameters()`) loses the result either way.
    const bool Container = Range && Range->isLValue();
    auto D = diag(Loc, "result of '%0' is assigned to %1, a copy of an "
                       "element of '%2' that is not read again; "
                       "%select{the conversion is lost|'%2' keeps the "
                       "unconverted tensor}3")
             << Call << L.Copy << RangeText << Container;
    // `auto &kv` changes the element itself, where the range is a
    // container the loop can change (not a temporary, not const).
    if (Container && !Range->getType().isConstQualified() &&
        !L.Copy->getLocation().isMacroID() &&
        !L.Loop->getBeginLoc().isMacroID())
      D << FixItHint::CreateInsertion(L.Copy->getLocation(), "&");
  }
}

} // namespace clang::tidy::tensor
