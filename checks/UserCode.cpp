//===--- UserCode.cpp - The functions of a translation unit's own code ----===//

#include "UserCode.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::tensor {
namespace {

// Lambdas and local classes' methods inside a function body.
class NestedFunctions : public RecursiveASTVisitor<NestedFunctions> {
public:
  explicit NestedFunctions(std::vector<const FunctionDecl *> &Out) : Out(Out) {}
  bool VisitLambdaExpr(LambdaExpr *LE) {
    Out.push_back(LE->getCallOperator());
    return true;
  }
  bool VisitCXXMethodDecl(CXXMethodDecl *MD) {
    if (MD->doesThisDeclarationHaveABody() && !MD->getParent()->isLambda())
      Out.push_back(MD);
    return true;
  }

private:
  std::vector<const FunctionDecl *> &Out;
};

// Function definitions written in user code, in declaration order.
void collectFunctions(const DeclContext *DC, const SourceManager &SM,
                      bool Patterns, std::vector<const FunctionDecl *> &Out) {
  for (const Decl *D : DC->decls()) {
    SourceLocation Loc = D->getLocation();
    if (Loc.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
      continue;
    // Templates: their instantiations, which are concrete code (the
    // patterns are dependent). A site is reported once for all of them.
    if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D)) {
      if (Patterns && FTD->getTemplatedDecl()->doesThisDeclarationHaveABody())
        Out.push_back(FTD->getTemplatedDecl());
      for (const FunctionDecl *Spec : FTD->specializations())
        if (Spec->doesThisDeclarationHaveABody()) {
          Out.push_back(Spec);
          NestedFunctions(Out).TraverseStmt(Spec->getBody());
        }
      continue;
    }
    if (const auto *CTD = dyn_cast<ClassTemplateDecl>(D)) {
      if (Patterns)
        collectFunctions(CTD->getTemplatedDecl(), SM, Patterns, Out);
      for (const ClassTemplateSpecializationDecl *Spec : CTD->specializations())
        if (!Spec->isExplicitSpecialization())
          collectFunctions(Spec, SM, Patterns, Out);
      continue;
    }
    if (D->isTemplated() && !(Patterns && isa<FunctionDecl>(D)))
      continue;
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->doesThisDeclarationHaveABody()) {
        Out.push_back(FD);
        NestedFunctions(Out).TraverseStmt(FD->getBody());
      }
      continue;
    }
    if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D) ||
        (isa<CXXRecordDecl>(D) &&
         !isa<ClassTemplatePartialSpecializationDecl>(D)))
      collectFunctions(cast<DeclContext>(D), SM, Patterns, Out);
  }
}

} // namespace

std::vector<const FunctionDecl *> userFunctions(const TranslationUnitDecl *TU,
                                                const SourceManager &SM,
                                                bool Patterns) {
  std::vector<const FunctionDecl *> Out;
  collectFunctions(TU, SM, Patterns, Out);
  return Out;
}

} // namespace clang::tidy::tensor
