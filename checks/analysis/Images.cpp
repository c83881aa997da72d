//===--- Images.cpp - The element type of an OpenCV image variable --------===//

#include "Images.h"
#include "Exprs.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::tensor::analysis {
namespace {

using ImageCall = ApiModel::ImageCall;

// OpenCV's imread flags: any depth (IMREAD_ANYDEPTH), as stored
// (IMREAD_UNCHANGED, -1) and GDAL's loader may give other than 8 bits.
constexpr int64_t ImreadAnyDepth = 2, ImreadGdal = 8;
constexpr int64_t ImreadColor = 1; // imread's default

// A depth, or what a write says of one: Unknown ends the search, Same
// (the image written from itself) and None (an empty image) set nothing.
struct Depth {
  enum Kind { Unknown, Same, None, Known } K = Unknown;
  int64_t Value = 0;
  static Depth known(int64_t V) { return {Known, V & 7}; }
};

class DepthFinder {
public:
  DepthFinder(const FunctionDecl *Fn, const ApiModel &Api) : Fn(Fn), Api(Api) {}

  // Every write to Image agrees on a depth.
  Depth ofVariable(const VarDecl *Image);
  // What a value written to Image holds (Same: Image's own pixels).
  Depth ofExpr(const Expr *E, const VarDecl *Image);
  std::optional<int64_t> constant(const Expr *E) const {
    Expr::EvalResult R;
    if (!E || E->isValueDependent() ||
        !E->EvaluateAsInt(R, Fn->getASTContext()))
      return std::nullopt;
    return R.Val.getInt().getSExtValue();
  }
  // The matrix type a call or construction is given, when written.
  template <typename Call>
  const Expr *typeArgument(const Call *C, const FunctionDecl *Callee) const {
    const int P = Api.imageTypeParameter(Callee);
    if (P < 0 || static_cast<unsigned>(P) >= C->getNumArgs() ||
        isa<CXXDefaultArgExpr>(C->getArg(P)))
      return nullptr;
    return C->getArg(P);
  }

private:
  const FunctionDecl *Fn;
  const ApiModel &Api;
  llvm::SmallPtrSet<const VarDecl *, 4> Visiting;
};

// The variable an argument names once OpenCV's _InputArray/_OutputArray
// wrapper is taken off.
const DeclRefExpr *imageRef(const Expr *E, const ApiModel &Api) {
  E = writtenForm(E);
  if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(E);
      C && C->getNumArgs() == 1 &&
      Api.imageArgument(C->getConstructor()->getParent()) !=
          ApiModel::ImageArgument::None)
    E = writtenForm(C->getArg(0));
  return dyn_cast_or_null<DeclRefExpr>(E);
}
const VarDecl *imageVariable(const Expr *E, const ApiModel &Api) {
  const DeclRefExpr *DRE = imageRef(E, Api);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

// A parameter an image is written through: OpenCV's OutputArray and
// InputOutputArray, or a non-const reference.
bool isOutput(QualType T, const ApiModel &Api) {
  if (!T->isReferenceType())
    return false;
  QualType Pointee = T.getNonReferenceType();
  return !Pointee.isConstQualified() ||
         Api.imageArgument(Pointee->getAsCXXRecordDecl()) ==
             ApiModel::ImageArgument::Output;
}

Depth DepthFinder::ofExpr(const Expr *E, const VarDecl *Image) {
  E = writtenForm(E);
  if (!E)
    return {};
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD == Image)
      return {Depth::Same};
    return VD ? ofVariable(VD) : Depth{};
  }
  if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
    if (!Api.isHostImageClass(C->getConstructor()->getParent()))
      return {};
    if (C->getNumArgs() == 0)
      return {Depth::None};
    if (C->getConstructor()->isCopyOrMoveConstructor())
      return ofExpr(C->getArg(0), Image);
    // A header over the caller's memory (cv::Mat(rows, cols, type, data)):
    // pinned or mapped memory, perhaps, and pixels of any kind.
    if (Api.imageOverCallerMemory(C->getConstructor()))
      return {};
    // cv::Mat(rows, cols, CV_32FC3, ...): its `type` parameter.
    if (std::optional<int64_t> T =
            constant(typeArgument(C, C->getConstructor())))
      return Depth::known(*T);
    return {};
  }
  const auto *CE = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
  if (!Callee)
    return {};
  switch (Api.imageCall(Callee)) {
  case ImageCall::Read: {
    int64_t Flags = ImreadColor;
    if (CE->getNumArgs() >= 2 && !isa<CXXDefaultArgExpr>(CE->getArg(1))) {
      std::optional<int64_t> F = constant(CE->getArg(1));
      if (!F)
        return {};
      Flags = *F;
    }
    if (Flags < 0 || (Flags & (ImreadAnyDepth | ImreadGdal)))
      return {};
    return Depth::known(0); // CV_8U
  }
  case ImageCall::Header:
    // image.clone(), image(roi), image.rowRange(...): its pixels' depth.
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
      return ofExpr(MCE->getImplicitObjectArgument(), Image);
    if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE);
        OCE && OCE->getNumArgs() >= 1)
      return ofExpr(OCE->getArg(0), Image);
    return {};
  default:
    return {};
  }
}

// Every use of one image variable in a function body: reads, and writes
// with what they set.
class Uses : public RecursiveASTVisitor<Uses> {
public:
  Uses(DepthFinder &Finder, const VarDecl *Image, const ApiModel &Api)
      : Finder(Finder), Image(Image), Api(Api) {}
  llvm::SmallVector<Depth, 4> Writes;
  unsigned Named = 0;
  llvm::DenseSet<const DeclRefExpr *> Understood;
  bool Bad = false;

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    Named += DRE->getDecl() == Image;
    return true;
  }
  // image.rows, image.data: reads (an assignment to one is not).
  bool VisitMemberExpr(MemberExpr *ME) {
    if (const DeclRefExpr *D = mine(ME->getBase());
        D && isa<FieldDecl>(ME->getMemberDecl()))
      Understood.insert(D);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      if (const auto *ME =
              dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        Bad |= mine(ME->getBase()) != nullptr;
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    Bad |= UO->getOpcode() == UO_AddrOf && mine(UO->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() &&
        !VD->getType().getNonReferenceType().isConstQualified() &&
        VD->getInit() && mine(VD->getInit()))
      Bad = true;
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    for (const LambdaCapture &C : LE->captures())
      Bad |= C.capturesVariable() && C.getCaptureKind() == LCK_ByRef &&
             C.getCapturedVar() == Image;
    return true;
  }
  // cv::Mat copy(image): a read through a const reference.
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    // A wrapper is part of the call it is an argument of.
    if (Api.imageArgument(C->getConstructor()->getParent()) ==
        ApiModel::ImageArgument::None)
      arguments(C, C->getConstructor(), 0);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee) {
      Bad |=
          llvm::any_of(CE->arguments(), [&](const Expr *A) { return mine(A); });
      return true;
    }
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    const Expr *Object = nullptr;
    unsigned First = 0;
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
      Object = MCE->getImplicitObjectArgument();
    } else if (isa<CXXOperatorCallExpr>(CE) && MD && !MD->isStatic()) {
      Object = CE->getArg(0);
      First = 1;
    }
    // A method of the image itself.
    if (const DeclRefExpr *D = Object ? mine(Object) : nullptr) {
      Understood.insert(D);
      const ImageCall Kind = Api.imageCall(Callee);
      if (MD->getOverloadedOperator() == OO_Equal && CE->getNumArgs() == 2) {
        // image = other; image = cv::Scalar(0) sets pixels, not depth.
        const auto *RD = MD->getParamDecl(0)
                             ->getType()
                             .getNonReferenceType()
                             ->getAsCXXRecordDecl();
        if (RD && Api.isHostImageClass(RD))
          Writes.push_back(Finder.ofExpr(CE->getArg(1), Image));
        else if (!Api.isImageScalar(RD))
          Bad = true;
      } else if (Kind == ImageCall::Create) {
        std::optional<int64_t> T =
            Finder.constant(Finder.typeArgument(CE, Callee));
        Writes.push_back(T ? Depth::known(*T) : Depth{});
      } else if (!MD->isConst() && Kind != ImageCall::Header &&
                 Kind != ImageCall::Pixels) {
        Bad = true; // a method that may reallocate or retype
      }
    }
    arguments(CE, Callee, First, CE, Object);
    return true;
  }

private:
  const DeclRefExpr *mine(const Expr *E) const {
    const auto *DRE =
        dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : E);
    return DRE && DRE->getDecl() == Image ? DRE : nullptr;
  }
  // The image given as an argument: a read, or a write that the call's
  // kind explains.
  template <typename Call>
  void arguments(const Call *C, const FunctionDecl *Callee, unsigned First,
                 const CallExpr *AsCall = nullptr,
                 const Expr *Object = nullptr) {
    for (unsigned I = First; I < C->getNumArgs(); ++I) {
      const DeclRefExpr *DRE = imageRef(C->getArg(I), Api);
      if (!DRE || DRE->getDecl() != Image)
        continue;
      Understood.insert(DRE);
      const unsigned P = I - First;
      if (P >= Callee->getNumParams()) {
        Bad = true; // variadic
        continue;
      }
      if (!isOutput(Callee->getParamDecl(P)->getType(), Api))
        continue;
      Writes.push_back(written(AsCall, Callee, P, Object));
    }
  }
  // What a call that writes the image through parameter P sets.
  Depth written(const CallExpr *CE, const FunctionDecl *Callee, unsigned P,
                const Expr *Object) {
    if (!CE)
      return {};
    switch (Api.imageCall(Callee)) {
    case ImageCall::Grab:
      return Depth::known(0); // frames are 8-bit
    case ImageCall::Copy:
      return Object ? Finder.ofExpr(Object, Image) : Depth{};
    case ImageCall::Convert: {
      // src.convertTo(dst, rtype): rtype's depth, or src's when < 0.
      std::optional<int64_t> T =
          Finder.constant(Finder.typeArgument(CE, Callee));
      if (!T || !Object)
        return {};
      return *T < 0 ? Finder.ofExpr(Object, Image) : Depth::known(*T);
    }
    case ImageCall::Keep:
      // f(src, dst, ...): dst gets src's depth.
      if (P == 1 && CE->getNumArgs() >= 1) {
        const VarDecl *Src = imageVariable(CE->getArg(0), Api);
        if (Src == Image)
          return {Depth::Same};
        return Src ? Finder.ofVariable(Src) : Depth{};
      }
      return {};
    default:
      return {};
    }
  }
  DepthFinder &Finder;
  const VarDecl *Image;
  const ApiModel &Api;
};

Depth DepthFinder::ofVariable(const VarDecl *Image) {
  // A local of this function (not one a lambda captures: the enclosing
  // function's writes are not in this body), of class cv::Mat itself
  // (assigning a cv::Mat to a cv::Mat_<T> converts it to T).
  const auto *Owner = dyn_cast_or_null<FunctionDecl>(
      Image ? Image->getParentFunctionOrMethod() : nullptr);
  const CXXRecordDecl *RD =
      Image ? Image->getType()->getAsCXXRecordDecl() : nullptr;
  if (!Image || isa<ParmVarDecl>(Image) || !Image->hasLocalStorage() ||
      Image->getType()->isReferenceType() || !Owner ||
      Owner->getCanonicalDecl() != Fn->getCanonicalDecl() ||
      !Api.isHostImageClass(RD) || isa<ClassTemplateSpecializationDecl>(RD) ||
      Visiting.size() > 4 || !Visiting.insert(Image).second)
    return {};

  Uses U(*this, Image, Api);
  U.TraverseStmt(Fn->getBody());
  Visiting.erase(Image);
  if (U.Bad || U.Understood.size() != U.Named)
    return {};
  Depth Result{Depth::None};
  if (const Expr *Init = Image->getInit())
    Result = ofExpr(Init, Image);
  if (Result.K == Depth::Unknown)
    return {};
  for (const Depth &W : U.Writes) {
    if (W.K == Depth::Unknown)
      return {};
    if (W.K != Depth::Known)
      continue;
    if (Result.K == Depth::Known && Result.Value != W.Value)
      return {};
    Result = W;
  }
  return Result;
}

} // namespace

std::optional<DType> imageElementType(const VarDecl *Image,
                                      const FunctionDecl *Fn,
                                      const ApiModel &Api) {
  if (!Image || !Fn || !Fn->getBody())
    return std::nullopt;
  DepthFinder Finder(Fn, Api);
  Depth D = Finder.ofVariable(Image);
  if (D.K != Depth::Known)
    return std::nullopt;
  return Api.dtypeOfImageDepth(D.Value);
}

} // namespace clang::tidy::tensor::analysis
