//===--- Exprs.h - Expressions as the user wrote them ---------------------===//
//
// The expression helpers the analysis and the checks share: one way to look
// through the nodes clang adds around a value (implicit casts, temporaries,
// copies), built on clang's IgnoreExpr steps, and the small readers of
// written arguments (braced lists, sizes, enumerators, constants).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_EXPRS_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_EXPRS_H

#include "ApiModel.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::tensor::analysis {

/// E without parentheses and the nodes that carry a value unchanged:
/// implicit casts, full expressions, materialized and bound temporaries
/// (clang's IgnoreImplicitSingleStep and IgnoreParensSingleStep).
const Expr *ignoreTransparent(const Expr *E);
/// ignoreTransparent, then through copy and move constructions as well:
/// the expression whose text names the value (`x` for a by-value `x`).
const Expr *writtenForm(const Expr *E);
/// writtenForm, through parentheses and functional casts too: the value as
/// the user wrote it, which the analysis evaluates.
const Expr *strip(const Expr *E);
/// The variable E names (through strip), or null.
const ValueDecl *referencedVar(const Expr *E);
/// An overloaded `->` or `*` of one argument: a handle's dereference, which
/// changes nothing.
bool isDerefCall(const Expr *E);
/// E without the dereferences of a handle: `model` for model->, *model and
/// (*model); for a module holder or smart pointer, the module's handle.
const Expr *throughDeref(const Expr *E);
/// The variable behind an object expression: referencedVar(throughDeref(E)).
const ValueDecl *objectVar(const Expr *E);

/// The container expression whose element E reads: `v` in v[i], v.at(i),
/// v.front(), v.back() (a variable or a member); null for anything else.
const Expr *elementContainerExpr(const Expr *E);
/// The variable whose element E reads (elementContainerExpr's, when it is a
/// variable); null for anything else.
const ValueDecl *elementContainer(const Expr *E);

/// A declaration of the C++ standard library with this name, or a member
/// of one of its classes (std::vector, std::make_tuple, vector::front,
/// pair::first). The analysis names standard library entities only through
/// this; the tensor API's names live in ApiModel.
bool isStd(const NamedDecl *D, llvm::StringRef Name);
/// isStd with any of \p Names.
bool isStdAnyOf(const NamedDecl *D,
                std::initializer_list<llvm::StringRef> Names);

/// The first parameter of \p Fn that takes a tensor (a module's input in
/// its forward()), or null.
const ParmVarDecl *firstTensorParameter(const FunctionDecl *Fn,
                                        const ApiModel &Api);

/// Arguments as written: defaulted ones (an allocator, say) left out.
llvm::SmallVector<const Expr *, 2> writtenArgs(const CXXConstructExpr *CE);
llvm::SmallVector<const Expr *, 2> writtenArgs(const CallExpr *CE);
/// Elements of a braced list or std::initializer_list argument; empty for
/// anything else.
llvm::SmallVector<const Expr *, 4> listElements(const Expr *E);
/// The number of sizes in a `{2, 3}` argument (0 for `{}`), 1 for a single
/// integer (an IntArrayRef built from one size); -1 otherwise.
int sizesRank(const Expr *E, const ApiModel &Api);
/// The nesting depth of a braced list of values (`{{1, 2}, {3, 4}}` is 2),
/// 0 for a single arithmetic value, 1 for a std::vector or ArrayRef of
/// them; -1 otherwise. \p Leaf, when given, receives the type of the
/// first value (what torch::tensor infers its dtype from).
int nestedListRank(const Expr *E, const ApiModel &Api,
                   QualType *Leaf = nullptr);

/// Two values of one braced list given to torch::tensor whose scalar types
/// differ: the list's first value and a later one. LibTorch's value
/// container takes each value's scalar type from its C++ type (float is
/// float32, double float64, int int32, int64_t int64) and throws
/// "Expected all elements of the tensor to have the same scalar type"
/// when a list's values disagree; it does not promote.
struct MixedValues {
  const Expr *First = nullptr;
  DType FirstType = DType::Float32;
  const Expr *Other = nullptr;
  DType OtherType = DType::Float32;
};
/// The first list in \p E, the values argument of torch::tensor, whose
/// values' scalar types are known and differ; nullopt when there is none
/// or the values are not all seen (a container variable, a copy).
std::optional<MixedValues> mixedValues(const Expr *E, const ApiModel &Api);
/// The value local variable \p VD of \p Fn keeps: its initialiser, when
/// the body never assigns it, takes its address or binds it to a mutable
/// reference (`auto expanded = tensors[0];`, `float *p = v.data();`); null
/// for a parameter, a reference, a variable without initialiser or one
/// written again.
const Expr *keptInitialiser(const VarDecl *VD, const FunctionDecl *Fn);
/// E names a member of `*this` (`layers_`, `this->device_`), as written:
/// no dereference is looked through. Its MemberExpr, or null.
const MemberExpr *thisMemberExpr(const Expr *E);
/// The enumerator E names, or null.
const EnumConstantDecl *enumConstant(const Expr *E);
/// The string literal E is, as written: through the std::string temporary
/// an argument such as `Device("cuda:1")`'s makes of it. Null otherwise.
const StringLiteral *writtenString(const Expr *E);
/// A constant global's initialiser (kCUDA, kHalf, kFloat32 = at::kFloat),
/// or null.
const Expr *constantInit(const Expr *E);

/// std::tuple or std::pair (of anything): the element types, or nullopt.
std::optional<llvm::SmallVector<QualType, 4>> tupleElementTypes(QualType T);
/// std::get<I>(E) on a std::tuple or std::pair: I and E; nullopt for any
/// other expression.
std::optional<std::pair<unsigned, const Expr *>> tupleGet(const Expr *E);

/// std::tie(a, b) (the tuple of references an assignment unpacks into): the
/// call; null for any other expression.
const CallExpr *tieCall(const Expr *E);

/// The elements of a tuple written in place: the arguments of
/// std::make_tuple / std::make_pair, of a std::tuple or std::pair
/// construction, or of a braced list of a tuple type; empty otherwise.
llvm::SmallVector<const Expr *, 4> tupleArguments(const Expr *E);

} // namespace clang::tidy::tensor::analysis

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_EXPRS_H
