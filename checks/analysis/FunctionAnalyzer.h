//===--- FunctionAnalyzer.h - The analysis of one function body -----------===//
//
// Internal to the analysis. One FunctionAnalyzer computes the facts of one
// function body, in a context (the caller's arguments) or none. Its parts
// live in one file per job:
//   Semantics.cpp  what ATen's and tt's API calls give: factories,
//                  conversions, ops that combine tensors, module calls;
//   Transfer.cpp   how a statement changes the environment, and the sites
//                  recorded for the checks;
//   Solver.cpp     the worklist over the CFG to the fixed point;
//   Calls.cpp      calls into user code, followed with the caller's facts.
// DeviceDtypeAnalysis.cpp holds the per-TU cache and the public entry.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_FUNCTIONANALYZER_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_FUNCTIONANALYZER_H

#include "DeviceDtypeAnalysis.h"
#include "Environment.h"
#include "Escapes.h"
#include "Exprs.h"
#include "Session.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace clang::tidy::tensor::analysis {

/// c10::Device, tt::Device or a DeviceType enum (kCUDA converts to Device).
bool isDeviceLike(const ApiModel &Api, QualType T);
/// c10::ScalarType or tt::ScalarType.
bool isDTypeLike(const ApiModel &Api, QualType T);
/// c10::TensorOptions or tt::TensorOptions.
bool isOptionsLike(const ApiModel &Api, QualType T);

/// A tensor of a data-loader batch (`batch.data`, `batch.target`): on the
/// cpu, with at least one dimension.
TensorFact batchTensor(const ValueDecl *Batch);

/// The facts of Fn, analysed with Seed bound to its parameters (null: no
/// context), cached in \p S under SeedKey. Null on recursion or past the
/// budgets.
const FunctionFacts *analyzeIn(Session &S, const FunctionDecl *Fn,
                               ASTContext &Ctx, const ApiModel &Api,
                               const Env *Seed, const std::string &SeedKey);

class FunctionAnalyzer {
public:
  /// \p Seed, when given, holds the facts of Fn's parameters at entry (the
  /// caller's arguments); it must outlive run().
  FunctionAnalyzer(Session &S, const FunctionDecl *Fn, ASTContext &Ctx,
                   const ApiModel &Api, const Env *Seed = nullptr)
      : State(S), Fn(Fn), Ctx(Ctx), Api(Api), Seed(Seed) {}

  /// Solver.cpp: the facts of the body at the fixed point.
  FunctionFacts run();

private:
  // Pre-pass facts, flow-insensitive (Escapes.h).
  bool isEscaped(const ValueDecl *D) const { return Body.Escaped.contains(D); }
  const ValueDecl *resolveAlias(const ValueDecl *D) const {
    auto It = Body.Aliases.find(D);
    return It == Body.Aliases.end() ? D : It->second;
  }

  // Semantics.cpp: evaluation of expressions in the current environment.
  TensorFact evalTensor(const Expr *E);
  DeviceFact evalDevice(const Expr *E);
  DTypeFact evalDType(const Expr *E);
  OptionsFact evalOptions(const Expr *E);
  ModuleFact evalModule(const Expr *E);
  ModuleFact loadedModule(const CallExpr *CE);
  ModuleFact builtModule(const Expr *E);
  /// The tensors an options object written in place holds
  /// (`CrossEntropyFuncOptions().weight(w)`: w), appended to \p Out:
  /// arguments of its setters that take one tensor.
  void optionTensors(const Expr *A,
                     llvm::SmallVectorImpl<const Expr *> &Out) const;
  /// Whether this method moves or casts its own module (`to(device)` on
  /// `this`), which the caller's view of the module would miss.
  bool movesItself();
  /// The facts of a std::tuple or std::pair value's elements (tensors; other
  /// elements unknown), or nullopt when not known.
  std::optional<llvm::SmallVector<TensorFact, 4>> evalTuple(const Expr *E);
  /// Where the std::tuple or std::pair \p Tuple is tracked, element by
  /// element: a variable, or a tuple field the analysis follows (of `this`
  /// in ThisFields or a constructor, of a variable in its class's
  /// tensorSlots). Nullopt otherwise.
  std::optional<Key> tupleLocation(const Expr *Tuple) const;
  /// Element \p Element of tupleLocation(\p Tuple).
  std::optional<Key> tupleElementLocation(const Expr *Tuple,
                                          unsigned Element) const;
  /// The facts of the tensor slots (tensorSlots) of the struct value
  /// \p E, in their order, or nullopt when not known: a variable, a
  /// braced initialiser, a copy, or what a user function returns.
  std::optional<llvm::SmallVector<TensorFact, 4>> evalFields(const Expr *E);
  /// The fact that holds for every element of a std::vector of tensors
  /// (unreached: no element), unknown when not known.
  TensorFact evalElements(const Expr *E);
  /// The fact of every tensor an op returns as one `Tensor[]` from one
  /// tensor (x.chunk(3), torch::split(x, 2), x.unbind()): on that tensor's
  /// device, like its other results. Nullopt for any other expression.
  std::optional<TensorFact> evalListResult(const Expr *E);
  const ValueDecl *moduleVar(const Expr *E);
  /// A tracked std::vector variable and E reads one of its elements
  /// (v[i], v.at(i), v.front(), v.back()), or null.
  const ValueDecl *containerOf(const Expr *E) const;
  TensorFact lookupTensor(const Key &K);
  /// The tracked location E names: a variable, a member of one, an element
  /// of a tuple variable (std::get<I>(t), pair.first, a structured binding).
  std::optional<Key> tensorLocation(const Expr *E) const;
  TensorFact evalCall(const CallExpr *CE);
  TensorFact evalConversion(const CXXMemberCallExpr *MCE,
                            const TensorFact &Self);
  int reducedRank(int Rank, const Expr *Dims, const Expr *KeepDim) const;
  TensorFact evalApiCall(const CallExpr *CE, const CallSemantics &Sem);
  TensorFact combine(llvm::ArrayRef<const Expr *> Args,
                     llvm::ArrayRef<TensorFact> Facts, SourceLocation Loc);
  /// The operands of a combining call as ATen sees them: the elements of a
  /// braced list or of a vector of tensors each count.
  /// \p KeepScalars: C++ numbers count too (with an unknown fact), for
  /// type promotion.
  void combinedOperands(const Expr *A, llvm::SmallVectorImpl<Operand> &Out,
                        bool KeepScalars);
  bool isTensorExpr(const Expr *E) const {
    return E && Api.isTensorValueType(
                    E->getType().getNonReferenceType().getUnqualifiedType());
  }
  /// A tensor or a std::vector of tensors (a TensorList argument).
  bool isTensorOperand(const Expr *E) const {
    return E && (isTensorExpr(E) ||
                 Api.isInputVector(
                     E->getType().getNonReferenceType().getUnqualifiedType()));
  }
  bool isModuleCall(const CallExpr *CE, const Expr *&ModuleE,
                    const Expr *&Input) const;
  const Expr *unwrapArgument(const Expr *E) const;
  const Expr *unboxed(const Expr *E) const;
  /// The tensor slots of the object a method is called on (\p Object)
  /// where this body follows them, with the keys that hold them: a
  /// variable's (a struct of tensors, tensorSlots), or `this`'s in a
  /// method of a class whose fields are followed (ThisFields). Empty
  /// otherwise.
  llvm::SmallVector<std::pair<TensorSlot, Key>, 4>
  objectFields(const Expr *Object) const;
  /// A fact a callee computed, as this body can use it: a symbol that names
  /// a variable of another function (a callee's Device parameter the call
  /// did not bind) means nothing here, and is unknown.
  TensorFact inCallerTerms(TensorFact F) const;
  /// `Pca p(4);`: the tensor slots \p Slots as the user's constructor
  /// leaves them (its MemberExits, followed with the arguments); one it
  /// does not set is unknown. Nullopt when it cannot be analysed.
  std::optional<ElementFacts>
  constructedFields(const CXXConstructExpr *CE,
                    llvm::ArrayRef<TensorSlot> Slots);
  // Inside a constructor of the member's class, the member is being set up:
  // what the class guarantees holds only once it is constructed.
  bool inConstructorOf(const FieldDecl *F) const {
    const auto *CD = dyn_cast<CXXConstructorDecl>(Fn);
    return CD && CD->getParent() == F->getParent();
  }

  // Calls.cpp.
  /// The user function \p CE runs, when the analysis may follow it
  /// (userCallee), with this body's exact class of `this`.
  const FunctionDecl *callee(const CallExpr *CE) const {
    return userCallee(CE, Api, Seed ? Seed->ExactThis : nullptr);
  }
  /// Analyses the user function \p Def that \p CE calls, with the facts of
  /// the arguments bound to its parameters when they say anything. Null
  /// when it cannot (recursion, depth or context budget). \p Seeded tells
  /// whether a context was used.
  /// \p ModuleCall: the call is a module call whose input the caller's
  /// site already judges against the module (its forward()).
  const FunctionFacts *follow(const CallExpr *CE, const FunctionDecl *Def,
                              bool *Seeded = nullptr, bool ModuleCall = false);
  /// follow()'s work for a call of \p Def with the written arguments
  /// \p Args (the first \p Offset of them the object of an operator
  /// method) on \p Object (null for a free function or a constructor).
  const FunctionFacts *followWith(const FunctionDecl *Def,
                                  llvm::ArrayRef<const Expr *> Args,
                                  unsigned Offset, const Expr *Object,
                                  bool *Seeded, bool ModuleCall);
  /// For a call of the lambda whose call operator is \p CallOp: binds in
  /// \p Context the facts of the variables it captures from this body
  /// that it does not change, and not in \p ChangedVars (those the call's
  /// arguments may change), and appends them to \p CtxKey. Whether any
  /// fact bound says something.
  bool bindCaptures(const CXXMethodDecl *CallOp,
                    const llvm::DenseSet<const ValueDecl *> &ChangedVars,
                    Env &Context, std::string &CtxKey);

  // Transfer.cpp: effects of one CFG element, applied in evaluation order.
  void transfer(const Stmt *S);
  /// A constructor's member initialiser: the tensor member's first value.
  void initialize(const CXXCtorInitializer *Init);
  void forget(const VarDecl *VD);
  void visit(const Stmt *S);
  /// Joins a `return` of a std::tuple or std::pair, or of a struct with
  /// tensor fields, into ReturnsTuple.
  void joinTupleReturn(const Expr *RV);
  void visitContainerCall(const CXXMemberCallExpr *MCE, const ValueDecl *V);
  void visitModuleMove(const CXXMemberCallExpr *MCE);
  /// `obj.fit(x)`, `this->reset()`: a non-const method of the user's on an
  /// object whose tensor fields this body follows (objectFields). They
  /// hold, after it, what the method leaves in them (its MemberExits when
  /// followed with what they held before); unknown when the analysis
  /// cannot follow its writes (followsFieldWrites) or the call.
  void visitObjectMethod(const CallExpr *CE, const CXXMethodDecl *MD,
                         const Expr *Object);
  void assign(const Expr *LHS, const Expr *RHS);
  void assignTensor(const Expr *LHS, const TensorFact &F);
  /// The \p Size elements tracked at \p K (a tuple variable or field) get
  /// what the tuple \p RHS holds (evalTuple); unknown where not known, and
  /// all unknown without \p RHS.
  void assignTuple(const Key &K, size_t Size, const Expr *RHS);
  /// The tensor slots \p Slots of the struct variable \p V get what the
  /// struct value \p RHS holds (evalFields); unknown where not known, and
  /// all unknown without \p RHS.
  void assignFields(const ValueDecl *V, llvm::ArrayRef<TensorSlot> Slots,
                    const Expr *RHS);
  void declare(const VarDecl *VD);
  void recordSites(const Expr *E);
  /// A site of kind \p K at the call \p CE in this body.
  Site newSite(Site::Kind K, const CallExpr *CE) const;
  /// An in-place arithmetic op's promoted result against its object
  /// (CallSemantics::InPlacePromoted); \p Args by position.
  void recordInPlaceCast(const CallExpr *CE, const CallSemantics &Sem,
                         llvm::ArrayRef<const Expr *> Args);
  /// The input of a reduction that needs a floating one
  /// (CallSemantics::NeedsFloatingInput), unless the call names a dtype.
  void recordFloatingInput(const CallExpr *CE, const CallSemantics &Sem,
                           llvm::ArrayRef<const Expr *> Args);
  /// In a forward() followed from its module's call (Seed->ThisJudged),
  /// of the module \p M a registered layer stands for, what the caller's
  /// site did not judge: its device when this body gave the input \p In a
  /// known device (`torch::arange(T)`, `x.cpu()`) that no parameter the
  /// caller bound is on, its dtype likewise; the rest unknown.
  ModuleFact unjudgedByCaller(const ModuleFact &M, const TensorFact &In) const;
  /// Records a RegisteredCopy site when \p Value, which the class member
  /// \p Member is assigned, converts what a registration returns.
  void recordRegisteredCopy(const FieldDecl *Member, const Expr *Value);
  /// Where a from_blob buffer's memory is, as far as the code shows it;
  /// when it shows, adds \p S's second operand (the host expression or
  /// the tensor) and, for an OpenCV image's `data`, sets Image and
  /// ImageElement (DeviceDtypeAnalysis.h).
  Site::Memory bufferMemory(const Expr *Buffer, Site &S);

  Session &State; // the translation unit's caches (Session.h)
  const FunctionDecl *Fn;
  ASTContext &Ctx;
  const ApiModel &Api;
  const Env *Seed;
  Env Cur;
  bool Recording = false;
  unsigned OptionsMemberDepth = 0; // evalOptions through member initialisers
  std::vector<Site> Sites;
  llvm::DenseSet<const CallExpr *> RecordedCalls;
  std::vector<FollowedCall> Calls;
  TensorFact Returns;
  ModuleFact ReturnsModule;
  std::optional<llvm::SmallVector<TensorFact, 4>> ReturnsTuple;
  bool TupleReturnUnknown = false; // a return whose elements are not known
  BodyFacts Body;
  /// In a method (or constructor) of a class whose tensor slots the
  /// analysis follows (tensorSlots): those slots, tracked at
  /// Key(nullptr, F, Element) as a constructor tracks its members.
  llvm::SmallVector<TensorSlot, 4> ThisFields;
  /// Whether \p F is a field of ThisFields.
  bool isThisField(const FieldDecl *F) const;
  /// The calls whose effect on their object was applied in this run of
  /// the current block (visitObjectMethod), and what following them gave
  /// before the effect (the callee's facts, and whether seeded): the call's
  /// value is that, not what the object holds after it.
  llvm::DenseSet<const CallExpr *> EffectsApplied;
  llvm::DenseMap<const CallExpr *, std::pair<const FunctionFacts *, bool>>
      AppliedCalls;
};

} // namespace clang::tidy::tensor::analysis

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_FUNCTIONANALYZER_H
