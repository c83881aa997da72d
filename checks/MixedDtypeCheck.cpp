//===--- MixedDtypeCheck.cpp - tensor-mixed-dtype -------------------------===//

#include "MixedDtypeCheck.h"
#include "analysis/Escapes.h"
#include "analysis/Exprs.h"
#include "analysis/Modules.h"
#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include <optional>

namespace clang::tidy::tensor {
namespace {

// An element type that holds its values elsewhere, behind a pointer: a
// standard container, string or smart pointer, or a tensor. A buffer of
// them (`std::vector<std::vector<int>>::data()`) holds pointers and sizes,
// never the numbers, whatever dtype reads it. Classes that hold their
// values inline (a struct of floats, Eigen's fixed-size vectors) are not
// judged.
bool holdsValuesElsewhere(QualType T, const ApiModel &Api) {
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (Api.isTensorValueType(T.getUnqualifiedType()))
    return true;
  return analysis::isStdAnyOf(
      RD, {"vector", "basic_string", "deque", "list", "forward_list", "map",
           "multimap", "set", "multiset", "unordered_map", "unordered_multimap",
           "unordered_set", "unordered_multiset", "shared_ptr", "unique_ptr",
           "function"});
}
bool floatingAndDifferent(const DTypeFact &A, const DTypeFact &B) {
  return A.isKnown() && B.isKnown() && isFloating(A.Type) &&
         isFloating(B.Type) && A.Type != B.Type;
}

// An integer tensor where a floating one of the other operand's dtype is
// required: ATen's matrix products and layers do not convert integers
// ("expected scalar type Float but found Long").
bool integralAgainstFloating(const DTypeFact &Int, const DTypeFact &Float) {
  return Int.isKnown() && Float.isKnown() && isIntegral(Int.Type) &&
         isFloating(Float.Type);
}

// A known dtype that ATen refuses as indices: anything but int64, or int32
// where the op takes it too (embedding, index_select).
bool indexDTypeRefused(const DTypeFact &T, bool Int32Too) {
  return T.isKnown() && T.Type != DType::Int64 &&
         !(Int32Too && T.Type == DType::Int32);
}

// The fix for a float32 list with a float64 value that a double literal
// makes (`one / 2.` among floats, `0.5`): the literal written as a float.
// Nothing when the value is anything else, or the literal is in a macro.
std::optional<FixItHint> floatLiteralFix(const Expr *Value, ASTContext &Ctx) {
  // Through the value container's converting construction.
  const Expr *E = Value->IgnoreParenImpCasts();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && CE->getNumArgs() == 1)
    E = CE->getArg(0)->IgnoreParenImpCasts();
  const FloatingLiteral *Lit = dyn_cast<FloatingLiteral>(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->isMultiplicativeOp() || BO->isAdditiveOp())) {
    const Expr *L = BO->getLHS()->IgnoreParenImpCasts(),
               *R = BO->getRHS()->IgnoreParenImpCasts();
    if (isa<FloatingLiteral>(R))
      std::swap(L, R);
    // The other operand must be float32 before the literal promotes it.
    if (isa<FloatingLiteral>(L) &&
        R->getType()->isSpecificBuiltinType(BuiltinType::Float))
      Lit = cast<FloatingLiteral>(L);
  }
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Lit || !Lit->getType()->isSpecificBuiltinType(BuiltinType::Double) ||
      Lit->getLocation().isMacroID())
    return std::nullopt;
  SourceLocation End =
      Lexer::getLocForEndOfToken(Lit->getEndLoc(), 0, SM, Ctx.getLangOpts());
  if (End.isInvalid())
    return std::nullopt;
  return FixItHint::CreateInsertion(End, "f");
}

// Two known dtypes a matrix product refuses: different floating dtypes, or
// an integer and a floating one. (Two different integer dtypes also throw;
// they are rare enough to leave for now, and bool is not judged.)
bool productRefuses(const DTypeFact &A, const DTypeFact &B) {
  return floatingAndDifferent(A, B) || integralAgainstFloating(A, B) ||
         integralAgainstFloating(B, A);
}
} // namespace

bool MixedDtypeCheck::checkSite(const Site &S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (S.K == Site::RegisteredCopy) {
    // `member = register_parameter(name, t).to(kFloat64)`: the member is a
    // copy in another dtype. A copy on another device as well is
    // tensor-mixed-device's: one warning and one fix-it for the site.
    const TensorFact &Registered = S.Operands[0].Fact,
                     &Copy = S.Operands[1].Fact;
    if (!Registered.Type.isKnown() || !Copy.Type.isKnown() ||
        Registered.Type.Type == Copy.Type.Type ||
        provablyDifferent(Registered.Device, Copy.Device))
      return false;
    reportRegisteredCopy(S, Ctx, Copy.Type.describe(),
                         Registered.Type.describe(), /*Device=*/false);
    return true;
  }
  if (S.K == Site::FloatingInput) {
    // mean, std and var take their result's dtype from a floating input:
    // ATen throws for an integer or bool one without dtype= ("mean(): could
    // not infer output dtype. Input dtype must be either a floating point
    // or complex dtype. Got: Bool").
    const Operand &In = S.Operands[0];
    const DTypeFact &T = In.Fact.Type;
    if (!T.isKnown() || isFloating(T.Type))
      return false;
    diag(SM.getExpansionLoc(S.Call->getExprLoc()),
         "%0 needs a floating input to infer its result's dtype, but %1 is "
         "%2: convert it first or pass a dtype")
        << calleeName(S) << nameOf(In.E, Ctx) << T.describe();
    noteTypeOrigin(In, Ctx);
    return true;
  }
  if (S.K == Site::InPlaceCast) {
    // An in-place op computes in the promoted dtype and casts the result to
    // its object's, which ATen refuses from floating to integer and into
    // bool ("result type Float can't be cast to the desired output type
    // Byte", c10::canCast).
    const Operand &Self = S.Operands[0], &Result = S.Operands[1];
    const DTypeFact &To = Self.Fact.Type, &From = Result.Fact.Type;
    if (!To.isKnown() || !From.isKnown() || canCast(From.Type, To.Type))
      return false;
    diag(SM.getExpansionLoc(S.Call->getExprLoc()),
         "%0 computes in %1 but writes its result back into %2, which is "
         "%3: ATen cannot cast it there and throws")
        << calleeName(S) << From.describe() << nameOf(Self.E, Ctx)
        << To.describe();
    noteTypeOrigin(Self, Ctx);
    return true;
  }
  if (S.K == Site::MixedValues) {
    // LibTorch's value container takes each value's scalar type from its
    // C++ type and throws when the values of one list disagree
    // (torch/csrc/api/include/torch/detail/TensorDataContainer.h).
    const Operand &First = S.Operands[0], &Other = S.Operands[1];
    auto D = diag(SM.getExpansionLoc(Other.E->getBeginLoc()),
                  "%0 is %1 but the first value of its list, %2, is %3: %4 "
                  "takes values of one scalar type and throws")
             << nameOf(Other.E, Ctx) << Other.Fact.Type.describe()
             << nameOf(First.E, Ctx) << First.Fact.Type.describe()
             << S.Callee->getQualifiedNameAsString();
    if (First.Fact.Type.Type == DType::Float32 &&
        Other.Fact.Type.Type == DType::Float64)
      if (std::optional<FixItHint> Fix = floatLiteralFix(Other.E, Ctx))
        D << *Fix;
    return true;
  }
  if (S.K == Site::ClassIndices) {
    // ATen reads the target as int64 (or uint8) class indices: a floating
    // or narrower integer target throws "expected scalar type Long".
    const Operand &Target = S.Operands[0], &In = S.Operands[1];
    const DTypeFact &T = Target.Fact.Type;
    if (!T.isKnown() || T.Type == DType::Int64 || T.Type == DType::UInt8 ||
        T.Type == DType::Bool)
      return false;
    // cross_entropy reads a target of the input's rank as probabilities;
    // only another rank proves the indices path.
    if (S.ProbabilitiesWhenSameShape &&
        (Target.Fact.Dim < 0 || In.Fact.Dim < 0 ||
         Target.Fact.Dim == In.Fact.Dim))
      return false;
    const std::string Callee =
        S.ModuleExpr ? moduleName(S.ModuleExpr, Ctx) : calleeName(S);
    diag(SM.getExpansionLoc(Target.E->getBeginLoc()),
         "%0 takes int64 class indices as its target, but %1 is %2")
        << Callee << nameOf(Target.E, Ctx) << T.describe();
    noteTypeOrigin(Target, Ctx);
    return true;
  }
  if (S.K == Site::Indices) {
    // ATen checks an index's dtype before it reads it: "gather(): Expected
    // dtype int64 for index", "Expected tensor for argument #1 'indices' to
    // have one of the following scalar types: Long, Int".
    const Operand &Index = S.Operands.front();
    const DTypeFact &T = Index.Fact.Type;
    if (!indexDTypeRefused(T, S.Int32Indices))
      return false;
    diag(SM.getExpansionLoc(Index.E->getBeginLoc()),
         "%0 takes %select{int64|int64 or int32}1 indices, but %2 is %3")
        << calleeName(S) << S.Int32Indices << nameOf(Index.E, Ctx)
        << T.describe();
    noteTypeOrigin(Index, Ctx);
    return true;
  }
  if (S.K == Site::TypedAccess) {
    // TensorBase::data_ptr<T>() and accessor<T, N>() throw "expected
    // scalar type Float but found Byte" when T is not the dtype's type.
    const Operand &T = S.Operands.front();
    std::optional<DType> Asked =
        Api.dtypeOfAccessedElement(S.BufferElement, Ctx);
    if (!Asked || !T.Fact.Type.isKnown() || T.Fact.Type.Type == *Asked)
      return false;
    diag(SM.getExpansionLoc(S.Call->getExprLoc()),
         "'%0' reads %1 as %2, but it is %3: ATen checks the element type "
         "and throws")
        << cast<CXXMemberCallExpr>(S.Call)->getMethodDecl()->getName()
        << nameOf(T.E, Ctx) << DTypeFact::known(*Asked).describe()
        << T.Fact.Type.describe();
    noteTypeOrigin(T, Ctx);
    return true;
  }
  if (S.K == Site::FromBlob) {
    // The tensor reads the buffer's bytes as its dtype: a buffer of double
    // read as float32 gives garbage values, not an error.
    const Operand &Buffer = S.Operands.front();
    if (Buffer.Fact.Type.isKnown() &&
        holdsValuesElsewhere(S.BufferElement, Api)) {
      diag(SM.getExpansionLoc(Buffer.E->getBeginLoc()),
           "from_blob reads %0, a buffer of %1 objects, as %2; their bytes "
           "are pointers and sizes, not the values they hold")
          << nameOf(Buffer.E, Ctx) << S.BufferElement.getUnqualifiedType()
          << Buffer.Fact.Type.describe();
      return true;
    }
    std::optional<DType> Held = Api.dtypeOfElementType(S.BufferElement, Ctx);
    // An OpenCV image's `data` is bytes whatever its depth.
    const bool FromImage = !Held && S.ImageElement;
    if (FromImage)
      Held = S.ImageElement;
    if (!Held || !Buffer.Fact.Type.isKnown() || Buffer.Fact.Type.Type == *Held)
      return false;
    if (FromImage)
      diag(SM.getExpansionLoc(Buffer.E->getBeginLoc()),
           "from_blob reads %0, the pixels of image '%1', as %2; they are %3")
          << nameOf(Buffer.E, Ctx) << S.Image->getName()
          << Buffer.Fact.Type.describe() << DTypeFact::known(*Held).describe();
    else
      diag(SM.getExpansionLoc(Buffer.E->getBeginLoc()),
           "from_blob reads %0, a buffer of %1, as %2; its elements are %3")
          << nameOf(Buffer.E, Ctx) << S.BufferElement.getUnqualifiedType()
          << Buffer.Fact.Type.describe() << DTypeFact::known(*Held).describe();
    // Where the dtype comes from: the argument that names it, else the
    // default dtype (from_blob's options default to it).
    const Expr *Named = fromBlobOptions(S);
    if (Named)
      diag(SM.getExpansionLoc(Named->getBeginLoc()), "%0 is asked for here",
           DiagnosticIDs::Note)
          << Buffer.Fact.Type.describe();
    else
      diag(SM.getExpansionLoc(S.Call->getExprLoc()),
           "no dtype given: the default dtype, %0", DiagnosticIDs::Note)
          << Buffer.Fact.Type.describe();
    return true;
  }
  if (S.K == Site::ModuleCall) {
    const Operand &In = S.Operands.front();
    const CXXRecordDecl *Gets = S.inputLayer();
    // An Embedding looks its input up as indices, whatever its weights'
    // dtype.
    if (Api.looksUpIndices(Gets)) {
      if (!indexDTypeRefused(In.Fact.Type, /*Int32Too=*/true))
        return false;
      diag(SM.getExpansionLoc(In.E->getBeginLoc()),
           "input %0 is %1 but %2 looks up int64 or int32 indices")
          << nameOf(In.E, Ctx) << In.Fact.Type.describe()
          << moduleName(S.ModuleExpr, Ctx);
      noteTypeOrigin(In, Ctx);
      return true;
    }
    // An integer input is wrong only for a built-in layer that computes in
    // its parameters' dtype: a user's module may look its input up in an
    // Embedding (token ids into a float16 model are fine).
    const bool IntegerIntoLayer =
        integralAgainstFloating(In.Fact.Type, S.Module.Type) &&
        Api.takesParameterDtypeInput(Gets);
    if (!floatingAndDifferent(S.Module.Type, In.Fact.Type) && !IntegerIntoLayer)
      return false;
    // A module whose dtype the analysis knows from how it was built (not
    // from a cast the user wrote) needs its input in that dtype only where
    // a layer computes with it: a built-in one that does, or a user
    // module whose forward() hands the input to one.
    if ((S.Module.TypeOrigin.How == Origin::ModuleCreated ||
         S.Module.TypeOrigin.How == Origin::ModuleUnregistered ||
         S.Module.TypeOrigin.How == Origin::ModuleKept) &&
        !Api.takesParameterDtypeInput(Gets)) {
      const bool UserModule = Gets && !Api.isBuiltinModule(Gets);
      if (!UserModule || !In.Fact.Type.isKnown() ||
          !analysis::forwardFeedsParameterLayer(session(), Gets,
                                                In.Fact.Type.Type, Ctx, Api))
        return false;
    }
    // A TorchScript module's code is not seen: it may cast its input. A
    // module whose forward converts its input expects any dtype.
    if (Api.isScriptModule(S.ModuleClass) ||
        analysis::forwardConvertsInput(S.ModuleClass, Api))
      return false;
    diag(SM.getExpansionLoc(In.E->getBeginLoc()),
         "input %0 is %1 but %2 has %3 parameters; modules do not promote "
         "their input")
        << nameOf(In.E, Ctx) << In.Fact.Type.describe()
        << moduleName(S.ModuleExpr, Ctx) << S.Module.Type.describe();
    noteTypeOrigin(In, Ctx);
    noteModuleType(S.ModuleExpr, S.Module, Ctx);
    return true;
  }
  if (!S.NonPromoting || S.Operands.size() < 2)
    return false;
  const Operand &A = S.Operands[0], &B = S.Operands[1];
  if (!productRefuses(A.Fact.Type, B.Fact.Type))
    return false;
  diag(SM.getExpansionLoc(S.Call->getExprLoc()),
       "%0 does not promote dtypes: %1 is %2 and %3 is %4")
      << calleeName(S) << nameOf(A.E, Ctx) << A.Fact.Type.describe()
      << nameOf(B.E, Ctx) << B.Fact.Type.describe();
  noteTypeOrigin(A, Ctx);
  noteTypeOrigin(B, Ctx);
  return true;
}

} // namespace clang::tidy::tensor
