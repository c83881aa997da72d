//===--- SemanticsTableTest.cpp - The ATen semantics table ----------------===//
//
// OpSchema's parser over ATen's grammar and every schema of the LibTorch
// headers; the semantics ApiModel derives for small translation units laid
// out as LibTorch lays out its API (inline wrappers that call
// at::_ops::<op>::call, whose schema_str is the op's schema), and by name
// for code that does not include LibTorch.
//
//===----------------------------------------------------------------------===//

#include "ApiModel.h"
#include "AtenSemantics.h"
#include "OpSchema.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

namespace clang::tidy::tensor {
namespace {

using namespace ast_matchers;
using Type = OpSchema::Type;

TEST(OpSchemaTest, ArgumentsReturnsAndAnnotations) {
  auto S = OpSchema::parse("aten::add_.Tensor(Tensor(a!) self, Tensor other, "
                           "*, Scalar alpha=1) -> Tensor(a!)");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Name, "add_");
  EXPECT_EQ(S->Overload, "Tensor");
  EXPECT_EQ(S->baseName(), "add");
  ASSERT_EQ(S->Arguments.size(), 3u);
  EXPECT_EQ(S->Arguments[0].Name, "self");
  EXPECT_TRUE(S->Arguments[0].Writes);
  EXPECT_EQ(S->Arguments[1].Ty, Type::Tensor);
  EXPECT_FALSE(S->Arguments[1].KwargOnly);
  EXPECT_TRUE(S->Arguments[2].KwargOnly);
  EXPECT_TRUE(S->Arguments[2].HasDefault);
  EXPECT_EQ(S->Arguments[2].Ty, Type::Scalar);
  EXPECT_TRUE(S->isInPlace());
  EXPECT_FALSE(S->returnsView());
}

TEST(OpSchemaTest, ListsOptionalsAndDefaultsWithCommas) {
  auto S = OpSchema::parse("conv2d(Tensor input, Tensor weight, Tensor? "
                           "bias=None, int[2] stride=[1, 1], "
                           "str padding=\"valid\", Tensor?[] extra, SymInt[1]? "
                           "dims=None) -> Tensor");
  ASSERT_TRUE(S);
  ASSERT_EQ(S->Arguments.size(), 7u);
  EXPECT_EQ(S->Arguments[2].Ty, Type::Tensor);
  EXPECT_TRUE(S->Arguments[2].Optional);
  EXPECT_EQ(S->Arguments[3].Ty, Type::IntList);
  EXPECT_EQ(S->Arguments[3].Name, "stride");
  EXPECT_EQ(S->Arguments[4].Ty, Type::Other);
  EXPECT_EQ(S->Arguments[5].Ty, Type::TensorList);
  EXPECT_FALSE(S->Arguments[5].Optional);
  EXPECT_EQ(S->Arguments[5].Name, "extra");
  EXPECT_EQ(S->Arguments[6].Ty, Type::IntList);
  EXPECT_TRUE(S->Arguments[6].Optional);
  EXPECT_TRUE(S->Arguments[6].HasDefault);
}

TEST(OpSchemaTest, ViewsAndNamedReturns) {
  auto V = OpSchema::parse(
      "select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)");
  ASSERT_TRUE(V);
  EXPECT_TRUE(V->returnsView());
  auto M = OpSchema::parse("max.dim(Tensor self, int dim, bool keepdim=False) "
                           "-> (Tensor values, Tensor indices)");
  ASSERT_TRUE(M);
  ASSERT_EQ(M->Returns.size(), 2u);
  EXPECT_EQ(M->Returns[1].Name, "indices");
  EXPECT_EQ(M->tensorReturns(), 2u);
  auto Split = OpSchema::parse("split.Tensor(Tensor(a -> *) self, SymInt "
                               "split_size, int dim=0) -> Tensor(a)[]");
  ASSERT_TRUE(Split);
  EXPECT_EQ(Split->Returns[0].Ty, Type::TensorList);
  auto None = OpSchema::parse("_foreach_zero_(Tensor(a!)[] self) -> ()");
  ASSERT_TRUE(None);
  EXPECT_TRUE(None->Returns.empty());
}

TEST(OpSchemaTest, RefusesWhatIsNotASchema) {
  EXPECT_FALSE(OpSchema::parse(""));
  EXPECT_FALSE(OpSchema::parse("add"));
  EXPECT_FALSE(OpSchema::parse("add(Tensor self"));
  EXPECT_FALSE(OpSchema::parse("add(Tensor self) Tensor"));
  EXPECT_FALSE(OpSchema::parse("add(Tensor) -> Tensor")); // no name
}

// The generated list is LibTorch's own: every schema in it parses, and
// there are LibTorch's 2,000 and more.
TEST(OpSchemaTest, ParsesEveryBuiltinSchema) {
  auto Texts = AtenSemantics::builtinSchemaTexts();
  EXPECT_GT(Texts.size(), 2000u);
  for (const char *T : Texts)
    EXPECT_TRUE(OpSchema::parse(T)) << T;
}

// The C++ API passes keyword-only arguments positionally: sum(dim, keepdim,
// dtype) is sum.dim_IntList, whose dtype is keyword-only, and not sum's
// dtype-only overload nor the named-tensor one; sum(dtype) is sum itself.
TEST(AtenSemanticsTest, OverloadsByArgumentsKeywordOnesIncluded) {
  const OpSchema *Dims =
      AtenSemantics::builtinSchema("sum", {true, false, false, false});
  ASSERT_TRUE(Dims);
  EXPECT_EQ(Dims->Overload, "dim_IntList");
  CallSemantics S = AtenSemantics::withOverlay(Dims, {});
  EXPECT_EQ(S.RankRule, ResultRank::Reduce);
  const OpSchema *DTypeOnly =
      AtenSemantics::builtinSchema("sum", {true, false});
  ASSERT_TRUE(DTypeOnly);
  EXPECT_EQ(DTypeOnly->Overload, "");
  EXPECT_EQ(AtenSemantics::withOverlay(DTypeOnly, {}).RankRule,
            ResultRank::Scalar);
  // A trailing defaulted parameter of the API's own (tt's SourceLoc) may be
  // left over; one the caller must pass may not.
  const OpSchema *WithLoc = AtenSemantics::builtinSchema(
      "sum", {true, false, false, false, false}, 1);
  ASSERT_TRUE(WithLoc);
  EXPECT_EQ(WithLoc->Overload, "dim_IntList");
  EXPECT_FALSE(AtenSemantics::builtinSchema(
      "sum", {true, false, false, false, false}, 0));
  // ...and stands only for an argument with a default: tt's max(self, loc)
  // is max(Tensor), not max.dim with loc as its dim.
  unsigned Covered = 0;
  const OpSchema *Max =
      AtenSemantics::builtinSchema("max", {true, false}, 1, &Covered);
  ASSERT_TRUE(Max);
  EXPECT_EQ(Max->Overload, "");
  EXPECT_EQ(Covered, 1u);
  // An out= overload needs its out tensor: sum(dim, keepdim) is not it.
  EXPECT_FALSE(
      AtenSemantics::builtinSchema("sum", {true, false, false})->isOut());
}

TEST(AtenSemanticsTest, OverlayOnBuiltinSchemas) {
  const OpSchema *Index = AtenSemantics::builtinSchema("index", {true, true});
  ASSERT_TRUE(Index);
  CallSemantics S = AtenSemantics::withOverlay(Index, {});
  EXPECT_EQ(S.DTypeRule, ResultDType::Self);
  const OpSchema *Eq = AtenSemantics::builtinSchema("eq", {true, true});
  ASSERT_TRUE(Eq);
  EXPECT_EQ(AtenSemantics::withOverlay(Eq, {}).DTypeRule, ResultDType::Bool);
  const OpSchema *Argmax = AtenSemantics::builtinSchema("argmax", {true});
  ASSERT_TRUE(Argmax);
  EXPECT_EQ(AtenSemantics::withOverlay(Argmax, {}).DTypeRule,
            ResultDType::Int64);
  // view(size) keeps its object's dtype; view(dtype) reinterprets it.
  auto View =
      OpSchema::parse("view(Tensor(a) self, SymInt[] size) -> Tensor(a)");
  ASSERT_TRUE(View);
  EXPECT_EQ(AtenSemantics::withOverlay(&*View, {}).DTypeRule,
            ResultDType::Self);
  auto ViewDtype = OpSchema::parse(
      "view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)");
  ASSERT_TRUE(ViewDtype);
  EXPECT_EQ(AtenSemantics::withOverlay(&*ViewDtype, {}).DTypeRule,
            ResultDType::Unknown);
  const OpSchema *Mm = AtenSemantics::builtinSchema("mm", {true, true});
  ASSERT_TRUE(Mm);
  EXPECT_TRUE(AtenSemantics::withOverlay(Mm, {}).NonPromoting);
  const OpSchema *Add = AtenSemantics::builtinSchema("add", {true, true});
  ASSERT_TRUE(Add);
  EXPECT_EQ(Add->Overload, "Tensor");
  CallSemantics A = AtenSemantics::withOverlay(Add, {});
  EXPECT_EQ(A.DTypeRule, ResultDType::Promoted);
  EXPECT_EQ(A.RankRule, ResultRank::Broadcast);
  EXPECT_FALSE(A.NonPromoting);
  const OpSchema *Sort = AtenSemantics::builtinSchema("sort", {true});
  ASSERT_TRUE(Sort);
  EXPECT_TRUE(AtenSemantics::withOverlay(Sort, {}).ValuesAndIndices);
  EXPECT_EQ(AtenSemantics::withOverlay(Sort, {}).ReturnDTypes,
            (llvm::SmallVector<ResultDType, 4>{ResultDType::Self,
                                               ResultDType::Int64}));
  // Several returns: each one's dtype by its name in the schema.
  auto Eigh = OpSchema::parse("aten::linalg_eigh(Tensor A, str UPLO=\"L\") "
                              "-> (Tensor eigenvalues, Tensor eigenvectors)");
  ASSERT_TRUE(Eigh);
  EXPECT_EQ(AtenSemantics::withOverlay(&*Eigh, {}).ReturnDTypes,
            (llvm::SmallVector<ResultDType, 4>{ResultDType::Self,
                                               ResultDType::Self}));
  auto LuFactor = OpSchema::parse("aten::linalg_lu_factor(Tensor A, *, "
                                  "bool pivot=True) -> (Tensor LU, Tensor "
                                  "pivots)");
  ASSERT_TRUE(LuFactor);
  EXPECT_EQ(AtenSemantics::withOverlay(&*LuFactor, {}).ReturnDTypes,
            (llvm::SmallVector<ResultDType, 4>{ResultDType::Self,
                                               ResultDType::Unknown}));
  // eig's results are complex for a real matrix, whatever their names.
  auto Eig = OpSchema::parse("aten::linalg_eig(Tensor self) -> (Tensor "
                             "eigenvalues, Tensor eigenvectors)");
  ASSERT_TRUE(Eig);
  EXPECT_TRUE(AtenSemantics::withOverlay(&*Eig, {}).ReturnDTypes.empty());
  // In-place arithmetic casts its promoted result back; fill_ converts.
  auto DivInPlace = OpSchema::parse(
      "aten::div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  ASSERT_TRUE(DivInPlace);
  EXPECT_TRUE(AtenSemantics::withOverlay(&*DivInPlace, {}).InPlacePromoted);
  EXPECT_FALSE(AtenSemantics::withOverlay(Add, {}).InPlacePromoted);
  auto FillInPlace = OpSchema::parse(
      "aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)");
  ASSERT_TRUE(FillInPlace);
  EXPECT_FALSE(AtenSemantics::withOverlay(&*FillInPlace, {}).InPlacePromoted);
  // mean infers its dtype from a floating input; sum does not need one.
  const OpSchema *Mean = AtenSemantics::builtinSchema("mean", {true});
  ASSERT_TRUE(Mean);
  EXPECT_TRUE(AtenSemantics::withOverlay(Mean, {}).NeedsFloatingInput);
  const OpSchema *Sum = AtenSemantics::builtinSchema("sum", {true});
  ASSERT_TRUE(Sum);
  EXPECT_FALSE(AtenSemantics::withOverlay(Sum, {}).NeedsFloatingInput);
  // Float ops compute in float; div with a rounding mode keeps integers,
  // add is no float op, and sqrt_ on an integer tensor casts back.
  const OpSchema *Sqrt = AtenSemantics::builtinSchema("sqrt", {true});
  ASSERT_TRUE(Sqrt);
  EXPECT_TRUE(AtenSemantics::withOverlay(Sqrt, {}).IntegerToFloat);
  EXPECT_TRUE(AtenSemantics::withOverlay(&*DivInPlace, {}).IntegerToFloat);
  auto DivMode = OpSchema::parse("aten::div.Tensor_mode(Tensor self, Tensor "
                                 "other, *, str? rounding_mode) -> Tensor");
  ASSERT_TRUE(DivMode);
  EXPECT_FALSE(AtenSemantics::withOverlay(&*DivMode, {}).IntegerToFloat);
  EXPECT_FALSE(AtenSemantics::withOverlay(Add, {}).IntegerToFloat);
  auto SqrtInPlace =
      OpSchema::parse("aten::sqrt_(Tensor(a!) self) -> Tensor(a!)");
  ASSERT_TRUE(SqrtInPlace);
  EXPECT_TRUE(AtenSemantics::withOverlay(&*SqrtInPlace, {}).InPlacePromoted);
  // one_hot's rows are int64 whatever else.
  const OpSchema *OneHot = AtenSemantics::builtinSchema("one_hot", {true});
  ASSERT_TRUE(OneHot);
  EXPECT_EQ(AtenSemantics::withOverlay(OneHot, {}).DTypeRule,
            ResultDType::Int64);
  // add with a number: the Scalar overload.
  const OpSchema *AddScalar =
      AtenSemantics::builtinSchema("add", {true, false});
  ASSERT_TRUE(AddScalar);
  EXPECT_EQ(AddScalar->Overload, "Scalar");
  EXPECT_FALSE(AtenSemantics::builtinSchema("no_such_op", {true}));
}

// A translation unit laid out as LibTorch's headers are.
constexpr const char *LibTorchLayout = R"cc(
namespace std {
template <class E> class initializer_list {
  const E *b;
  unsigned long n;
  constexpr initializer_list(const E *b, unsigned long n) : b(b), n(n) {}

public:
  constexpr initializer_list() : b(nullptr), n(0) {}
};
template <class T> struct vector {
  vector();
  T &operator[](unsigned long);
};
} // namespace std
namespace c10 {
enum class ScalarType { Float, Half };
template <typename T> struct ArrayRef {
  ArrayRef(std::initializer_list<T>);
  const T *p;
  unsigned long n;
};
} // namespace c10
namespace at {
struct TensorBase {};
struct Tensor : TensorBase {
  Tensor add(const Tensor &other, double alpha = 1) const;
  Tensor index(c10::ArrayRef<Tensor> indices) const;
  Tensor select(long dim, long index) const;
  Tensor operator[](long i) const { return select(0, i); }
  Tensor sum(c10::ScalarType dtype) const;
};
namespace _ops {
struct add_Tensor {
  static constexpr const char *schema_str =
      "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
  static Tensor call(const Tensor &self, const Tensor &other, double alpha);
};
struct index_Tensor {
  static constexpr const char *schema_str =
      "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor";
  static Tensor call(const Tensor &self, c10::ArrayRef<Tensor> indices);
};
struct select_int {
  static constexpr const char *schema_str =
      "select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)";
  static Tensor call(const Tensor &self, long dim, long index);
};
struct sum {
  static constexpr const char *schema_str =
      "sum(Tensor self, *, ScalarType? dtype=None) -> Tensor";
  static Tensor call(const Tensor &self, c10::ScalarType dtype);
};
struct relu {
  static constexpr const char *schema_str = "relu(Tensor self) -> Tensor";
  static Tensor call(const Tensor &self);
};
struct broadcast_tensors {
  static constexpr const char *schema_str =
      "broadcast_tensors(Tensor[] tensors) -> Tensor[]";
  static std::vector<Tensor> call(c10::ArrayRef<Tensor> tensors);
};
struct mse_loss {
  static constexpr const char *schema_str =
      "mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor";
  static Tensor call(const Tensor &self, const Tensor &target, long reduction);
};
struct _pack_padded_sequence {
  static constexpr const char *schema_str =
      "_pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first) "
      "-> (Tensor, Tensor)";
  static Tensor call(const Tensor &input, const Tensor &lengths,
                     bool batch_first);
};
} // namespace _ops
inline Tensor Tensor::add(const Tensor &other, double alpha) const {
  return _ops::add_Tensor::call(const_cast<Tensor &>(*this), other, alpha);
}
inline Tensor Tensor::index(c10::ArrayRef<Tensor> indices) const {
  return _ops::index_Tensor::call(*this, indices);
}
inline Tensor Tensor::select(long dim, long index) const {
  return _ops::select_int::call(*this, dim, index);
}
inline Tensor Tensor::sum(c10::ScalarType dtype) const {
  return _ops::sum::call(*this, dtype);
}
inline Tensor operator+(const Tensor &a, const Tensor &b) { return a.add(b); }
inline Tensor relu(const Tensor &self) { return _ops::relu::call(self); }
// nn::utils::rnn::pack_padded_sequence's shape: its lengths go on to the op.
inline Tensor pack_padded(Tensor input, Tensor lengths, bool batch_first) {
  return _ops::_pack_padded_sequence::call(input, lengths, batch_first);
}
// A wrapper that combines its tensors, and one that uses them apart.
inline Tensor combined(const Tensor &x, const Tensor &y) { return x + y; }
inline Tensor apart(const Tensor &x, const Tensor &y) {
  relu(x);
  return relu(y);
}
inline std::vector<Tensor> broadcast_tensors(c10::ArrayRef<Tensor> tensors) {
  return _ops::broadcast_tensors::call(tensors);
}
// F::mse_loss's two shapes: the list's elements through locals, and
// subscripted in the call; then one past the list's end.
inline Tensor mse_through_locals(const Tensor &input, const Tensor &target) {
  std::vector<Tensor> expanded = broadcast_tensors({input, target});
  auto expanded_input = expanded[0];
  auto expanded_target = expanded[1];
  return _ops::mse_loss::call(expanded_input, expanded_target, 1);
}
inline Tensor mse_subscripted(const Tensor &input, const Tensor &target) {
  std::vector<Tensor> expanded = broadcast_tensors({input, target});
  return _ops::mse_loss::call(expanded[0], expanded[1], 1);
}
inline Tensor past_the_list(const Tensor &input, const Tensor &target) {
  std::vector<Tensor> expanded = broadcast_tensors({input, target});
  return _ops::mse_loss::call(expanded[1], expanded[2], 1);
}
// A local assigned again holds something else: not its initialiser.
inline Tensor reassigned(const Tensor &input, const Tensor &target,
                         const Tensor &other) {
  Tensor a = input;
  a = other;
  return _ops::mse_loss::call(a, target, 1);
}
} // namespace at
)cc";

class DerivedSemanticsTest : public ::testing::Test {
protected:
  void SetUp() override {
    AST = tooling::buildASTFromCodeWithArgs(LibTorchLayout, {"-std=c++17"},
                                            "input.cc");
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  }
  const CallSemantics *of(llvm::StringRef QualifiedName) {
    auto Found = match(functionDecl(hasName(QualifiedName.str())).bind("f"),
                       AST->getASTContext());
    EXPECT_FALSE(Found.empty()) << QualifiedName.str();
    if (Found.empty())
      return nullptr;
    return Api.callSemantics(Found[0].getNodeAs<FunctionDecl>("f"));
  }
  ApiModel Api;
  std::unique_ptr<ASTUnit> AST;
};

TEST_F(DerivedSemanticsTest, MethodsMapTheirObjectAndParametersToTheSchema) {
  const CallSemantics *S = of("::at::Tensor::add");
  ASSERT_TRUE(S);
  ASSERT_TRUE(S->Op);
  EXPECT_EQ(S->Op->Name, "add");
  EXPECT_EQ(S->object().K, ArgumentRole::Device);
  EXPECT_EQ(S->param(0).K, ArgumentRole::Device);
  EXPECT_STREQ(S->param(0).Name, "other");
  EXPECT_EQ(S->param(1).K, ArgumentRole::None); // alpha: keyword-only
  EXPECT_EQ(S->deviceArguments(), 2u);
}

TEST_F(DerivedSemanticsTest, IndicesMayStayOnTheCpu) {
  const CallSemantics *S = of("::at::Tensor::index");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->object().K, ArgumentRole::Device);
  EXPECT_EQ(S->param(0).K, ArgumentRole::CpuAllowed);
  EXPECT_EQ(S->DTypeRule, ResultDType::Self);
}

TEST_F(DerivedSemanticsTest, PackedSequenceLengthsMustBeOnTheCpu) {
  const CallSemantics *S = of("::at::pack_padded");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->param(1).K, ArgumentRole::CpuOnly);
  EXPECT_STREQ(S->param(1).Name, "lengths");
  EXPECT_NE(S->param(0).K, ArgumentRole::CpuOnly);
}

TEST_F(DerivedSemanticsTest, WrappersAreFollowedThroughTheirBodies) {
  // operator+ calls add; operator[] calls select.
  const CallSemantics *Plus = of("::at::operator+");
  ASSERT_TRUE(Plus);
  EXPECT_EQ(Plus->param(0).K, ArgumentRole::Device);
  EXPECT_EQ(Plus->param(1).K, ArgumentRole::Device);
  EXPECT_EQ(Plus->DTypeRule, ResultDType::Promoted);
  const CallSemantics *Subscript = of("::at::Tensor::operator[]");
  ASSERT_TRUE(Subscript);
  EXPECT_EQ(Subscript->object().K, ArgumentRole::Device);
  EXPECT_EQ(Subscript->DTypeRule, ResultDType::Self);
  EXPECT_EQ(Subscript->RankRule, ResultRank::Select);
}

TEST_F(DerivedSemanticsTest, ExplicitDtypeArgumentsAreDtypeRoles) {
  const CallSemantics *S = of("::at::Tensor::sum");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->param(0).K, ArgumentRole::DType);
  EXPECT_EQ(S->RankRule, ResultRank::Scalar);
}

TEST_F(DerivedSemanticsTest, OnlyTensorsAnOpCombinesShareADevice) {
  const CallSemantics *Combined = of("::at::combined");
  ASSERT_TRUE(Combined);
  EXPECT_EQ(Combined->deviceArguments(), 2u);
  // Two tensors that meet in no op: neither is known to need the other's
  // device.
  const CallSemantics *Apart = of("::at::apart");
  ASSERT_TRUE(Apart);
  EXPECT_EQ(Apart->deviceArguments(), 0u);
}

TEST_F(DerivedSemanticsTest, ListViewElementsAreTheTensorsTheListWasGiven) {
  for (const char *Name :
       {"::at::mse_through_locals", "::at::mse_subscripted"}) {
    const CallSemantics *S = of(Name);
    ASSERT_TRUE(S) << Name;
    EXPECT_EQ(S->param(0).K, ArgumentRole::Device) << Name;
    EXPECT_EQ(S->param(1).K, ArgumentRole::Device) << Name;
    EXPECT_EQ(S->deviceArguments(), 2u) << Name;
  }
  // expanded[2] is no tensor of the list: only target is known to reach
  // the loss, alone.
  const CallSemantics *Past = of("::at::past_the_list");
  ASSERT_TRUE(Past);
  EXPECT_EQ(Past->param(0).K, ArgumentRole::None);
  EXPECT_EQ(Past->deviceArguments(), 1u);
  const CallSemantics *Again = of("::at::reassigned");
  ASSERT_TRUE(Again);
  EXPECT_EQ(Again->param(0).K, ArgumentRole::None);
  EXPECT_EQ(Again->param(1).K, ArgumentRole::Device);
}

} // namespace
} // namespace clang::tidy::tensor
