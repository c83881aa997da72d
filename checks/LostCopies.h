//===--- LostCopies.h - conversions lost in copies ------------------------===//
//
// `for (auto kv : batch) kv.second = kv.second.to(device);` converts each
// tensor and keeps the result in the loop's copy of the element, which dies
// at the end of the iteration: the container keeps its cpu tensors, as if
// the conversion's result had been discarded. The same holds for a
// parameter taken by value and reassigned (`void to_device(Tensor x) { x =
// x.to(d); }`): the caller's handle is not the parameter. The finder is
// syntactic and strict: every mention of the copy in its scope must be in
// such assignments, written as statements of the scope itself, so no read,
// reference, alias or later iteration can see the converted tensor.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_LOSTCOPIES_H
#define TENSOR_TIDY_CHECKS_LOSTCOPIES_H

#include "ApiModel.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::tensor {

/// One conversion whose result only a dying copy holds.
struct LostConversion {
  /// `copy.field = copy.field.to(...)` (or `copy = copy.to(...)`).
  const CXXOperatorCallExpr *Assign = nullptr;
  /// The conversion on its right.
  const CXXMemberCallExpr *Conversion = nullptr;
  /// The by-value copy: a range-for loop variable or a parameter.
  const VarDecl *Copy = nullptr;
  /// The loop whose element Copy copies; null for a parameter.
  const CXXForRangeStmt *Loop = nullptr;
};

/// The lost conversions in \p Fn's body: into its by-value parameters,
/// then into its range-for loops' variables. Nothing for a dependent body or
/// a constructor (its initialisers may read a parameter).
llvm::SmallVector<LostConversion, 2> findLostConversions(const FunctionDecl *Fn,
                                                         const ApiModel &Api);

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_LOSTCOPIES_H
