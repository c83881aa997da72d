//===--- AtenSemantics.h - What an ATen call does to devices and dtypes ---===//
//
// The ATen semantics table: for a function or method of the tensor API,
// which of its arguments must share a device, which may stay on the cpu,
// which name a dtype, and what dtype its result has. ApiModel answers "what
// does this call do" from it; the analysis never compares an op's name.
//
// It is read from the op schemas of the LibTorch the translation unit
// includes. Every ATen function and Tensor method there is an inline
// wrapper whose body calls `at::_ops::<op>::call(...)`, and that struct's
// `schema_str` is the op's schema (OpSchema.h): the wrapper's parameters are
// mapped to the schema's arguments through that call. Wrappers over wrappers
// (torch::nn::functional::conv2d -> torch::conv2d, operator+ -> add) are
// followed through their bodies. Code that does not include LibTorch (tt's
// own API) finds the op by name in the schemas of the LibTorch this project
// was built with (AtenSchemas.inc), matched by which arguments are tensors.
//
// What schemas do not say comes from a small overlay, after ATen:
//  - arguments the CUDA build lets stay on the cpu: index/index_put_'s
//    indices, pack_padded_sequence's lengths, a packed sequence's
//    batch_sizes, ctc_loss's lengths; ops that do not compare devices at all
//    (to, copy_, set_, expand_as, ...);
//  - result dtypes other than type promotion: comparisons give bool, arg*
//    and index ops int64 (TensorIterator's and the ops' own rules);
//  - ops that refuse two floating dtypes instead of promoting (the matrix
//    products, convolutions, linear: aten/src/ATen/native/cuda/Blas.cpp,
//    Convolution.cpp);
//  - the number of dimensions of results (views, reductions, pointwise ops).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ATENSEMANTICS_H
#define TENSOR_TIDY_CHECKS_ATENSEMANTICS_H

#include "OpSchema.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include <memory>

namespace clang::tidy::tensor {

/// What one argument of a C++ API call is to the op it reaches.
struct ArgumentRole {
  enum Kind {
    None,       // not a tensor the op looks at, or not known
    Device,     // a tensor that must be on the op's device
    CpuAllowed, // a tensor the op lets stay on the cpu (indices, lengths)
    CpuOnly,    // a tensor the op requires on the cpu (a packed sequence's
                // lengths and batch_sizes)
    DType,      // a ScalarType naming the result's dtype (dtype=)
    Options,    // TensorOptions carrying dtype= or device=
    Scalar, // a number that takes part in type promotion (add.Scalar's other)
    ReducedDims, // the dims a reduction removes (sum.dim_IntList's dim)
    KeepDim,     // a reduction's keepdim flag
  };
  Kind K = None;
  /// The schema argument's name ("other", "weight"), for messages.
  const char *Name = "";
};

/// How an op's result dtype follows from its arguments.
enum class ResultDType {
  Unknown,  // not known (or not a tensor)
  Promoted, // type promotion over its device tensors (TensorIterator)
  Self,     // its first tensor's (views, in-place ops, shape ops)
  Bool,     // comparisons, isnan, logical_*
  Int64,    // argmax, nonzero, sort's indices...
};

/// How an op's result's number of dimensions follows from its arguments.
enum class ResultRank {
  Unknown,
  Broadcast, // pointwise: the most dimensions among its tensors
  Same,      // its first tensor's (permutations, copies)
  Scalar,    // 0-dim when called without a dim (sum(), max())
  Reduce,    // its first tensor's with keepdim, one fewer for one dim (sum(1))
  Sizes,     // the length of its sizes argument (view, reshape, expand)
  Unsqueeze, // one more
  Select,    // one fewer (select, x[i])
  Matrix,    // 2 (mm, t() of a matrix)
  Stack,     // one more than its tensors', at least 1
  Cat,       // its tensors', at least 1
  Vector,    // 1 (arange-like)
  Flatten,   // 1 when called without arguments (flatten())
  Like,      // its other tensor's (view_as, reshape_as, expand_as)
};

/// The semantics of one API function or method, as its callers see it.
struct CallSemantics {
  /// The op it calls, when it calls one (a wrapper of several ops gets the
  /// first).
  const OpSchema *Op = nullptr;
  /// Roles by position: [0] is the object of a method (None for a free
  /// function), [1 + i] its parameter i.
  llvm::SmallVector<ArgumentRole, 6> Roles;
  ResultDType DTypeRule = ResultDType::Unknown;
  ResultRank RankRule = ResultRank::Unknown;
  /// Two floating dtypes among its device tensors are an error, not a
  /// promotion ("expected mat1 and mat2 to have the same dtype").
  bool NonPromoting = false;
  /// An in-place arithmetic op (add_, mul_, div_, `x /= 255.0`): ATen
  /// computes the promoted dtype of its operands, as the out-of-place op
  /// would, and throws unless it can be cast to its object's
  /// (TensorIteratorBase::compute_types: "result type Float can't be cast
  /// to the desired output type Byte").
  bool InPlacePromoted = false;
  /// Computes in floating point: integer or bool inputs give the default
  /// float dtype (sqrt, sigmoid, exp, true division; ATen's
  /// promote_integer_inputs_to_float), floating ones are kept.
  bool IntegerToFloat = false;
  /// Returns several tensors, values then int64 indices (max(dim), sort).
  bool ValuesAndIndices = false;
  /// For an op that returns several tensors: each one's dtype, read from
  /// the names the schema gives them (returnDTypes); empty otherwise.
  llvm::SmallVector<ResultDType, 4> ReturnDTypes;
  /// The position in Roles of an argument ATen reads as int64 (or uint8)
  /// class indices: nll_loss's and the margin losses' target; -1 if none.
  int ClassIndices = -1;
  /// cross_entropy: a target of the input's shape holds class
  /// probabilities instead (any floating dtype), so only a target of
  /// another rank must be indices.
  bool ProbabilitiesWhenSameShape = false;
  /// The position in Roles of an index argument whose dtype ATen checks:
  /// gather's and scatter's index, embedding's indices; -1 if none.
  int Indices = -1;
  /// The index may be int32 as well as int64 (index_select, index_add,
  /// embedding); otherwise only int64.
  bool IndicesInt32 = false;
  /// A reduction that infers its result's dtype from a floating input only
  /// (mean, std, var): given an integer or bool tensor and no dtype=, ATen
  /// throws "mean(): could not infer output dtype".
  bool NeedsFloatingInput = false;

  const ArgumentRole &object() const { return Roles[0]; }
  const ArgumentRole &param(unsigned I) const {
    static const ArgumentRole NoRole;
    return 1 + I < Roles.size() ? Roles[1 + I] : NoRole;
  }
  /// The number of tensors that must share the op's device.
  unsigned deviceArguments() const;
};

/// The arguments of a call by the callee's positions, as CallSemantics
/// numbers them: [0] the object of a method call (null for a free
/// function), [1 + i] the argument for parameter i.
llvm::SmallVector<const Expr *, 6> argumentsByPosition(const CallExpr *CE);

/// The table for one translation unit: semantics are derived once per
/// declaration and kept until the next translation unit starts.
class AtenSemantics {
public:
  AtenSemantics();
  ~AtenSemantics();

  /// The semantics of \p FD (a function or method of the tensor API; see
  /// ApiModel::isApiFunction), or null when it reaches no ATen op.
  /// \p IsTensorType tells which C++ types are tensors (ApiModel's model).
  const CallSemantics *of(const FunctionDecl *FD,
                          llvm::function_ref<bool(QualType)> IsTensorType);

  /// The semantics of \p FD taken to be ATen's op of the first name in
  /// \p Ops that matches, in the built-in schemas, by which of its
  /// arguments are tensors (\p IsMethod: its object is `self`), for code
  /// whose LibTorch bodies are not there to follow (tt's API, clangd's
  /// preamble). Cached per declaration.
  const CallSemantics *byName(const FunctionDecl *FD,
                              llvm::ArrayRef<llvm::StringRef> Ops,
                              bool IsMethod,
                              llvm::function_ref<bool(QualType)> IsTensorType);

  /// Semantics made for \p FD by the caller (a CombiningFunctions entry),
  /// kept with the others.
  const CallSemantics *remember(const FunctionDecl *FD, CallSemantics S);

  /// Forgets every declaration: a new translation unit starts.
  void reset();

  /// The schema of \p Op by name from the built-in list (AtenSchemas.inc),
  /// whose tensor arguments match \p TensorArguments (by position, `self`
  /// first for methods), or null. The last \p Droppable of them are
  /// defaulted non-tensors that need not be the op's (tt's SourceLoc); of
  /// the overloads that match, the one covering the most arguments wins
  /// (how many, in \p Covered).
  static const OpSchema *builtinSchema(llvm::StringRef Op,
                                       llvm::ArrayRef<bool> TensorArguments,
                                       unsigned Droppable = 0,
                                       unsigned *Covered = nullptr);

  /// The texts of the built-in schemas (for the tests).
  static llvm::ArrayRef<const char *> builtinSchemaTexts();

  /// Semantics of a call of \p Op with the given roles: the overlay
  /// applied (exposed for the unit tests).
  static CallSemantics withOverlay(const OpSchema *Op,
                                   llvm::SmallVector<ArgumentRole, 6> Roles);

private:
  const CallSemantics *derive(const FunctionDecl *FD, unsigned Depth,
                              llvm::function_ref<bool(QualType)> IsTensorType);

  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<CallSemantics>> Cache;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<CallSemantics>>
      ByNameCache;
  /// Parsed schemas of the translation unit, by their text.
  llvm::StringMap<std::unique_ptr<OpSchema>> Schemas;
  llvm::DenseMap<const FunctionDecl *, bool> InProgress;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_ATENSEMANTICS_H
