//===--- Escapes.h - What the device/dtype analysis cannot follow ---------===//
//
// The flow-insensitive pre-pass of the device/dtype analysis: which
// variables of a function body escape it (their device or dtype may change
// where the analysis does not look), which references alias which
// variables, which loop variables are data-loader batches. And, for the
// calls the analysis follows into user functions, which parameters a callee
// may leave on another device or dtype: passing a tensor or module by
// non-const reference to a helper that only reads it must not make the
// caller's facts unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_ESCAPES_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_ESCAPES_H

#include "../ApiModel.h"
#include "Environment.h"
#include "Exprs.h"
#include "Session.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::tensor::analysis {

/// Does a call of \p FD leave its arguments' devices and dtypes as they
/// were? True for the tensor API, except `load` (torch::load(model, path)
/// assigns the parameters the saved tensors, on the device they were saved
/// from).
bool keepsArguments(const FunctionDecl *FD, const ApiModel &Api);
/// The module or tensor variable \p Arg of `torch::load` names, which the
/// analysis follows across the load (unknown from there on); null for any
/// other argument, which escapes.
const ValueDecl *loadedVariable(const Expr *Arg, const ApiModel &Api);
/// Does \p FD, a standard function that takes forwarding references, only
/// copy (or, for an rvalue, move) its arguments into a new object?
/// make_tuple(h, c) and v.emplace_back(x) leave h, c and x as they were.
bool copiesArguments(const FunctionDecl *FD);
/// The number of a call's arguments before its callee's first parameter:
/// 1 for a member operator (its object), else 0.
unsigned objectArguments(const CallExpr *CE);

/// The pre-pass facts of one function body.
struct BodyFacts {
  /// Variables whose address is taken, that are captured by reference,
  /// bound to a non-const reference, or passed where the callee may change
  /// them: their facts are unknown everywhere in the body.
  llvm::DenseSet<const ValueDecl *> Escaped;
  /// Const references initialised from a variable: reference -> variable.
  llvm::DenseMap<const ValueDecl *, const ValueDecl *> Aliases;
  /// `for (auto &batch : *loader)`: batches straight from a data loader,
  /// and the examples of such a batch when the loader yields a vector of
  /// them (`for (const auto &example : batch)`).
  llvm::DenseSet<const ValueDecl *> BatchVars;
  /// `for (auto &batch : *loader)` where the loader yields a std::vector of
  /// examples (no Stack transform) and nothing in the body writes to them:
  /// `batch[i].data` is a cpu tensor.
  llvm::DenseSet<const ValueDecl *> BatchVectors;
  /// `for (const auto &t : tensors)` over a vector of tensors: loop
  /// variable -> the vector.
  llvm::DenseMap<const VarDecl *, const ValueDecl *> LoopElements;
  /// `for (auto &layer : layers_)` over a std::vector member of module
  /// handles: loop variable -> the member.
  llvm::DenseMap<const VarDecl *, const FieldDecl *> ModuleLoopElements;
};

/// Scans \p Fn's body (lambda bodies excluded: they are functions of their
/// own; branches under a constant condition that never run, too).
BodyFacts scanBody(Session &S, const FunctionDecl *Fn, const ApiModel &Api);

/// The definition a call runs when the analysis may follow it: a function or
/// method declared outside system headers and outside the tensor API, with a
/// body, that is no template pattern (an instantiation is fine). A virtual
/// method is followed only where the code fixes which overrider runs: a
/// qualified call (`Base::f()`), a final overrider, or an object whose class
/// is exactly known (exactClassOf), as clang's devirtualisation does. Null
/// for anything else.
/// \p ExactThis: the exact class of `this` in the calling body, when the
/// caller's own call fixed it (null: not known).
const FunctionDecl *userCallee(const CallExpr *CE, const ApiModel &Api,
                               const CXXRecordDecl *ExactThis = nullptr);

/// The class an object expression's dynamic type is exactly: a variable or
/// member of class type (not a reference or pointer) or a class prvalue, as
/// clang's CXXMethodDecl::getDevirtualizedMethod trusts; \p ExactThis for
/// `this`. Null when a derived class may stand behind it.
const CXXRecordDecl *exactClassOf(const Expr *Object,
                                  const CXXRecordDecl *ExactThis);

/// May a call to \p Def leave what its parameter \p Param refers to (a
/// reference, pointer or module handle parameter) on another device or
/// dtype, or rebind it? True when the parameter escapes in \p Def (by the
/// rules of scanBody, applied to Def's own callees in turn), is assigned,
/// or is the object of a module move (`to`, `cuda`, `half`...), of a
/// tensor's `set_`/`set_data`/`swap`, or of a non-const method of user
/// code whose body moves or hands out its object (a method defined in
/// another translation unit is taken to keep it). Conservatively true for
/// recursive calls. Cached in \p S.
bool mayChangeParam(Session &S, const FunctionDecl *Def,
                    const ParmVarDecl *Param, const ApiModel &Api);

/// May running the lambda whose call operator is \p CallOp change \p Var,
/// a variable it captures, as mayChangeParam says of parameters: assign it
/// (by reference), move or hand out the module a captured handle shares, or
/// rebind a captured tensor in place? For a generic lambda, whether one of
/// its instantiations may.
bool mayChangeCapture(Session &S, const CXXMethodDecl *CallOp,
                      const ValueDecl *Var, const ApiModel &Api);

/// Can a parameter of type \p T reach the caller's variable? A non-const
/// reference or a pointer can, and so can a module handle, which shares its
/// module; a tensor by value or by const reference cannot (assigning a
/// Tensor parameter rebinds the callee's own handle).
bool reachesCallersVariable(QualType T, const ApiModel &Api);

/// One tensor a class holds by value: a Tensor field, or element \c Element
/// of a field that is a std::tuple or std::pair of tensors (an LSTM's
/// `(h, c)` state kept in a member).
struct TensorSlot {
  const FieldDecl *Field = nullptr;
  int Element = -1; // -1: the field is a Tensor
  /// Where the slot of \p Object's value is tracked (null: `this`).
  Key of(const ValueDecl *Object) const { return Key(Object, Field, Element); }
  /// `.x=` or `.state.1=`, for a calling-context key.
  std::string keyName() const;
};

/// Whether one of \p Slots is (an element of) the field \p F.
bool hasField(llvm::ArrayRef<TensorSlot> Slots, const FieldDecl *F);

/// The tensor slots of \p T when it is a class of the user's that holds
/// tensors by value (`struct Batch { torch::Tensor x, y; };`, or a
/// `std::tuple<Tensor, Tensor> hidden_;` member), in declaration order;
/// empty for any other type: a reference, a tuple, a module, the tensor
/// API's own classes (torch::data::Example), and a class with a mutable
/// tensor field, which a const method may change.
llvm::SmallVector<TensorSlot, 4> tensorSlots(QualType T, const ApiModel &Api);

/// Whether the field \p F of an object of type \p T is followed by the
/// analysis: one of its tensorSlots.
bool isSlotField(QualType T, const FieldDecl *F, const ApiModel &Api);

/// Does every change the method \p MD may make to its object's tensor slots
/// (tensorSlots of its class) show in its body, so that the analysis
/// follows it (FunctionFacts::MemberExits)? Those are assignments outside
/// lambdas, in-place ops of the tensor API, and calls on `this` of methods
/// of the same class of which this holds too. False when `this` is used
/// otherwise (handed out, returned, captured by a lambda), when a tensor
/// field is (its address taken, bound to a non-const reference, set_data),
/// for a virtual call on `this`, a method of another class on `this`, a
/// body not in this translation unit, and a class whose fields are not
/// followed. Cached in \p S.
bool followsFieldWrites(Session &S, const CXXMethodDecl *MD,
                        const ApiModel &Api);

/// Does \p Def rebind the tensor behind its parameter \p Param in place
/// (`set_data`, `set_`)? A by-value handle shares its TensorImpl with the
/// caller's, so that changes the caller's tensor too. True for a function
/// without a body here. One walk of the body per function, cached in \p S.
bool rebindsParam(Session &S, const FunctionDecl *Def, const ParmVarDecl *Param,
                  const ApiModel &Api);

/// May \p MD, a method of a module class, move its module or a module
/// member, directly or through the methods it calls on its object (a body
/// that hands out `*this` counts)? False for a method whose body is not in
/// this translation unit. Cached in \p S.
bool mayMoveItsModule(Session &S, const CXXMethodDecl *MD, const ApiModel &Api);

/// Does the module class's own forward() convert its input (`x.to(...)`,
/// `x.cuda()`, `x.half()`, ... on its first tensor parameter, directly or
/// after other tensor methods)? Then an input on another device or dtype is
/// what it expects. False when forward has no body here.
bool forwardConvertsInput(const CXXRecordDecl *Module, const ApiModel &Api);

} // namespace clang::tidy::tensor::analysis

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_ESCAPES_H
