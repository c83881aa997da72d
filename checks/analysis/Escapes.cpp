//===--- Escapes.cpp - What the device/dtype analysis cannot follow -------===//

#include "Escapes.h"
#include "Members.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include <map>
#include <optional>
#include <string>

namespace clang::tidy::tensor::analysis {

bool keepsArguments(const FunctionDecl *FD, const ApiModel &Api) {
  return Api.isApiFunction(FD) && !Api.isLoadFunction(FD);
}

unsigned objectArguments(const CallExpr *CE) {
  return isa<CXXOperatorCallExpr>(CE) &&
                 isa_and_nonnull<CXXMethodDecl>(CE->getDirectCallee())
             ? 1
             : 0;
}

bool copiesArguments(const FunctionDecl *FD) {
  return isStdAnyOf(FD, {"make_tuple", "make_pair", "emplace_back", "emplace",
                         "make_shared", "make_unique"});
}

namespace {

bool mayChangeThis(Session &S, const CXXMethodDecl *MD, const ApiModel &Api);

// A method of user code that may change its object: not const, not static,
// not the tensor API's, not a module's forward (module calls never move the
// module), and with a body that moves or hands out its object or a module
// member.
bool mayChangeObject(Session &S, const CXXMethodDecl *MD, const ApiModel &Api) {
  return MD && !MD->isConst() && !MD->isStatic() && !Api.isApiFunction(MD) &&
         !Api.isModuleForward(MD) && mayChangeThis(S, MD, Api);
}

bool isModuleCallee(const FunctionDecl *FD, const ApiModel &Api) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD)
    return false;
  if (Api.isModuleForward(MD))
    return true;
  return MD->getOverloadedOperator() == OO_Call &&
         (Api.isModuleClass(MD->getParent()) ||
          Api.isModuleHolder(MD->getParent()));
}

// A module no other handle shares yet: what an API function returns by
// value (torch::jit::load(path, device)) or a holder built from arguments
// (nn::Linear(4, 2)). `module = torch::jit::load(...)` after
// `torch::jit::script::Module module;` then rebinds nothing anyone else
// holds, where `a = b` leaves two handles on one module.
bool isFreshModule(const Expr *E, const ApiModel &Api) {
  E = strip(E);
  if (const auto *CE = dyn_cast_or_null<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    return FD && !isa<CXXMethodDecl>(FD) && Api.isApiFunction(FD) &&
           !FD->getReturnType()->isReferenceType();
  }
  if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(E))
    return !C->getConstructor()->isCopyOrMoveConstructor() &&
           Api.isModuleHolder(C->getConstructor()->getParent());
  return false;
}

class EscapeScanner : public RecursiveASTVisitor<EscapeScanner> {
public:
  EscapeScanner(Session &S, BodyFacts &Out, const ApiModel &Api,
                ASTContext &Ctx)
      : Out(Out), S(S), Api(Api), Ctx(Ctx) {}

  bool shouldVisitLambdaBody() const { return false; }

  // A branch under a constant condition that never runs, as the solver's
  // CFG prunes it (PruneTriviallyFalseEdges): `if (kRestoreFromCheckpoint)
  // torch::load(model, ...)` with the flag a false constant loads nothing.
  bool TraverseIfStmt(IfStmt *S) {
    const Expr *Cond = S->getCond();
    bool Value = false;
    if (!S->isConstexpr() && !S->getConditionVariable() && Cond &&
        !Cond->isValueDependent() && !Cond->HasSideEffects(Ctx) &&
        Cond->EvaluateAsBooleanCondition(Value, Ctx)) {
      if (!TraverseStmt(S->getInit()) || !TraverseStmt(S->getCond()))
        return false;
      return TraverseStmt(Value ? S->getThen() : S->getElse());
    }
    return RecursiveASTVisitor::TraverseIfStmt(S);
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf)
      escape(UO->getSubExpr());
    return true;
  }
  // A lambda that may change what it captures (assigns it, moves the
  // module, hands it on) changes it whenever it runs, which this body does
  // not show. One that only reads it leaves it to this body: `[&] { return
  // loss_fn(model(x), y); }` keeps model where the body put it. A copy of a
  // module handle shares the module; a copied tensor shares its TensorImpl,
  // which set_data rebinds.
  bool VisitLambdaExpr(LambdaExpr *LE) {
    const CXXMethodDecl *CallOp = LE->getCallOperator();
    for (auto [C, Init] : llvm::zip(LE->captures(), LE->capture_inits())) {
      if (!C.capturesVariable())
        continue;
      const ValueDecl *V = C.getCapturedVar();
      if (mayChangeCapture(S, CallOp, V, Api))
        Out.Escaped.insert(V);
      else if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(
                   Init ? Init->IgnoreImplicitAsWritten()->IgnoreParens()
                        : nullptr))
        ArgCopies.insert(Copy);
    }
    return true;
  }
  // Another handle or object that holds a copy of a module handle shares
  // the module: `Net other = model;`, `trainer = Trainer(model);`.
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    // A user struct's copy leaves its source alone; a copy of a module
    // handle (a TORCH_MODULE holder of the user's too) shares its module.
    if (!Ctor || ArgCopies.contains(CE) ||
        (Ctor->isCopyOrMoveConstructor() && !Api.isApiFunction(Ctor) &&
         !Api.isModuleHandleType(CE->getType())))
      return true;
    for (const Expr *Arg : CE->arguments())
      if (Api.isModuleHandleType(Arg->getType()))
        escape(Arg);
    return true;
  }
  // `std::vector<Net> nets{model};`, `Pair p{encoder, decoder};`: the
  // elements are copies of the handles (the syntactic form names them).
  bool VisitInitListExpr(InitListExpr *ILE) {
    for (const Expr *Init : ILE->inits())
      if (Init && Api.isModuleHandleType(Init->getType()) &&
          !isFreshModule(Init, Api))
        escape(Init);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign &&
        Api.isModuleHandleType(BO->getRHS()->getType()))
      escape(BO->getRHS()), escape(BO->getLHS());
    if (BO->isAssignmentOp())
      escapeElementMember(BO->getLHS());
    return true;
  }
  // x.set_data(y), x.set_(y), x.swap(y): x becomes another tensor, which
  // the transfer functions do not follow.
  // model.ptr(), model->apply(fn): the module handed to code that may move
  // it. parent->register_module("fc", fc): fc moves with parent now.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (Api.isRebindingMethod(MD) || Api.isModuleSharingMethod(MD))
      escape(MCE->getImplicitObjectArgument());
    Rebinds |= Api.isRebindingMethod(MD);
    if (Api.isModuleTensorAccessor(MD))
      if (const ValueDecl *D = objectVar(MCE->getImplicitObjectArgument()))
        TensorsTaken.push_back(D);
    if (Api.registration(MD) == ApiModel::Registration::Module &&
        MCE->getNumArgs() >= 2)
      escape(MCE->getImplicitObjectArgument()), escape(MCE->getArg(1));
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    QualType T = VD->getType();
    if (T->isReferenceType() && VD->getInit()) {
      if (const ValueDecl *Target = referencedVar(VD->getInit())) {
        if (T.getNonReferenceType().isConstQualified())
          Out.Aliases[VD] = Target;
        else
          Out.Escaped.insert(Target), Out.Escaped.insert(VD);
      } else if (!T.getNonReferenceType().isConstQualified()) {
        // auto &t = v[0]: writes through t change the vector.
        escape(VD->getInit());
      }
    }
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *FRS) {
    const VarDecl *LV = FRS->getLoopVariable();
    const Expr *Range = FRS->getRangeInit();
    if (!Range)
      return true;
    // `for (auto &layer : layers_)`: each layer of a vector member.
    if (const MemberExpr *ME = thisMemberExpr(Range);
        ME && Api.isModuleVector(ME->getType()))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
        Out.ModuleLoopElements[LV] = F;
        return true;
      }
    QualType LT = LV->getType();
    bool MutableRef =
        LT->isReferenceType() && !LT.getNonReferenceType().isConstQualified();
    // `for (const auto &t : tensors)`: each element of a vector of tensors;
    // `for (const auto &p : x.chunk(2))`: each element of a call's vector,
    // which the loop's hidden range variable holds.
    const ValueDecl *V = referencedVar(Range);
    if (const auto *RS = FRS->getRangeStmt();
        !V && RS && RS->isSingleDecl() && isa<CallExpr>(strip(Range)))
      V = dyn_cast<VarDecl>(RS->getSingleDecl());
    if (V && Api.isInputVector(
                 V->getType().getNonReferenceType().getUnqualifiedType())) {
      Out.LoopElements[LV] = V;
      if (MutableRef)
        Out.Escaped.insert(V);
      return true;
    }
    const CXXRecordDecl *RD = LT.getNonReferenceType()->getAsCXXRecordDecl();
    if (!RD)
      return true;
    // `for (const auto &example : batch)` over a batch vector.
    if (const ValueDecl *V = referencedVar(Range);
        V && Api.isBatchClass(RD) && BatchVectorCandidates.contains(V)) {
      ExampleLoops.push_back({LV, V});
      if (MutableRef)
        Out.Escaped.insert(V);
      return true;
    }
    // `for (auto& batch : *loader)`: a batch straight from a data loader. A
    // batch class iterated from anything else (a vector the user filled)
    // may hold tensors anywhere.
    Range = Range->IgnoreParenImpCasts();
    if (const auto *Deref = dyn_cast<CXXOperatorCallExpr>(Range);
        Deref && Deref->getOperator() == OO_Star && Deref->getNumArgs() == 1)
      Range = Deref->getArg(0);
    else if (const auto *UO = dyn_cast<UnaryOperator>(Range);
             UO && UO->getOpcode() == UO_Deref)
      Range = UO->getSubExpr();
    if (!Api.isDataLoaderType(Range->getType()))
      return true;
    if (Api.isBatchClass(RD))
      Out.BatchVars.insert(LV);
    else if (isBatchVector(RD))
      BatchVectorCandidates.insert(LV);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // The copy of a by-value argument is the parameter, judged below
    // (visited before the arguments themselves).
    for (const Expr *Arg : CE->arguments())
      if (const auto *Copy = dyn_cast<CXXConstructExpr>(
              Arg->IgnoreImplicitAsWritten()->IgnoreParens()))
        ArgCopies.insert(Copy);
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD) {
      for (const Expr *Arg : CE->arguments())
        escape(Arg);
      return true;
    }
    // std::get<I>(t) only reads; what is done with the element it returns
    // is judged where it is used (an assignment, a reference bound to it).
    if (tupleGet(CE))
      return true;
    // The copy of a module handle still shares the module.
    if (copiesArguments(FD)) {
      for (const Expr *Arg : CE->arguments())
        if (Api.isModuleHandleType(Arg->getType()))
          escape(Arg);
      return true;
    }
    // `std::tie(x, y) = f()` assigns x and y there and keeps no reference
    // (the assignment is visited before the tie).
    if (Unpacking.contains(CE))
      return true;
    if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE);
        OCE && OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2) {
      if (const CallExpr *Tie = tieCall(OCE->getArg(0)))
        Unpacking.insert(Tie);
      if (Api.isModuleHandleType(OCE->getArg(1)->getType()) &&
          !isFreshModule(OCE->getArg(1), Api))
        escape(OCE->getArg(0)), escape(OCE->getArg(1));
      escapeElementMember(OCE->getArg(0));
    }
    // A user method that may change its object (model->init(), say) may
    // move the module it is called on.
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
      if (mayChangeObject(S, MCE->getMethodDecl(), Api))
        if (const ValueDecl *D = objectVar(MCE->getImplicitObjectArgument()))
          if (Api.isModuleHandleType(D->getType()))
            Out.Escaped.insert(D);
    // batch.to(device), batch += other: a method of a struct of tensors
    // that may write its fields. The analysis follows the writes of a
    // method whose body shows them all (followsFieldWrites), on an object
    // whose class the call fixes (not virtual, or a variable held by
    // value); any other makes the struct unknown. The implicit copy and
    // move assignments are assignments (Transfer.cpp).
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && !MD->isConst() && !MD->isStatic() &&
        (MD->isUserProvided() ||
         !(MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()))) {
      const Expr *Object = nullptr;
      if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
        Object = MCE->getImplicitObjectArgument();
      else if (isa<CXXOperatorCallExpr>(CE) && CE->getNumArgs() >= 1)
        Object = CE->getArg(0);
      if (const ValueDecl *D = referencedVar(Object);
          D && !tensorSlots(D->getType().getNonReferenceType(), Api).empty()) {
        const auto *Def = dyn_cast_or_null<CXXMethodDecl>(userCallee(CE, Api));
        if (!Def || !followsFieldWrites(S, Def, Api) ||
            (MD->isVirtual() && D->getType()->isReferenceType()))
          Out.Escaped.insert(D);
      }
    }
    // torch::load(model, path): see keepsArguments. A module or tensor
    // variable loaded into is unknown from the load on, which the transfer
    // follows (`torch::load(model, path); model->to(device);` is where
    // the move puts it); anything else escapes.
    if (Api.isApiFunction(FD) && !keepsArguments(FD, Api)) {
      for (const Expr *Arg : CE->arguments())
        if (!loadedVariable(Arg, Api))
          escape(Arg);
      return true;
    }
    // The tensor API never rebinds a caller's tensor or module handle, and
    // a module call (forward, or a holder's operator() that forwards its
    // arguments) does not either, whatever its parameter types say.
    if (Api.isApiFunction(FD) || isModuleCallee(FD, Api))
      return true;
    // A user function that only reads what it is given leaves the caller's
    // facts as they were (mayChangeParam says which ones it may change).
    const FunctionDecl *Def = userCallee(CE, Api);
    unsigned Offset = objectArguments(CE);
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      if (I < Offset)
        continue;
      unsigned P = I - Offset;
      if (P >= FD->getNumParams()) {
        escape(CE->getArg(I)); // variadic
        continue;
      }
      bool MayModify =
          reachesCallersVariable(FD->getParamDecl(P)->getType(), Api);
      if (MayModify && Def && P < Def->getNumParams() &&
          !mayChangeParam(S, Def, Def->getParamDecl(P), Api))
        MayModify = false;
      // A handle by value shares the caller's TensorImpl: set_data on it
      // rebinds the caller's tensor too.
      if (!MayModify && Def && P < Def->getNumParams() &&
          rebindsParam(S, Def, Def->getParamDecl(P), Api))
        MayModify = true;
      // A module handle given to code the analysis does not follow
      // (vector::push_back, say) may be copied, and the copy moved later.
      if (!Def && Api.isModuleHandleType(CE->getArg(I)->getType()))
        MayModify = true;
      if (MayModify && !(isa<CXXOperatorCallExpr>(CE) && I == 0))
        escape(CE->getArg(I));
    }
    return true;
  }

  /// Call after the traversal.
  void finish() {
    // `for (auto &p : net->parameters()) p.set_data(p.data().cuda());`:
    // the parameters share the module's TensorImpls, so a rebinding in the
    // same body may have moved the module's own.
    if (Rebinds)
      Out.Escaped.insert(TensorsTaken.begin(), TensorsTaken.end());
    for (const ValueDecl *V : BatchVectorCandidates)
      if (!Out.Escaped.contains(V))
        Out.BatchVectors.insert(V);
    for (auto [Example, Batch] : ExampleLoops)
      if (Out.BatchVectors.contains(Batch))
        Out.BatchVars.insert(Example);
  }

private:
  // std::vector<Example<>>: what a loader without a Stack transform yields.
  bool isBatchVector(const CXXRecordDecl *RD) const {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
    if (!isStd(Spec, "vector") || Spec->getTemplateArgs().size() < 1 ||
        Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
      return false;
    return Api.isBatchClass(
        Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl());
  }
  // batch[i].data = x: the batch vector no longer holds the loader's.
  void escapeElementMember(const Expr *LHS) {
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(strip(LHS)))
      if (const ValueDecl *V = elementContainer(ME->getBase()))
        Out.Escaped.insert(V);
  }
  void escape(const Expr *E) {
    if (const ValueDecl *D = referencedVar(E))
      Out.Escaped.insert(D);
    // A member (`b.x`), a tuple's element (std::get<0>(state), and of a
    // tuple member: std::get<0>(b.state), b.state.first), or a vector's
    // (&v[0], f(v[0]) by non-const reference): the variable that holds it.
    const Expr *Part = strip(E);
    for (unsigned Depth = 0; Part && Depth < 4; ++Depth) {
      if (const ValueDecl *D = elementContainer(Part))
        Out.Escaped.insert(D);
      if (auto Get = tupleGet(Part))
        Part = strip(Get->second);
      else if (const auto *ME = dyn_cast<MemberExpr>(Part))
        Part = strip(ME->getBase());
      else
        break;
      if (const ValueDecl *D = referencedVar(Part))
        Out.Escaped.insert(D);
    }
    // `&*model`, `*model`: the handle behind the dereference.
    if (const ValueDecl *D = objectVar(E))
      Out.Escaped.insert(D);
  }
  llvm::DenseSet<const ValueDecl *> BatchVectorCandidates;
  llvm::SmallVector<std::pair<const VarDecl *, const ValueDecl *>, 2>
      ExampleLoops;
  BodyFacts &Out;
  Session &S;
  const ApiModel &Api;
  ASTContext &Ctx;
  llvm::DenseSet<const CXXConstructExpr *> ArgCopies;
  llvm::DenseSet<const CallExpr *> Unpacking; // std::tie(...) = ...
  // Modules whose parameters or buffers the body takes, and whether it
  // rebinds any tensor.
  llvm::SmallVector<const ValueDecl *, 2> TensorsTaken;
  bool Rebinds = false;
};

// Parameters a body changes in place: assigned, moved, set_data'd, or the
// object of a user method that may change it. A module handle parameter
// also counts as changed when it is used in any way but as the object of a
// call that keeps it, or as an argument that the callee keeps: a copy of a
// handle shares the module, and whoever holds the copy may move it later.
class ChangeScanner : public RecursiveASTVisitor<ChangeScanner> {
public:
  /// \p Tracked: the parameters of the body, and for a lambda's the
  /// variables it captures.
  ChangeScanner(Session &S, const llvm::DenseSet<const ValueDecl *> &Tracked,
                llvm::DenseSet<const ValueDecl *> &Changed, const ApiModel &Api)
      : Tracked(Tracked), Changed(Changed), S(S), Api(Api) {}

  bool shouldVisitLambdaBody() const { return false; }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      mark(BO->getLHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
    if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2)
      mark(OCE->getArg(0));
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (!MD)
      return true;
    const Expr *Obj = MCE->getImplicitObjectArgument();
    if (Api.isRebindingMethod(MD) || Api.isModuleMove(MD) ||
        mayChangeObject(S, MD, Api) || writesFields(MD, Obj))
      mark(Obj);
    else
      keep(Obj);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    bool IsApi = keepsArguments(FD, Api);
    const FunctionDecl *Def = IsApi ? nullptr : userCallee(CE, Api);
    unsigned Offset = objectArguments(CE);
    // `batch += other` with the struct's own operator.
    if (Offset == 1 && writesFields(dyn_cast<CXXMethodDecl>(FD), CE->getArg(0)))
      mark(CE->getArg(0));
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      if (IsApi)
        keep(CE->getArg(I));
      else if (Def && I >= Offset && I - Offset < Def->getNumParams() &&
               !mayChangeParam(S, Def, Def->getParamDecl(I - Offset), Api))
        keep(CE->getArg(I));
    }
    return true;
  }
  // A lambda that may change what it captures changes it whenever it runs;
  // one that only reads it keeps it (its explicit capture names it).
  bool VisitLambdaExpr(LambdaExpr *LE) {
    for (auto [C, Init] : llvm::zip(LE->captures(), LE->capture_inits()))
      if (C.capturesVariable() && Tracked.contains(C.getCapturedVar())) {
        if (mayChangeCapture(S, LE->getCallOperator(), C.getCapturedVar(), Api))
          Changed.insert(C.getCapturedVar());
        else if (Init)
          keep(Init);
      }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (Tracked.contains(DRE->getDecl()) &&
        Api.isModuleHandleType(DRE->getDecl()->getType()))
      HandleUses.push_back(DRE);
    return true;
  }

  /// Call after the traversal.
  void finish() {
    for (const DeclRefExpr *DRE : HandleUses)
      if (!Kept.contains(DRE))
        Changed.insert(DRE->getDecl());
  }

private:
  // A method of the user's that may write the tensor fields of its object
  // (a struct of tensors, tensorSlots): any that is not const.
  bool writesFields(const CXXMethodDecl *MD, const Expr *Obj) const {
    return MD && Obj && !MD->isConst() && !MD->isStatic() &&
           !Api.isApiFunction(MD) &&
           !tensorSlots(Obj->getType().getNonReferenceType(), Api).empty();
  }
  void mark(const Expr *E) {
    E = strip(E);
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
      E = ME->getBase();
    if (const ValueDecl *V = objectVar(E); V && Tracked.contains(V))
      Changed.insert(V);
  }
  // A use that leaves the object as it is: model->parameters(), model(x),
  // torch::save(model, path).
  void keep(const Expr *E) {
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(throughDeref(E)))
      Kept.insert(DRE);
  }
  const llvm::DenseSet<const ValueDecl *> &Tracked;
  llvm::DenseSet<const ValueDecl *> &Changed;
  Session &S;
  const ApiModel &Api;
  llvm::SmallVector<const DeclRefExpr *, 8> HandleUses;
  llvm::DenseSet<const DeclRefExpr *> Kept;
};

// Does a method body move its object or a module member of it, or hand
// either to code that might (`this` as an argument, a captured `this`, a
// member module passed on or reassigned)?
class ThisScanner : public RecursiveASTVisitor<ThisScanner> {
public:
  ThisScanner(Session &S, const ApiModel &Api) : S(S), Api(Api) {}
  bool Changes = false;

  bool shouldVisitLambdaBody() const { return false; }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    const Expr *Obj = MCE->getImplicitObjectArgument();
    if (MD && (isThis(Obj) || isModuleField(Obj)) &&
        (Api.isModuleMove(MD) || mayChangeObject(S, MD, Api)))
      Changes = true;
    return !Changes;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    // Dereferencing a member handle (fc->, *fc) changes nothing.
    if (isDerefCall(CE))
      return true;
    bool IsApi = FD && keepsArguments(FD, Api);
    for (const Expr *Arg : CE->arguments())
      if (isThis(Arg) || (!IsApi && isModuleField(Arg)))
        Changes = true;
    return !Changes;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && isModuleField(BO->getLHS()))
      Changes = true;
    return !Changes;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
    if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2 &&
        (isThis(OCE->getArg(0)) || isModuleField(OCE->getArg(0))))
      Changes = true;
    return !Changes;
  }
  // A lambda that captures `this` does to it what its body does, wherever
  // it runs (`this` in the body is the captured object).
  bool VisitLambdaExpr(LambdaExpr *LE) {
    if (llvm::any_of(LE->captures(),
                     [](const LambdaCapture &C) { return C.capturesThis(); }))
      TraverseStmt(LE->getBody());
    return !Changes;
  }

private:
  static bool isThis(const Expr *E) {
    return isa_and_nonnull<CXXThisExpr>(throughDeref(E));
  }
  // A module member of this, possibly behind its handle: fc in fc->to().
  bool isModuleField(const Expr *E) const {
    const auto *ME = dyn_cast_or_null<MemberExpr>(throughDeref(E));
    return ME && isThis(ME->getBase()) && Api.isModuleHandleType(ME->getType());
  }
  Session &S;
  const ApiModel &Api;
};

// Beyond this many nested callees the answer is "may change".
constexpr unsigned MaxSummaryDepth = 8;

} // namespace

BodyFacts scanBody(Session &S, const FunctionDecl *Fn, const ApiModel &Api) {
  BodyFacts Out;
  EscapeScanner Scanner(S, Out, Api, Fn->getASTContext());
  Scanner.TraverseStmt(const_cast<Stmt *>(Fn->getBody()));
  Scanner.finish();
  return Out;
}

const CXXRecordDecl *exactClassOf(const Expr *Object,
                                  const CXXRecordDecl *ExactThis) {
  if (!Object)
    return nullptr;
  if (isa<CXXThisExpr>(Object->IgnoreParenImpCasts()))
    return ExactThis;
  // What clang's devirtualisation trusts (CXXMethodDecl::
  // getDevirtualizedMethod): a class prvalue, a variable or a member of
  // class type. Derived-to-base conversions are looked through.
  const Expr *Base = Object->getBestDynamicClassTypeExpr();
  if (!Base->getType()->isRecordType() || Base->getType()->isDependentType())
    return nullptr;
  bool Exact = Base->isPRValue();
  // The declaration's type, not the expression's: a reference's
  // expression has the class type too.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
    Exact = isa<VarDecl>(DRE->getDecl()) &&
            DRE->getDecl()->getType()->isRecordType();
  else if (const auto *ME = dyn_cast<MemberExpr>(Base))
    Exact = isa<FieldDecl>(ME->getMemberDecl()) &&
            ME->getMemberDecl()->getType()->isRecordType();
  const CXXRecordDecl *RD = Base->getType()->getAsCXXRecordDecl();
  return Exact && RD && RD->hasDefinition() ? RD : nullptr;
}

namespace {

// The method a call of the virtual \p MD runs, when the code fixes it: a
// qualified call (Base::f()) runs the one it names; any other the final
// overrider in the object's class, when that class is exactly known
// (exactClassOf) or when the overrider is final. Null otherwise: a class
// in another translation unit may override it.
const CXXMethodDecl *boundOverrider(const CallExpr *CE, const CXXMethodDecl *MD,
                                    const CXXRecordDecl *ExactThis) {
  const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE);
  const Expr *Object = MCE ? MCE->getImplicitObjectArgument() : nullptr;
  if (const auto *ME =
          MCE ? dyn_cast<MemberExpr>(MCE->getCallee()->IgnoreParens())
              : nullptr;
      ME && ME->hasQualifier())
    return MD;
  const CXXMethodDecl *R = nullptr;
  if (const CXXRecordDecl *Exact = exactClassOf(Object, ExactThis))
    R = MD->getCorrespondingMethodInClass(Exact);
  else if (MD->hasAttr<FinalAttr>() || MD->getParent()->isEffectivelyFinal())
    R = MD;
  return R && !R->isPureVirtual() ? R : nullptr;
}

} // namespace

const FunctionDecl *userCallee(const CallExpr *CE, const ApiModel &Api,
                               const CXXRecordDecl *ExactThis) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || Api.isApiFunction(FD))
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual()) {
    FD = boundOverrider(CE, MD, ExactThis);
    if (!FD || Api.isApiFunction(FD))
      return nullptr;
  }
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || Def->isDependentContext() ||
      Def->isInvalidDecl() || isa<CXXConstructorDecl, CXXDestructorDecl>(Def))
    return nullptr;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  SourceLocation Loc = Def->getLocation();
  if (Loc.isInvalid() || SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
    return nullptr;
  return Def;
}

bool reachesCallersVariable(QualType T, const ApiModel &Api) {
  return (T->isReferenceType() &&
          !T.getNonReferenceType().isConstQualified()) ||
         T->isPointerType() || Api.isModuleHandleType(T) ||
         T->isDependentType();
}

std::string TensorSlot::keyName() const {
  std::string Name = "." + Field->getNameAsString();
  if (Element >= 0)
    Name += "." + std::to_string(Element);
  return Name + "=";
}

llvm::SmallVector<TensorSlot, 4> tensorSlots(QualType T, const ApiModel &Api) {
  llvm::SmallVector<TensorSlot, 4> Out;
  if (T.isNull() || T->isReferenceType() || T->isDependentType())
    return Out;
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isLambda() || RD->isUnion())
    return Out;
  RD = RD->getDefinition();
  const SourceManager &SM = RD->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(RD->getLocation())) ||
      Api.isApiClass(RD) || Api.isModuleClass(RD) || tupleElementTypes(T))
    return Out;
  auto IsTensor = [&](QualType FT) {
    return Api.isTensorValueType(FT.getNonReferenceType().getUnqualifiedType());
  };
  for (const FieldDecl *F : RD->fields()) {
    QualType FT = F->getType().getUnqualifiedType();
    if (IsTensor(FT)) {
      if (F->isMutable())
        return {};
      Out.push_back({F, -1});
      continue;
    }
    // A tuple of tensors by value: each element a slot of its own.
    auto Types = FT->isReferenceType() ? std::nullopt : tupleElementTypes(FT);
    if (!Types || Types->empty() || !llvm::all_of(*Types, IsTensor) ||
        llvm::any_of(*Types, [](QualType E) { return E->isReferenceType(); }))
      continue;
    if (F->isMutable())
      return {};
    for (unsigned I = 0; I < Types->size(); ++I)
      Out.push_back({F, static_cast<int>(I)});
  }
  return Out;
}

bool hasField(llvm::ArrayRef<TensorSlot> Slots, const FieldDecl *F) {
  return llvm::any_of(Slots, [&](const TensorSlot &S) { return S.Field == F; });
}

bool isSlotField(QualType T, const FieldDecl *F, const ApiModel &Api) {
  return hasField(tensorSlots(T, Api), F);
}

const ValueDecl *loadedVariable(const Expr *Arg, const ApiModel &Api) {
  const ValueDecl *V = referencedVar(Arg);
  if (!V)
    return nullptr;
  QualType T = V->getType().getNonReferenceType().getUnqualifiedType();
  return Api.isModuleHandleType(T) || Api.isTensorValueType(T) ? V : nullptr;
}

bool rebindsParam(Session &S, const FunctionDecl *Def, const ParmVarDecl *Param,
                  const ApiModel &Api) {
  if (!Def->getBody())
    return true;
  auto Key = std::make_pair(Def, Api.configurationKey());
  auto [It, Inserted] = S.Escapes.Rebound.try_emplace(Key);
  if (Inserted) {
    class Rebinds : public RecursiveASTVisitor<Rebinds> {
    public:
      Rebinds(llvm::DenseSet<const ParmVarDecl *> &Found, const ApiModel &Api)
          : Found(Found), Api(Api) {}
      bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
        if (Api.isRebindingMethod(MCE->getMethodDecl()))
          if (const auto *P = dyn_cast_or_null<ParmVarDecl>(
                  referencedVar(MCE->getImplicitObjectArgument())))
            Found.insert(P);
        return true;
      }

    private:
      llvm::DenseSet<const ParmVarDecl *> &Found;
      const ApiModel &Api;
    };
    Rebinds R(It->second, Api);
    R.TraverseStmt(Def->getBody());
  }
  return It->second.contains(Param);
}

namespace {

// The variables a lambda's call operator captures.
llvm::SmallVector<const ValueDecl *, 4>
capturedVariables(const FunctionDecl *Fn) {
  llvm::SmallVector<const ValueDecl *, 4> Out;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Fn);
      MD && MD->getParent()->isLambda())
    for (const LambdaCapture &C : MD->getParent()->captures())
      if (C.capturesVariable())
        Out.push_back(C.getCapturedVar());
  return Out;
}

// What a body may change of its parameters and, for a lambda, of what it
// captures (ChangeScanner); null when not known (recursion, depth, no body):
// everything may change. Cached in \p S.
const llvm::DenseSet<const ValueDecl *> *
changedVariables(Session &S, const FunctionDecl *Def, const ApiModel &Api) {
  EscapeState &C = S.Escapes;
  auto Key = std::make_pair(Def, Api.configurationKey());
  if (auto It = C.Changed.find(Key); It != C.Changed.end())
    return It->second ? &*It->second : nullptr;
  // A generic lambda's call operator is a template: its calls on what it
  // captures may not be resolved.
  if (C.Depth >= MaxSummaryDepth || !Def->getBody() ||
      Def->isDependentContext())
    return nullptr;
  C.Changed[Key] = std::nullopt; // in progress
  ++C.Depth;
  llvm::DenseSet<const ValueDecl *> Tracked(Def->param_begin(),
                                            Def->param_end());
  for (const ValueDecl *V : capturedVariables(Def))
    Tracked.insert(V);
  llvm::DenseSet<const ValueDecl *> Changed;
  BodyFacts Facts = scanBody(S, Def, Api);
  for (const ValueDecl *V : Tracked)
    if (Facts.Escaped.contains(V))
      Changed.insert(V);
  ChangeScanner Scanner(S, Tracked, Changed, Api);
  Scanner.TraverseStmt(Def->getBody());
  Scanner.finish();
  --C.Depth;
  auto &Slot = C.Changed[Key];
  Slot = std::move(Changed);
  return &*Slot;
}

} // namespace

bool mayChangeParam(Session &S, const FunctionDecl *Def,
                    const ParmVarDecl *Param, const ApiModel &Api) {
  const llvm::DenseSet<const ValueDecl *> *Changed =
      changedVariables(S, Def, Api);
  return !Changed || Changed->contains(Param);
}

bool mayChangeCapture(Session &S, const CXXMethodDecl *CallOp,
                      const ValueDecl *Var, const ApiModel &Api) {
  if (!CallOp)
    return true;
  // A generic lambda: what its instantiations do (every one used in the
  // translation unit exists once it is parsed).
  if (const FunctionTemplateDecl *FT = CallOp->getDescribedFunctionTemplate()) {
    for (const FunctionDecl *Spec : FT->specializations())
      if (const auto *MD = dyn_cast<CXXMethodDecl>(Spec);
          !MD || mayChangeCapture(S, MD, Var, Api))
        return true;
    return false;
  }
  const llvm::DenseSet<const ValueDecl *> *Changed =
      changedVariables(S, CallOp, Api);
  return !Changed || Changed->contains(Var);
}

namespace {

// A method whose body is in another translation unit (the usual header and
// source split: model->decode(z), model->init_weights()) is taken to leave
// its module where it is: moving a module is what to() and cuda() are for,
// and a method that does it in a body the analysis cannot see would make
// every call to any method of a module defined elsewhere unknown. A body
// that is seen and moves the module counts.
bool mayChangeThis(Session &S, const CXXMethodDecl *MD, const ApiModel &Api) {
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def || Def->isDependentContext())
    return false;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return false;
  EscapeState &C = S.Escapes;
  auto Key = std::make_pair(Def, Api.configurationKey());
  if (auto It = C.ChangesThis.find(Key); It != C.ChangesThis.end())
    return !It->second || *It->second;
  if (C.Depth >= MaxSummaryDepth)
    return true;
  C.ChangesThis[Key] = std::nullopt; // in progress
  ++C.Depth;
  ThisScanner Scanner(S, Api);
  Scanner.TraverseStmt(Def->getBody());
  --C.Depth;
  C.ChangesThis[Key] = Scanner.Changes;
  return Scanner.Changes;
}

} // namespace

bool mayMoveItsModule(Session &S, const CXXMethodDecl *MD,
                      const ApiModel &Api) {
  return MD && mayChangeThis(S, MD, Api);
}

namespace {

// How a method body uses `this`: every use that is not the object of a
// member access or a method call (`x`, `this->x`, `m()`) hands the object
// out, and so does a lambda that captures it. And the methods it calls on
// `this`.
class ThisUses : public RecursiveASTVisitor<ThisUses> {
public:
  bool shouldVisitLambdaBody() const { return false; }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    Captured |= llvm::any_of(LE->captures(), [](const LambdaCapture &C) {
      return C.capturesThis();
    });
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *E) {
    All.push_back(E);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (const auto *T = dyn_cast<CXXThisExpr>(ME->getBase()->IgnoreParens()))
      Bases.insert(T);
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
    if (isa_and_nonnull<CXXThisExpr>(
            MCE->getImplicitObjectArgument()->IgnoreParenImpCasts()))
      if (const CXXMethodDecl *MD = MCE->getMethodDecl())
        Calls.push_back(MD);
    return true;
  }
  bool handsOut() const {
    return Captured || llvm::any_of(All, [&](const CXXThisExpr *E) {
             return !Bases.contains(E);
           });
  }
  llvm::SmallVector<const CXXMethodDecl *, 4> Calls;

private:
  bool Captured = false;
  llvm::SmallVector<const CXXThisExpr *, 8> All;
  llvm::DenseSet<const CXXThisExpr *> Bases;
};

} // namespace

bool followsFieldWrites(Session &S, const CXXMethodDecl *MD,
                        const ApiModel &Api) {
  const FunctionDecl *Def = nullptr;
  if (!MD || MD->isStatic() || !MD->hasBody(Def) || !Def ||
      Def->isDependentContext())
    return false;
  const CXXRecordDecl *C = MD->getParent();
  const ASTContext &Ctx = Def->getASTContext();
  auto Slots = tensorSlots(Ctx.getRecordType(C), Api);
  if (Slots.empty())
    return false;
  EscapeState &E = S.Escapes;
  auto Key = std::make_pair(Def, Api.configurationKey());
  if (auto It = E.FollowsWrites.find(Key); It != E.FollowsWrites.end())
    return It->second.value_or(false); // in progress: a recursion
  if (E.Depth >= MaxSummaryDepth)
    return false;
  E.FollowsWrites[Key] = std::nullopt;
  ++E.Depth;
  ThisUses Uses;
  Uses.TraverseStmt(Def->getBody());
  bool Follows = !Uses.handsOut();
  for (const TensorSlot &Slot : Slots)
    Follows = Follows && !writesMemberOutOfSight(Slot.Field, Def, Api);
  for (const CXXMethodDecl *Callee : Uses.Calls) {
    if (!Follows)
      break;
    if (Callee->isConst() || Callee->isStatic())
      continue; // a const method cannot write them (none is mutable)
    const bool Final = C->hasAttr<FinalAttr>() || Callee->hasAttr<FinalAttr>();
    Follows =
        Callee->getParent()->getCanonicalDecl() == C->getCanonicalDecl() &&
        (!Callee->isVirtual() || Final) && followsFieldWrites(S, Callee, Api);
  }
  --E.Depth;
  E.FollowsWrites[Key] = Follows;
  return Follows;
}

bool forwardConvertsInput(const CXXRecordDecl *Module, const ApiModel &Api) {
  for (const CXXMethodDecl *MD : Api.forwardMethods(Module)) {
    const FunctionDecl *Def = nullptr;
    if (!MD || !MD->hasBody(Def) || !Def)
      continue;
    const ParmVarDecl *Input = firstTensorParameter(Def, Api);
    if (!Input)
      continue;
    class Finder : public RecursiveASTVisitor<Finder> {
    public:
      Finder(const ParmVarDecl *Input, const ApiModel &Api)
          : Input(Input), Api(Api) {}
      bool Found = false;
      bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
        if (!Api.isOutOfPlaceConversion(MCE->getMethodDecl()))
          return true;
        // x.to(d), x.flatten(1).to(d): down the chain of tensor methods.
        const Expr *Obj = MCE->getImplicitObjectArgument();
        while (const auto *Inner =
                   dyn_cast_or_null<CXXMemberCallExpr>(strip(Obj)))
          Obj = Inner->getImplicitObjectArgument();
        Found |= referencedVar(Obj) == Input;
        return !Found;
      }

    private:
      const ParmVarDecl *Input;
      const ApiModel &Api;
    } F(Input, Api);
    F.TraverseStmt(Def->getBody());
    if (F.Found)
      return true;
  }
  return false;
}

} // namespace clang::tidy::tensor::analysis
