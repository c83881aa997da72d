//===--- AtenSemantics.cpp - What an ATen call does to devices and dtypes -===//

#include "AtenSemantics.h"
#include "analysis/Exprs.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::tensor {
namespace {

//===----------------------------------------------------------------------===//
// The overlay: what the schemas do not say, by op (base name, without the
// in-place '_'), after ATen's kernels and native_functions.yaml.
//===----------------------------------------------------------------------===//

template <size_t N>
bool listed(const llvm::StringLiteral (&Names)[N], llvm::StringRef Name) {
  return llvm::is_contained(Names, Name);
}

// Ops that do not compare their tensors' devices: conversions and copies
// between devices, and composite ops that only read their other tensor's
// sizes or dtype (expand_as reads sizes; a cuda build runs them with a cpu
// `other` as well).
constexpr llvm::StringLiteral NoDeviceCheck[] = {
    "to",
    "_to_copy",
    "copy",
    "_copy_from",
    "_copy_from_and_resize",
    "set",
    "is_set_to",
    "expand_as",
    "view_as",
    "reshape_as",
    "broadcast_tensors",
    "type_as",
    "result_type",
    "is_same_size",
    "can_cast",
    "equal",
    "resize_as",
    "resize_as_sparse",
    "_has_compatible_shallow_copy_type",
    "lift",
    "lift_fresh",
    "record_stream"};

// Arguments a cuda build lets stay on the cpu whatever the other tensors'
// device: index and index_put_'s indices (TensorAdvancedIndexing.cpp), the
// lengths a packed sequence is made from and its batch_sizes (always a cpu
// tensor), ctc_loss's lengths, repeat_interleave's repeats.
struct CpuArgument {
  llvm::StringLiteral Op, Arg;
};
constexpr CpuArgument CpuArguments[] = {
    {"index", "indices"},
    {"index_put", "indices"},
    {"_index_put_impl", "indices"},
    {"lstm", "batch_sizes"},
    {"gru", "batch_sizes"},
    {"rnn_tanh", "batch_sizes"},
    {"rnn_relu", "batch_sizes"},
    {"ctc_loss", "input_lengths"},
    {"ctc_loss", "target_lengths"},
    {"_ctc_loss", "input_lengths"},
    {"_ctc_loss", "target_lengths"},
    {"repeat_interleave", "repeats"},
};

// Arguments ATen requires on the cpu whatever the other tensors' device:
// PackedSequence.cpp's checkLongTensor ("'lengths' argument should be a 1D
// CPU int64 tensor") guards _pack_padded_sequence's lengths and
// _pad_packed_sequence's batch_sizes. The C++ API's pack_padded_sequence
// passes its lengths on as they are (Python's moves them to the cpu).
constexpr CpuArgument CpuOnlyArguments[] = {
    {"_pack_padded_sequence", "lengths"},
    {"_pad_packed_sequence", "batch_sizes"},
};

// Ops over a list of tensors whose i-th result is a view of the i-th
// (broadcast_tensors and meshgrid expand, atleast_Nd reshapes): the same
// device and dtype, element by element. F::mse_loss, smooth_l1_loss and
// huber_loss hand their input and target to the loss through
// broadcast_tensors.
constexpr llvm::StringLiteral ListViewOps[] = {
    "broadcast_tensors", "meshgrid", "atleast_1d", "atleast_2d", "atleast_3d"};

// Results of dtype bool (comparisons and predicates) and int64 (indices).
constexpr llvm::StringLiteral BoolResult[] = {
    "eq",          "ne",          "lt",          "le",
    "gt",          "ge",          "greater",     "greater_equal",
    "less",        "less_equal",  "not_equal",   "isclose",
    "isnan",       "isinf",       "isfinite",    "isposinf",
    "isneginf",    "isreal",      "logical_and", "logical_or",
    "logical_xor", "logical_not", "signbit",     "isin"};
constexpr llvm::StringLiteral Int64Result[] = {
    "argmax",       "argmin",    "argsort",     "argwhere",      "nonzero",
    "searchsorted", "bucketize", "multinomial", "count_nonzero", "one_hot"};
// The returns of ops of several results that have their first tensor's
// dtype, by the names the schemas give them: the values of the (values,
// indices) ops, linalg's decompositions of a real matrix (eigh, qr, svd,
// slogdet, lu, lu_factor, cholesky_ex, lstsq), frexp's mantissa and
// aminmax. An unnamed or other return is unknown: pivots, info and
// frexp's exponent are int32, lstsq's rank int64.
constexpr llvm::StringLiteral DTypeKeepingReturns[] = {"values",
                                                       "eigenvalues",
                                                       "eigenvectors",
                                                       "Q",
                                                       "R",
                                                       "U",
                                                       "S",
                                                       "V",
                                                       "Vh",
                                                       "L",
                                                       "LU",
                                                       "P",
                                                       "sign",
                                                       "logabsdet",
                                                       "solution",
                                                       "residuals",
                                                       "singular_values",
                                                       "mantissa",
                                                       "min",
                                                       "max"};
// Ops of several results that are complex for a real input, which the
// analysis has no dtype for, whatever their returns are named.
constexpr llvm::StringLiteral ComplexResultOps[] = {"linalg_eig", "eig",
                                                    "linalg_eigvals"};

// Ops whose result has their first tensor's dtype, whatever it is (copies,
// gathers and reshuffles of its elements), where type promotion over
// several tensors would say otherwise or say nothing for integers.
constexpr llvm::StringLiteral SelfDType[] = {"clone",
                                             "contiguous",
                                             "index",
                                             "index_select",
                                             "gather",
                                             "take",
                                             "take_along_dim",
                                             "masked_select",
                                             "flip",
                                             "fliplr",
                                             "flipud",
                                             "roll",
                                             "repeat",
                                             "tile",
                                             "tril",
                                             "triu",
                                             "constant_pad_nd",
                                             "repeat_interleave",
                                             "pin_memory",
                                             "narrow_copy",
                                             "pad",
                                             "reflection_pad1d",
                                             "reflection_pad2d",
                                             "reflection_pad3d",
                                             "replication_pad1d",
                                             "replication_pad2d",
                                             "replication_pad3d",
                                             "detach",
                                             "unfold",
                                             "embedding",
                                             "pixel_shuffle",
                                             "pixel_unshuffle",
                                             "channel_shuffle"};
// Views whose result has another dtype than their object; a view that
// takes a dtype argument (view.dtype) is one too, where view.SymInt[] keeps
// its object's.
constexpr llvm::StringLiteral DTypeChangingViews[] = {
    "view_as_real", "view_as_complex", "real", "imag", "_neg_view", "_conj"};

// Losses whose `target` is class indices: ATen reads it as int64 (or
// uint8) and throws "expected scalar type Long but found Float" for
// anything else (LossNLL.cpp, LossMultiMargin.cpp, LossMultiLabelMargin.cpp).
// cross_entropy_loss takes probabilities too, in a target of the input's
// shape (Loss.cpp).
constexpr llvm::StringLiteral ClassIndexLosses[] = {"nll_loss",
                                                    "nll_loss2d",
                                                    "nll_loss_nd",
                                                    "multi_margin_loss",
                                                    "multilabel_margin_loss",
                                                    "cross_entropy_loss"};

// Index arguments whose dtype ATen checks before it reads them, by op and
// schema argument name. Most take int64 only: ScatterGatherChecks.h's
// scatter_gather_dtype_check ("gather(): Expected dtype int64 for index"),
// take, take_along_dim, put_, index_copy_, index_fill_ and one_hot
// (TensorAdvancedIndexing.cpp, Onehot.cpp). index_select and index_add
// take int32 too ("Expected dtype int32 or int64 for index"), and so do
// embedding and embedding_bag (checkScalarTypes(..., {kLong, kInt})).
struct IndexArgument {
  llvm::StringLiteral Op, Arg;
  bool Int32Too;
};
constexpr IndexArgument IndexArguments[] = {
    {"gather", "index", false},
    {"scatter", "index", false},
    {"scatter_add", "index", false},
    {"scatter_reduce", "index", false},
    {"take", "index", false},
    {"take_along_dim", "indices", false},
    {"put", "index", false},
    {"index_copy", "index", false},
    {"index_fill", "index", false},
    {"one_hot", "self", false},
    {"index_select", "index", true},
    {"index_add", "index", true},
    {"embedding", "indices", true},
    {"embedding_bag", "indices", true},
    {"_embedding_bag", "indices", true}};

// Ops that refuse two floating dtypes among their first two tensors instead
// of promoting: the matrix products (cuda/Blas.cpp: "expected mat1 and mat2
// to have the same dtype"), convolutions ("Input type (double) and weight
// type (float) should be the same"), linear and bilinear.
constexpr llvm::StringLiteral NonPromotingOps[] = {"mm",
                                                   "bmm",
                                                   "matmul",
                                                   "mv",
                                                   "dot",
                                                   "vdot",
                                                   "linear",
                                                   "bilinear",
                                                   "conv1d",
                                                   "conv2d",
                                                   "conv3d",
                                                   "conv_transpose1d",
                                                   "conv_transpose2d",
                                                   "conv_transpose3d",
                                                   "convolution",
                                                   "_convolution"};

// Arithmetic whose in-place form casts the promoted result to its object's
// dtype and throws when it cannot (c10::canCast). Not fill, masked_fill,
// copy_ or the comparisons, which convert what they write.
constexpr llvm::StringLiteral PromotingArithmetic[] = {
    "add",          "sub",   "mul",       "div",     "true_divide",
    "floor_divide", "rsub",  "remainder", "fmod",    "pow",
    "atan2",        "hypot", "lerp",      "addcmul", "addcdiv"};

// Ops that compute in floating point whatever their inputs: an integer or
// bool input gives the default float dtype (TensorIteratorConfig's
// promote_integer_inputs_to_float; UnaryOps.cpp's
// CREATE_UNARY_FLOAT_META_FUNC list and polygamma, BinaryOps.cpp's
// build_borrowing_binary_float_op: true division, atan2, xlogy, copysign).
// div with a rounding_mode keeps integers (withOverlay).
constexpr llvm::StringLiteral IntegerToFloatOps[] = {"acos",
                                                     "acosh",
                                                     "asin",
                                                     "asinh",
                                                     "atan",
                                                     "atanh",
                                                     "cos",
                                                     "cosh",
                                                     "digamma",
                                                     "erf",
                                                     "erfc",
                                                     "erfinv",
                                                     "exp",
                                                     "exp2",
                                                     "expm1",
                                                     "i0",
                                                     "lgamma",
                                                     "log",
                                                     "log10",
                                                     "log1p",
                                                     "log2",
                                                     "reciprocal",
                                                     "rsqrt",
                                                     "sigmoid",
                                                     "sin",
                                                     "sinc",
                                                     "sinh",
                                                     "sqrt",
                                                     "tan",
                                                     "tanh",
                                                     "polygamma",
                                                     "special_entr",
                                                     "special_i0e",
                                                     "special_i1",
                                                     "special_i1e",
                                                     "special_ndtri",
                                                     "div",
                                                     "true_divide",
                                                     "atan2",
                                                     "xlogy",
                                                     "copysign",
                                                     "special_erfcx",
                                                     "special_log_ndtr"};

// Reductions whose result dtype ATen infers only from a floating (or
// complex) input, unless dtype= is given (ReduceOps.cpp,
// get_dtype_from_self / mean's "could not infer output dtype").
constexpr llvm::StringLiteral FloatingInputReductions[] = {
    "mean", "nanmean", "std", "var", "std_mean", "var_mean"};

// The number of dimensions of results.
constexpr llvm::StringLiteral PointwiseOps[] = {
    "add",         "sub",         "mul",
    "div",         "true_divide", "floor_divide",
    "remainder",   "pow",         "atan2",
    "maximum",     "minimum",     "fmod",
    "eq",          "ne",          "lt",
    "le",          "gt",          "ge",
    "logical_and", "logical_or",  "logical_xor",
    "where",       "relu",        "sigmoid",
    "tanh",        "exp",         "log",
    "neg",         "abs",         "sqrt",
    "clamp",       "sin",         "cos",
    "gelu",        "silu",        "leaky_relu",
    "masked_fill", "fill",        "zero",
    "rsub",        "clamp_min",   "clamp_max",
    "hardtanh",    "elu",         "selu",
    "celu",        "softplus",    "mish",
    "log1p",       "expm1",       "reciprocal",
    "rsqrt",       "square",      "sign",
    "floor",       "ceil",        "round",
    "trunc",       "frac",        "lerp",
    "addcmul",     "addcdiv",     "hypot",
    "logaddexp",   "xlogy",       "bitwise_and",
    "bitwise_or",  "bitwise_xor", "bitwise_not",
    "isnan",       "isinf",       "isfinite",
    "logical_not", "nan_to_num",  "erf",
    "erfc",        "erfinv",      "tan",
    "asin",        "acos",        "atan",
    "sinh",        "cosh",        "asinh",
    "acosh",       "atanh",       "log2",
    "log10",       "exp2",        "sigmoid_backward",
    "threshold",   "hardsigmoid", "hardswish",
    "relu6",       "prelu",       "glu_backward"};
constexpr llvm::StringLiteral SameRankOps[] = {"permute",
                                               "transpose",
                                               "contiguous",
                                               "clone",
                                               "detach",
                                               "flip",
                                               "narrow",
                                               "index_select",
                                               "roll",
                                               "slice",
                                               "t",
                                               "pin_memory",
                                               "softmax",
                                               "log_softmax",
                                               "dropout",
                                               "feature_dropout",
                                               "alpha_dropout",
                                               "cumsum",
                                               "cumprod",
                                               "sort",
                                               "argsort",
                                               "topk",
                                               "cummax",
                                               "cummin",
                                               "tril",
                                               "triu",
                                               "layer_norm",
                                               "batch_norm",
                                               "group_norm",
                                               "instance_norm",
                                               "_softmax",
                                               "_log_softmax",
                                               "normalize",
                                               "native_dropout",
                                               "movedim",
                                               "swapaxes",
                                               "swapdims",
                                               "repeat",
                                               "tile",
                                               "gather",
                                               "scatter",
                                               "scatter_add",
                                               "index_add",
                                               "index_fill",
                                               "index_copy",
                                               "masked_scatter",
                                               "constant_pad_nd"};
// The factories that take their sizes from a tensor: its rank, as SameRankOps.
constexpr llvm::StringLiteral LikeFactories[] = {
    "empty_like", "zeros_like", "ones_like",   "full_like",
    "rand_like",  "randn_like", "randint_like"};
constexpr llvm::StringLiteral Reductions[] = {
    "sum",       "mean",   "max",    "min",          "prod",
    "norm",      "amax",   "amin",   "all",          "any",
    "std",       "var",    "median", "nanmedian",    "nansum",
    "logsumexp", "argmax", "argmin", "count_nonzero"};

bool isCpuArgument(llvm::StringRef Op, llvm::StringRef Arg) {
  return llvm::any_of(CpuArguments, [&](const CpuArgument &C) {
    return C.Op == Op && C.Arg == Arg;
  });
}

bool isCpuOnlyArgument(llvm::StringRef Op, llvm::StringRef Arg) {
  return llvm::any_of(CpuOnlyArguments, [&](const CpuArgument &C) {
    return C.Op == Op && C.Arg == Arg;
  });
}

bool hasArgument(const OpSchema &Op, llvm::StringRef Name) {
  return llvm::any_of(Op.Arguments, [&](const OpSchema::Argument &A) {
    return A.Name == Name;
  });
}

ResultDType dtypeRule(const OpSchema &Op) {
  llvm::StringRef N = Op.baseName();
  if (Op.tensorReturns() == 0)
    return ResultDType::Unknown;
  if (listed(BoolResult, N))
    return ResultDType::Bool;
  if (listed(Int64Result, N))
    return ResultDType::Int64;
  if (Op.isOut())
    return ResultDType::Unknown;
  if (Op.isInPlace() || listed(SelfDType, N))
    return ResultDType::Self;
  if (Op.returnsView())
    return listed(DTypeChangingViews, N) || hasArgument(Op, "dtype")
               ? ResultDType::Unknown
               : ResultDType::Self;
  return ResultDType::Promoted;
}

// Each return's dtype for an op of several tensor results (not an `out`
// variant, which writes tensors it is given): int64 `indices`, a
// DTypeKeepingReturns name its first tensor's, unknown otherwise.
llvm::SmallVector<ResultDType, 4> returnDTypes(const OpSchema &Op) {
  llvm::SmallVector<ResultDType, 4> Out;
  if (Op.Returns.size() < 2 || Op.isOut() ||
      listed(ComplexResultOps, Op.baseName()))
    return Out;
  for (const OpSchema::Argument &R : Op.Returns)
    Out.push_back(R.Ty != OpSchema::Type::Tensor        ? ResultDType::Unknown
                  : R.Name == "indices"                 ? ResultDType::Int64
                  : listed(DTypeKeepingReturns, R.Name) ? ResultDType::Self
                                                        : ResultDType::Unknown);
  return Out;
}

ResultRank rankRule(const OpSchema &Op) {
  llvm::StringRef N = Op.baseName();
  if (listed(PointwiseOps, N))
    return ResultRank::Broadcast;
  if (listed(SameRankOps, N) || listed(LikeFactories, N))
    return ResultRank::Same;
  if (listed(Reductions, N))
    return hasArgument(Op, "dim") ? ResultRank::Reduce : ResultRank::Scalar;
  if (N == "view" || N == "reshape" || N == "expand")
    return hasArgument(Op, "size") || hasArgument(Op, "shape")
               ? ResultRank::Sizes
               : ResultRank::Unknown;
  if (N == "unsqueeze")
    return ResultRank::Unsqueeze;
  if (N == "select")
    return ResultRank::Select;
  if (N == "stack")
    return ResultRank::Stack;
  if (N == "cat" || N == "concat" || N == "concatenate")
    return ResultRank::Cat;
  if (N == "mm")
    return ResultRank::Matrix;
  if (N == "flatten" && !hasArgument(Op, "dims"))
    return ResultRank::Flatten;
  if (N == "view_as" || N == "reshape_as" || N == "expand_as")
    return ResultRank::Like;
  return ResultRank::Unknown;
}

//===----------------------------------------------------------------------===//
// Reading the translation unit.
//===----------------------------------------------------------------------===//

// `at::_ops::add_Tensor`: a record in namespace at::_ops.
bool isOpsStruct(const CXXRecordDecl *RD) {
  const auto *NS = RD ? dyn_cast<NamespaceDecl>(RD->getDeclContext()) : nullptr;
  if (!NS || !NS->getIdentifier() || NS->getName() != "_ops")
    return false;
  const auto *At = dyn_cast<NamespaceDecl>(NS->getDeclContext());
  return At && At->getIdentifier() && At->getName() == "at";
}

// The schema text of an at::_ops struct: its `schema_str` member's string.
llvm::StringRef schemaText(const CXXRecordDecl *RD) {
  for (const Decl *D : RD->decls())
    if (const auto *VD = dyn_cast<VarDecl>(D))
      if (VD->getIdentifier() && VD->getName() == "schema_str")
        if (const Expr *Init = VD->getInit())
          if (const auto *SL =
                  dyn_cast<StringLiteral>(Init->IgnoreParenImpCasts()))
            return SL->getString();
  return {};
}

// The calls a body makes, in order, with the bodies of its lambdas
// (instantiated ones too: detail::conv2d calls torch::conv2d from a generic
// lambda it hands std::visit).
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  std::vector<const CallExpr *> Calls;
  bool VisitCallExpr(CallExpr *CE) {
    if (CE->getDirectCallee() && !CE->isTypeDependent())
      Calls.push_back(CE);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    if (const FunctionTemplateDecl *T = LE->getDependentCallOperator())
      for (const FunctionDecl *Spec : T->specializations())
        if (Spec->getBody())
          TraverseStmt(Spec->getBody());
    return true;
  }
};

// `tensors[k]` of a local `tensors = broadcast_tensors({a, b})`: the k-th
// tensor of the list the view op was given, or null.
const Expr *listViewElement(const CXXOperatorCallExpr *OCE,
                            const FunctionDecl *FD) {
  if (OCE->getOperator() != OO_Subscript || OCE->getNumArgs() != 2)
    return nullptr;
  Expr::EvalResult Index;
  if (OCE->getArg(1)->isValueDependent() ||
      !OCE->getArg(1)->EvaluateAsInt(Index, FD->getASTContext()) ||
      Index.Val.getInt().isNegative())
    return nullptr;
  const uint64_t K = Index.Val.getInt().getZExtValue();
  const Expr *List = OCE->getArg(0)->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(List))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      List = analysis::keptInitialiser(VD, FD);
  // Through the vector's construction from the op's result.
  const auto *Call = dyn_cast_or_null<CallExpr>(analysis::strip(List));
  const FunctionDecl *Op = Call ? Call->getDirectCallee() : nullptr;
  if (!Op || !Op->getIdentifier() || !listed(ListViewOps, Op->getName()) ||
      Call->getNumArgs() < 1)
    return nullptr;
  // The op's list argument, written as a braced list.
  llvm::SmallVector<const Expr *, 4> Tensors =
      analysis::listElements(Call->getArg(0));
  return K < Tensors.size() ? Tensors[K] : nullptr;
}

// What an argument of a call inside FD is in terms of FD's own positions:
// 0 for FD's object (`*this`, `const_cast<Tensor&>(*this)`), 1 + i for its
// parameter i, -1 for anything else. \p Direct: the argument is that
// position itself, not a value computed from it (`options.dtype_opt()`).
int positionOf(const Expr *E, const FunctionDecl *FD, bool &Direct) {
  Direct = true;
  for (unsigned Depth = 0; E && Depth < 12; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CXXConstCastExpr>(E)) {
      E = C->getSubExpr();
      continue;
    }
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = B->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
        CE && CE->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(CE)) {
      E = CE->getArg(0);
      continue;
    }
    if (isa<CXXThisExpr>(E))
      return isa<CXXMethodDecl>(FD) ? 0 : -1;
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref &&
        isa<CXXThisExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
      return isa<CXXMethodDecl>(FD) ? 0 : -1;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        for (unsigned I = 0; I < FD->getNumParams(); ++I)
          if (FD->getParamDecl(I) == P)
            return static_cast<int>(1 + I);
      // A local that keeps what it was initialised with.
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (const Expr *Init = analysis::keptInitialiser(VD, FD)) {
          E = Init;
          continue;
        }
      return -1;
    }
    if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E))
      if (const Expr *Element = listViewElement(OCE, FD)) {
        E = Element;
        continue;
      }
    break;
  }
  // A value computed from one parameter: `options.dtype_opt()`.
  Direct = false;
  int Found = -1;
  llvm::SmallVector<const Stmt *, 8> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        for (unsigned I = 0; I < FD->getNumParams(); ++I)
          if (FD->getParamDecl(I) == P) {
            if (Found >= 0 && Found != static_cast<int>(1 + I))
              return -1; // computed from several: nothing
            Found = static_cast<int>(1 + I);
          }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Found;
}

} // namespace

llvm::SmallVector<const Expr *, 6> argumentsByPosition(const CallExpr *CE) {
  llvm::SmallVector<const Expr *, 6> Out;
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  unsigned First = 0;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
    Out.push_back(MCE->getImplicitObjectArgument());
  } else if (isa<CXXOperatorCallExpr>(CE) && MD && !MD->isStatic()) {
    Out.push_back(CE->getNumArgs() ? CE->getArg(0) : nullptr);
    First = 1;
  } else {
    Out.push_back(nullptr);
  }
  for (unsigned I = First; I < CE->getNumArgs(); ++I)
    Out.push_back(CE->getArg(I));
  return Out;
}

namespace {

int rolePriority(ArgumentRole::Kind K) {
  switch (K) {
  case ArgumentRole::CpuOnly:
    return 5;
  case ArgumentRole::Device:
    return 4;
  case ArgumentRole::CpuAllowed:
    return 3;
  case ArgumentRole::DType:
    return 2;
  case ArgumentRole::Options:
  case ArgumentRole::Scalar:
  case ArgumentRole::ReducedDims:
  case ArgumentRole::KeepDim:
    return 1;
  case ArgumentRole::None:
    return 0;
  }
  return 0;
}

// The roles the schema gives the arguments of one op call, by argument.
llvm::SmallVector<ArgumentRole, 8> schemaRoles(const OpSchema &Op) {
  llvm::SmallVector<ArgumentRole, 8> Roles;
  const bool Checks = !listed(NoDeviceCheck, Op.baseName());
  for (const OpSchema::Argument &A : Op.Arguments) {
    ArgumentRole R;
    R.Name = A.Name.c_str();
    switch (A.Ty) {
    case OpSchema::Type::Tensor:
    case OpSchema::Type::TensorList:
      // LibTorch checks the devices of positional and out= tensors only.
      if (A.KwargOnly && !A.Writes)
        break;
      if (isCpuOnlyArgument(Op.baseName(), A.Name))
        R.K = ArgumentRole::CpuOnly;
      else if (isCpuArgument(Op.baseName(), A.Name))
        R.K = ArgumentRole::CpuAllowed;
      else if (Checks)
        R.K = ArgumentRole::Device;
      // An op that compares no devices still runs where its `self` is.
      else if (Roles.empty() && A.Ty == OpSchema::Type::Tensor)
        R.K = ArgumentRole::Device;
      break;
    case OpSchema::Type::ScalarType:
      R.K = ArgumentRole::DType;
      break;
    case OpSchema::Type::Scalar:
      if (!A.KwargOnly)
        R.K = ArgumentRole::Scalar;
      break;
    case OpSchema::Type::Bool:
      if (A.Name == "keepdim")
        R.K = ArgumentRole::KeepDim;
      break;
    case OpSchema::Type::Int:
    case OpSchema::Type::IntList:
      if (A.Name == "dim" && listed(Reductions, Op.baseName()))
        R.K = ArgumentRole::ReducedDims;
      break;
    default:
      break;
    }
    Roles.push_back(R);
  }
  return Roles;
}

// The base name of the op an at::_ops::<op>::call names.
llvm::StringRef schemaOfCall(const CallExpr *CE) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (!MD || !isOpsStruct(MD->getParent()))
    return {};
  llvm::StringRef Text = schemaText(MD->getParent());
  llvm::StringRef Name =
      Text.take_until([](char C) { return C == '.' || C == '('; });
  if (Name.size() > 1 && Name.ends_with("_") && !Name.ends_with("__"))
    Name = Name.drop_back();
  return Name;
}

} // namespace

unsigned CallSemantics::deviceArguments() const {
  return static_cast<unsigned>(llvm::count_if(Roles, [](const ArgumentRole &R) {
    return R.K == ArgumentRole::Device;
  }));
}

AtenSemantics::AtenSemantics() = default;
AtenSemantics::~AtenSemantics() = default;

void AtenSemantics::reset() {
  Cache.clear();
  ByNameCache.clear();
  InProgress.clear();
}

CallSemantics
AtenSemantics::withOverlay(const OpSchema *Op,
                           llvm::SmallVector<ArgumentRole, 6> Roles) {
  CallSemantics S;
  S.Op = Op;
  S.Roles = std::move(Roles);
  if (!Op)
    return S;
  S.DTypeRule = dtypeRule(*Op);
  S.RankRule = rankRule(*Op);
  S.NonPromoting = listed(NonPromotingOps, Op->baseName());
  S.IntegerToFloat = listed(IntegerToFloatOps, Op->baseName()) &&
                     !hasArgument(*Op, "rounding_mode");
  // sqrt_ on an int64 tensor throws as div_ does: the float result cannot
  // be cast back.
  S.InPlacePromoted =
      Op->isInPlace() &&
      (listed(PromotingArithmetic, Op->baseName()) || S.IntegerToFloat);
  S.NeedsFloatingInput = listed(FloatingInputReductions, Op->baseName());
  S.ValuesAndIndices = Op->Returns.size() == 2 &&
                       Op->Returns[1].Name == "indices" &&
                       Op->Returns[0].Ty == OpSchema::Type::Tensor;
  S.ReturnDTypes = returnDTypes(*Op);
  if (listed(ClassIndexLosses, Op->baseName())) {
    for (unsigned P = 0; P < S.Roles.size(); ++P)
      if (llvm::StringRef(S.Roles[P].Name) == "target")
        S.ClassIndices = static_cast<int>(P);
    S.ProbabilitiesWhenSameShape = Op->baseName() == "cross_entropy_loss";
  }
  for (const IndexArgument &A : IndexArguments)
    if (A.Op == Op->baseName())
      for (unsigned P = 0; P < S.Roles.size(); ++P)
        if (llvm::StringRef(S.Roles[P].Name) == A.Arg) {
          S.Indices = static_cast<int>(P);
          S.IndicesInt32 = A.Int32Too;
        }
  return S;
}

const CallSemantics *
AtenSemantics::of(const FunctionDecl *FD,
                  llvm::function_ref<bool(QualType)> IsTensorType) {
  if (!FD)
    return nullptr;
  FD = FD->getCanonicalDecl();
  if (auto It = Cache.find(FD); It != Cache.end())
    return It->second.get();
  const CallSemantics *S = derive(FD, 0, IsTensorType);
  return S;
}

const CallSemantics *
AtenSemantics::derive(const FunctionDecl *FD, unsigned Depth,
                      llvm::function_ref<bool(QualType)> IsTensorType) {
  FD = FD->getCanonicalDecl();
  if (auto It = Cache.find(FD); It != Cache.end())
    return It->second.get();
  // Wrappers go a few levels deep (F::conv2d -> detail::conv2d ->
  // torch::conv2d -> at::_ops::conv2d); past that, or in a cycle, nothing.
  if (Depth > 6 || InProgress.count(FD))
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || !Def->getBody()) {
    Cache[FD] = nullptr;
    return nullptr;
  }
  InProgress[FD] = true;

  CallCollector Collector;
  Collector.TraverseStmt(const_cast<Stmt *>(Def->getBody()));

  const unsigned Positions = 1 + Def->getNumParams();
  llvm::SmallVector<ArgumentRole, 6> Roles(Positions);
  // The positions each inner call puts on one device, to tell a wrapper
  // that combines its tensors from one that uses them apart.
  llvm::SmallVector<llvm::SmallVector<int, 4>, 4> DeviceGroups;
  llvm::SmallVector<llvm::SmallVector<int, 4>, 2> NonPromotingGroups;
  llvm::SmallVector<const CallSemantics *, 4> Inner;
  // The calls that return a tensor and whose op is known: when some other
  // call returns one, the wrapper's result may be that call's.
  unsigned SeenTensorCalls = 0;
  const OpSchema *FirstOp = nullptr;
  auto Merge = [&](int Pos, ArgumentRole R) {
    if (Pos < 0 || static_cast<unsigned>(Pos) >= Positions)
      return;
    if (rolePriority(R.K) > rolePriority(Roles[Pos].K))
      Roles[Pos] = R;
  };

  for (const CallExpr *CE : Collector.Calls) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    llvm::SmallVector<const Expr *, 6> Args = argumentsByPosition(CE);
    llvm::SmallVector<ArgumentRole, 8> CalleeRoles;
    const CallSemantics *Sub = nullptr;
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    if (MD && MD->isStatic() && MD->getIdentifier() &&
        (MD->getName() == "call" || MD->getName() == "redispatch") &&
        isOpsStruct(MD->getParent())) {
      llvm::StringRef Text = schemaText(MD->getParent());
      if (Text.empty())
        continue;
      auto &Slot = Schemas[Text];
      if (!Slot)
        if (std::optional<OpSchema> Parsed = OpSchema::parse(Text))
          Slot = std::make_unique<OpSchema>(std::move(*Parsed));
      if (!Slot)
        continue;
      if (!FirstOp)
        FirstOp = Slot.get();
      Inner.push_back(nullptr);
      // A static call: the schema's arguments are the call's arguments.
      CalleeRoles.push_back(ArgumentRole()); // no object
      for (const ArgumentRole &R : schemaRoles(*Slot))
        CalleeRoles.push_back(R);
      // redispatch takes the dispatch key set first.
      if (MD->getName() == "redispatch")
        CalleeRoles.insert(CalleeRoles.begin() + 1, ArgumentRole());
    } else {
      // Another function of the tensor API (a wrapper's wrappee).
      const DeclContext *DC = Callee->getDeclContext();
      const NamespaceDecl *Outer = nullptr;
      for (; DC; DC = DC->getParent())
        if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
          Outer = NS;
      if (!Outer || !Outer->getIdentifier() ||
          (Outer->getName() != "at" && Outer->getName() != "torch"))
        continue;
      Sub = derive(Callee, Depth + 1, IsTensorType);
      if (!Sub)
        continue;
      if (!FirstOp)
        FirstOp = Sub->Op;
      Inner.push_back(Sub);
      CalleeRoles.assign(Sub->Roles.begin(), Sub->Roles.end());
    }
    // Both branches reach here only with the call's op known.
    SeenTensorCalls += IsTensorType(CE->getType());
    llvm::SmallVector<int, 4> Group;
    for (unsigned P = 0; P < CalleeRoles.size() && P < Args.size(); ++P) {
      const ArgumentRole &R = CalleeRoles[P];
      if (R.K == ArgumentRole::None || !Args[P])
        continue;
      // Through methods that keep their tensor's device and dtype
      // (F::linear passes `weight.t()`): the parameter itself.
      const Expr *Arg = Args[P];
      for (unsigned Through = 0; Through < 4; ++Through) {
        const Expr *Bare = Arg;
        for (unsigned K = 0; K < 4; ++K)
          Bare = Bare->IgnoreImplicit()->IgnoreParens();
        const auto *M = dyn_cast<CXXMemberCallExpr>(Bare);
        const CallSemantics *Kept =
            M && M->getMethodDecl()
                ? derive(M->getMethodDecl(), Depth + 1, IsTensorType)
                : nullptr;
        if (!Kept || Kept->DTypeRule != ResultDType::Self ||
            Kept->object().K != ArgumentRole::Device ||
            Kept->deviceArguments() != 1)
          break;
        Arg = M->getImplicitObjectArgument();
      }
      bool Direct = false;
      int Pos = positionOf(Arg, Def, Direct);
      if (Pos < 0)
        continue;
      if (Direct) {
        if (R.K == ArgumentRole::Device)
          Group.push_back(Pos);
        Merge(Pos, R);
      } else if (R.K == ArgumentRole::DType) {
        // `options.dtype_opt()`: the dtype comes from TensorOptions.
        Merge(Pos, {ArgumentRole::Options, R.Name});
      }
    }
    // A non-promoting op over the wrapper's own tensors makes the wrapper
    // one (F::linear's matmul of input and weight).
    if (Group.size() >= 2 &&
        (Sub ? Sub->NonPromoting
             : (FirstOp && Inner.back() == nullptr &&
                listed(NonPromotingOps, schemaOfCall(CE)))))
      NonPromotingGroups.push_back(Group);
    if (!Group.empty())
      DeviceGroups.push_back(std::move(Group));
  }
  InProgress.erase(FD);

  if (!FirstOp && Inner.empty()) {
    Cache[FD] = nullptr;
    return nullptr;
  }
  // A tensor the wrapper puts on a device only alone, in several separate
  // ops, is not combined with the others: keep a device role only for
  // positions that meet another one in an op, or when there is just one.
  llvm::SmallVector<bool, 6> Combined(Positions, false);
  for (const auto &G : DeviceGroups) {
    llvm::SmallVector<int, 4> Distinct(G.begin(), G.end());
    llvm::sort(Distinct);
    Distinct.erase(std::unique(Distinct.begin(), Distinct.end()),
                   Distinct.end());
    if (Distinct.size() >= 2)
      for (int P : Distinct)
        Combined[P] = true;
  }
  unsigned Devices = 0;
  for (const ArgumentRole &R : Roles)
    Devices += R.K == ArgumentRole::Device;
  if (Devices > 1)
    for (unsigned P = 0; P < Positions; ++P)
      if (Roles[P].K == ArgumentRole::Device && !Combined[P])
        Roles[P].K = ArgumentRole::None;
  // Only tensors take a device role (a wrapper may pass a number on).
  for (unsigned P = 1; P < Positions; ++P) {
    QualType T = Def->getParamDecl(P - 1)->getType();
    if ((Roles[P].K == ArgumentRole::Device ||
         Roles[P].K == ArgumentRole::CpuAllowed ||
         Roles[P].K == ArgumentRole::CpuOnly) &&
        !IsTensorType(T))
      Roles[P].K = ArgumentRole::None;
  }

  auto Result = std::make_unique<CallSemantics>(withOverlay(FirstOp, Roles));
  // A wrapper over several ops: its result's dtype is known only when they
  // all keep their tensor's (get_item's select, slice and index), its rank
  // only from one op.
  if (Inner.size() > 1 || (Inner.size() == 1 && Inner[0])) {
    bool AllSelf = true;
    bool OneOp = true;
    const OpSchema *Seen = nullptr;
    for (const CallSemantics *Sub : Inner) {
      ResultDType R = Sub ? Sub->DTypeRule : dtypeRule(*FirstOp);
      AllSelf &= R == ResultDType::Self;
      const OpSchema *Op = Sub ? Sub->Op : FirstOp;
      if (Seen && Op != Seen)
        OneOp = false;
      Seen = Op;
    }
    if (!OneOp) {
      Result->DTypeRule = AllSelf ? ResultDType::Self : ResultDType::Unknown;
      // Ops that keep their first tensor's rank or broadcast their tensors,
      // over one tensor of the wrapper's and numbers, keep its rank: the
      // reverse scalar operators (`1. - t` is empty_like(t).fill_(1.)
      // .sub_(t), ATen/TensorOperators.h).
      bool Keeps = true;
      for (const CallSemantics *Sub : Inner) {
        ResultRank R = Sub ? Sub->RankRule : rankRule(*FirstOp);
        Keeps &= R == ResultRank::Same || R == ResultRank::Broadcast;
      }
      unsigned Tensors = 0;
      for (const ParmVarDecl *P : Def->parameters())
        Tensors += IsTensorType(P->getType());
      if (const auto *MD = dyn_cast<CXXMethodDecl>(Def); MD && !MD->isStatic())
        Tensors += IsTensorType(QualType(MD->getParent()->getTypeForDecl(), 0));
      // (Broadcast, not Same: the numbers come first in the reverse
      // operators, and a number is no tensor of any rank.)
      const unsigned TensorCalls =
          llvm::count_if(Collector.Calls, [&](const CallExpr *CE) {
            return IsTensorType(CE->getType());
          });
      Result->RankRule = Keeps && Tensors == 1 && TensorCalls == SeenTensorCalls
                             ? ResultRank::Broadcast
                             : ResultRank::Unknown;
      Result->ValuesAndIndices = false;
      Result->ReturnDTypes.clear();
    } else if (Inner.size() == 1 && Inner[0]) {
      Result->DTypeRule = Inner[0]->DTypeRule;
      Result->RankRule = Inner[0]->RankRule;
      Result->ValuesAndIndices = Inner[0]->ValuesAndIndices;
      Result->ReturnDTypes = Inner[0]->ReturnDTypes;
      Result->NonPromoting = Inner[0]->NonPromoting;
      Result->InPlacePromoted = Inner[0]->InPlacePromoted;
      Result->IntegerToFloat = Inner[0]->IntegerToFloat;
      Result->NeedsFloatingInput = Inner[0]->NeedsFloatingInput;
    }
  }
  // The wrapper's first two device tensors meet in a non-promoting op.
  llvm::SmallVector<int, 2> FirstTwo;
  for (unsigned P = 0; P < Positions && FirstTwo.size() < 2; ++P)
    if (Result->Roles[P].K == ArgumentRole::Device)
      FirstTwo.push_back(static_cast<int>(P));
  if (FirstTwo.size() == 2)
    for (const auto &G : NonPromotingGroups)
      if (llvm::is_contained(G, FirstTwo[0]) &&
          llvm::is_contained(G, FirstTwo[1]))
        Result->NonPromoting = true;
  const CallSemantics *Out = Result.get();
  Cache[FD] = std::move(Result);
  return Out;
}

} // namespace clang::tidy::tensor

namespace clang::tidy::tensor {
namespace {
// The schemas of the LibTorch this project was built with, for code that
// does not include LibTorch (tt's API).
constexpr const char *BuiltinSchemaTexts[] = {
#include "AtenSchemas.inc"
    nullptr};

struct BuiltinTable {
  std::vector<OpSchema> Schemas;
  llvm::StringMap<llvm::SmallVector<unsigned, 4>> ByName;
  BuiltinTable() {
    for (const char *const *T = BuiltinSchemaTexts; *T; ++T)
      if (std::optional<OpSchema> S = OpSchema::parse(*T)) {
        ByName[S->Name].push_back(static_cast<unsigned>(Schemas.size()));
        Schemas.push_back(std::move(*S));
      }
    // Named-tensor overloads (sum.dim_DimnameList) last: their Dimname
    // arguments look like any other non-tensor to builtinSchema's match,
    // and the C++ API's integer-dim overloads are the ones code calls.
    for (auto &Entry : ByName)
      std::stable_partition(Entry.second.begin(), Entry.second.end(),
                            [&](unsigned I) {
                              return !llvm::StringRef(Schemas[I].Overload)
                                          .contains_insensitive("name");
                            });
  }
};
} // namespace

const CallSemantics *
AtenSemantics::byName(const FunctionDecl *FD,
                      llvm::ArrayRef<llvm::StringRef> Ops, bool IsMethod,
                      llvm::function_ref<bool(QualType)> IsTensorType) {
  FD = FD->getCanonicalDecl();
  if (auto It = ByNameCache.find(FD); It != ByNameCache.end())
    return It->second.get();
  llvm::SmallVector<bool, 6> Pattern;
  if (IsMethod)
    Pattern.push_back(true);
  for (const ParmVarDecl *P : FD->parameters())
    Pattern.push_back(IsTensorType(P->getType()));
  // Trailing defaulted non-tensor parameters may be the C++ API's own (tt's
  // SourceLoc), not the op's.
  unsigned Droppable = 0;
  for (unsigned I = FD->getNumParams(); I > 0; --I) {
    const ParmVarDecl *P = FD->getParamDecl(I - 1);
    if (!P->hasDefaultArg() || Pattern[Pattern.size() - 1 - Droppable])
      break;
    ++Droppable;
  }
  unsigned Covered = 0;
  const OpSchema *S = nullptr;
  for (llvm::StringRef Candidate : Ops)
    if ((S = builtinSchema(Candidate, Pattern, Droppable, &Covered)))
      break;
  // A reverse scalar operator (`1. - t`, `2 * t`) has no op of its own
  // (Scalar, Tensor) shape: it is the element-wise op of (Tensor, Scalar),
  // whose device, dtype and rank rules do not depend on the order.
  bool Swapped = false;
  if (!S && !IsMethod && FD->isOverloadedOperator() && Pattern.size() == 2 &&
      !Pattern[0] && Pattern[1] && !Ops.empty()) {
    const bool Reversed[] = {true, false};
    S = builtinSchema(Ops.front(), Reversed, 0, &Covered);
    Swapped = S && Covered == 2;
    if (!Swapped)
      S = nullptr;
  }
  if (!S) {
    ByNameCache[FD] = nullptr;
    return nullptr;
  }
  llvm::SmallVector<ArgumentRole, 8> ByArgument = schemaRoles(*S);
  if (Swapped)
    std::swap(ByArgument[0], ByArgument[1]);
  llvm::SmallVector<ArgumentRole, 6> Roles(1 + FD->getNumParams());
  unsigned Next = 0; // the schema's argument for the next position
  for (unsigned P = IsMethod ? 0 : 1; P < Roles.size(); ++P) {
    // Past what the schema covers (never more than its arguments): the
    // API's own parameters (SourceLoc).
    if (Next >= Covered)
      break;
    Roles[P] = ByArgument[Next++];
    if (P > 0 &&
        (Roles[P].K == ArgumentRole::Device ||
         Roles[P].K == ArgumentRole::CpuAllowed ||
         Roles[P].K == ArgumentRole::CpuOnly) &&
        !IsTensorType(FD->getParamDecl(P - 1)->getType()))
      Roles[P].K = ArgumentRole::None;
  }
  auto Owned =
      std::make_unique<CallSemantics>(withOverlay(S, std::move(Roles)));
  const CallSemantics *Out = Owned.get();
  ByNameCache[FD] = std::move(Owned);
  return Out;
}

const CallSemantics *AtenSemantics::remember(const FunctionDecl *FD,
                                             CallSemantics S) {
  auto Owned = std::make_unique<CallSemantics>(std::move(S));
  const CallSemantics *Out = Owned.get();
  Cache[FD->getCanonicalDecl()] = std::move(Owned);
  return Out;
}

llvm::ArrayRef<const char *> AtenSemantics::builtinSchemaTexts() {
  return llvm::ArrayRef(BuiltinSchemaTexts).drop_back(); // the nullptr
}

const OpSchema *
AtenSemantics::builtinSchema(llvm::StringRef Op,
                             llvm::ArrayRef<bool> TensorArguments,
                             unsigned Droppable, unsigned *CoveredOut) {
  static const BuiltinTable Table;
  auto It = Table.ByName.find(Op);
  if (It == Table.ByName.end())
    return nullptr;
  // The overload whose arguments are tensors exactly where the C++
  // function's are, the rest having defaults, that covers the most of the
  // C++ function's parameters (sum(dim, keepdim) is sum.dim_IntList, not
  // sum's dtype-only overload); the first of equals. The C++ API takes
  // keyword-only arguments positionally, after the others.
  const OpSchema *Best = nullptr;
  size_t BestCovered = 0;
  const size_t Required = TensorArguments.size() -
                          std::min<size_t>(Droppable, TensorArguments.size());
  // Whether S takes the first Covered arguments, the rest defaulted. A
  // droppable (defaulted) C++ parameter may only stand for an argument
  // that has a default too: tt's max(self, loc) is max(Tensor), not
  // max.dim with loc as its dim.
  auto Matches = [&](const OpSchema &S, size_t Covered) {
    for (unsigned I = 0; I < S.Arguments.size(); ++I) {
      const OpSchema::Argument &A = S.Arguments[I];
      const bool Tensor =
          A.Ty == OpSchema::Type::Tensor || A.Ty == OpSchema::Type::TensorList;
      const bool Defaulted = A.HasDefault || A.Optional;
      if (I < Covered
              ? Tensor != TensorArguments[I] || (I >= Required && !Defaulted)
              : !Defaulted)
        return false;
    }
    return true;
  };
  for (unsigned Index : It->second) {
    const OpSchema &S = Table.Schemas[Index];
    // F::conv2d(input, weight, options): the options are the C++ API's
    // own, and conv2d's bias is left to its default.
    for (size_t Covered = std::min(S.Arguments.size(), TensorArguments.size());
         Covered >= Required && (!Best || Covered > BestCovered); --Covered) {
      if (Matches(S, Covered)) {
        Best = &S, BestCovered = Covered;
        break;
      }
      if (Covered == 0)
        break;
    }
  }
  if (CoveredOut)
    *CoveredOut = static_cast<unsigned>(BestCovered);
  return Best;
}

} // namespace clang::tidy::tensor
