//===--- DiscardedCastCheck.cpp - tensor-discarded-cast -------------------===//

#include "DiscardedCastCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::tensor {
namespace {

enum class Use { Used, Discarded, CastToVoid };

// Nodes that carry a value up unchanged: temporaries' bookkeeping, parens,
// no-op implicit casts.
bool isTransparent(const Stmt *S) {
  return isa<ExprWithCleanups, CXXBindTemporaryExpr, MaterializeTemporaryExpr,
             ParenExpr, ConstantExpr, ImplicitCastExpr>(S);
}

const Stmt *parentOf(const Stmt *S, ASTContext &Ctx) {
  auto Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

// Is the value of E thrown away by the statement around it?
Use useOf(const Expr *E, ASTContext &Ctx) {
  const Stmt *Child = E;
  const Stmt *Parent = parentOf(Child, Ctx);
  while (Parent && isTransparent(Parent)) {
    Child = Parent;
    Parent = parentOf(Child, Ctx);
  }
  if (!Parent)
    return Use::Used;

  if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
    // The last statement of a GNU statement expression is its value.
    const Stmt *Outer = parentOf(CS, Ctx);
    if (Outer && isa<StmtExpr>(Outer) && CS->body_back() == Child)
      return Use::Used;
    return Use::Discarded;
  }
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return If->getThen() == Child || If->getElse() == Child ? Use::Discarded
                                                            : Use::Used;
  if (const auto *For = dyn_cast<ForStmt>(Parent))
    return For->getBody() == Child || For->getInit() == Child ||
                   For->getInc() == Child
               ? Use::Discarded
               : Use::Used;
  if (const auto *While = dyn_cast<WhileStmt>(Parent))
    return While->getBody() == Child ? Use::Discarded : Use::Used;
  if (const auto *Do = dyn_cast<DoStmt>(Parent))
    return Do->getBody() == Child ? Use::Discarded : Use::Used;
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Parent))
    return Range->getBody() == Child ? Use::Discarded : Use::Used;
  if (const auto *Case = dyn_cast<SwitchCase>(Parent))
    return Case->getSubStmt() == Child ? Use::Discarded : Use::Used;
  if (isa<LabelStmt, AttributedStmt>(Parent))
    return Use::Discarded;
  if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
    if (!BO->isCommaOp())
      return Use::Used;
    if (BO->getLHS()->IgnoreParens() == Child ||
        BO->getLHS()->IgnoreImplicit() == Child || BO->getLHS() == Child)
      return Use::Discarded;
    return useOf(BO, Ctx);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(Parent)) {
    if (CO->getCond() == Child)
      return Use::Used;
    return useOf(CO, Ctx);
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Parent))
    return Cast->getTypeAsWritten()->isVoidType() ? Use::CastToVoid
                                                  : Use::Used;
  return Use::Used;
}

// A receiver that `x = x.to(...)` may assign to: a non-const variable or
// data member named directly (x, this->x, obj.x).
bool isAssignableName(const Expr *Recv) {
  Recv = Recv->IgnoreParenImpCasts();
  if (!Recv->isLValue() || Recv->getType().isConstQualified())
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Recv))
    return isa<VarDecl>(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(Recv)) {
    if (ME->isArrow() && !isa<CXXThisExpr>(ME->getBase()->IgnoreImpCasts()))
      return false;
    return isa<FieldDecl>(ME->getMemberDecl()) &&
           (isa<CXXThisExpr>(ME->getBase()->IgnoreImpCasts()) ||
            isAssignableName(ME->getBase()));
  }
  return false;
}

StringRef textOf(SourceRange R, const SourceManager &SM,
                 const LangOptions &LO) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO);
}

} // namespace

DiscardedCastCheck::DiscardedCastCheck(StringRef Name,
                                       ClangTidyContext *Context)
    : TensorCheck(Name, Context),
      AllowCastToVoid(boolOption("AllowCastToVoid", true)) {}

void DiscardedCastCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  storeBool(Opts, "AllowCastToVoid", AllowCastToVoid);
  TensorCheck::storeOptions(Opts);
}

void DiscardedCastCheck::registerMatchers(MatchFinder *Finder) {
  auto Conversion =
      cxxMemberCallExpr(callee(cxxMethodDecl(Api.outOfPlaceConversion())),
                        unless(isExpansionInSystemHeader()));
  Finder->addMatcher(
      cxxMemberCallExpr(Conversion, unless(isInTemplateInstantiation()))
          .bind("call"),
      this);
  // Dependent calls only resolve to a conversion in an instantiation.
  Finder->addMatcher(
      cxxMemberCallExpr(Conversion, isInTemplateInstantiation())
          .bind("instantiated"),
      this);
}

void DiscardedCastCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  const bool Instantiated = Call == nullptr;
  if (!Call)
    Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("instantiated");
  const auto *Callee = dyn_cast_or_null<MemberExpr>(Call->getCallee());
  const Expr *Recv = Call->getImplicitObjectArgument();
  if (!Callee || !Recv)
    return;

  Use U = useOf(Call, *Result.Context);
  if (U == Use::Used || (U == Use::CastToVoid && AllowCastToVoid))
    return;

  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = Result.Context->getLangOpts();
  // Inside a macro body the user's code is the expansion site.
  SourceLocation Loc = SM.getExpansionLoc(Callee->getMemberLoc());
  if (!Reported.insert(Loc).second)
    return;

  const bool InMacro = Call->getBeginLoc().isMacroID() ||
                       Call->getEndLoc().isMacroID();
  // In a macro, the receiver may still be spelled by the user as an argument.
  SourceRange RecvRange = Recv->getSourceRange();
  if (InMacro)
    RecvRange = SourceRange(SM.getSpellingLoc(RecvRange.getBegin()),
                            SM.getSpellingLoc(RecvRange.getEnd()));
  const auto *This = dyn_cast<CXXThisExpr>(Recv->IgnoreParenImpCasts());
  StringRef RecvText = This && This->isImplicit()
                           ? StringRef("this")
                           : textOf(RecvRange, SM, LO);
  std::string Object = RecvText.empty() ? std::string("the tensor")
                                        : ("'" + RecvText + "'").str();
  if (Callee->isArrow() && !RecvText.empty())
    Object = ("'*" + RecvText + "'").str();
  std::string Method = Callee->getMemberNameInfo().getAsString();
  std::string CallText =
      RecvText.empty()
          ? "'" + Method + "(...)'"
          : "'" + RecvText.str() + (Callee->isArrow() ? "->" : ".") + Method +
                "(...)'";

  const bool CanFix = !InMacro && !Instantiated && !Callee->isArrow() &&
                      U == Use::Discarded && isAssignableName(Recv);
  {
    auto Diag = diag(Loc, "result of %0 is discarded; tensor conversions "
                          "return a new tensor and leave %1 unchanged")
                << CallText << Object;
    if (CanFix)
      Diag << FixItHint::CreateInsertion(Call->getBeginLoc(),
                                         (RecvText + " = ").str());
  }
  if (CanFix)
    return;
  const Expr *Named = Recv->IgnoreParenImpCasts();
  if (Named->getType().isConstQualified() && !Callee->isArrow())
    diag(Loc, "%0 is const; assign the result to a new variable to keep the "
              "converted tensor",
         DiagnosticIDs::Note)
        << Object;
  else
    diag(Loc, "assign the result to keep the converted tensor",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::tensor
