//===--- Calls.cpp - Calls into user code ---------------------------------===//
//
// A call to a user function is followed with what the caller knows of its
// arguments: the callee is analysed with those facts bound to its
// parameters (a context), and cached per context for the translation unit.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalyzer.h"
#include "Members.h"

namespace clang::tidy::tensor::analysis {

//===----------------------------------------------------------------------===//
// Calls into user code.
//===----------------------------------------------------------------------===//

// A context's cache key: the facts, not their origins (which explain and do
// not change the outcome).
void appendKey(std::string &Key, const DeviceFact &D) {
  Key += std::to_string(static_cast<int>(D.Kind)) + (D.IsCuda ? "c" : "") +
         std::to_string(D.Index) + "@" +
         std::to_string(reinterpret_cast<uintptr_t>(D.Symbol)) +
         (D.SymbolMayBeCuda ? "" : "!") + ";";
}
void appendKey(std::string &Key, const DTypeFact &T) {
  Key += std::to_string(static_cast<int>(T.Kind)) + ":" +
         std::to_string(static_cast<int>(T.Type)) + "@" +
         std::to_string(reinterpret_cast<uintptr_t>(T.Symbol)) + ";";
}
void appendKey(std::string &Key, const TensorFact &F) {
  appendKey(Key, F.Device), appendKey(Key, F.Type);
  Key += std::to_string(F.Dim) + ";";
}
void appendKey(std::string &Key, const ModuleFact &M) {
  appendKey(Key, M.Device), appendKey(Key, M.Type);
  Key += std::to_string(reinterpret_cast<uintptr_t>(M.FirstLayer)) + ";";
}

const FunctionFacts *FunctionAnalyzer::follow(const CallExpr *CE,
                                              const FunctionDecl *Def,
                                              bool *Seeded, bool ModuleCall) {
  if (Seeded)
    *Seeded = false;
  // A call whose effect on its object this block run applied: its facts
  // are those it was followed with before (visitObjectMethod).
  if (auto It = AppliedCalls.find(CE);
      It != AppliedCalls.end() && !ModuleCall) {
    if (Seeded)
      *Seeded = It->second.second;
    return It->second.first;
  }
  unsigned Offset = objectArguments(CE);
  // The object a method is called on.
  const auto *Method = dyn_cast<CXXMethodDecl>(Def);
  const Expr *Object = nullptr;
  if (Method && !Method->isStatic()) {
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
      Object = MCE->getImplicitObjectArgument();
    else if (Offset == 1)
      Object = CE->getArg(0);
  }
  llvm::SmallVector<const Expr *, 4> Args(CE->arguments());
  return followWith(Def, Args, Offset, Object, Seeded, ModuleCall);
}

const FunctionFacts *FunctionAnalyzer::followWith(
    const FunctionDecl *Def, llvm::ArrayRef<const Expr *> Args, unsigned Offset,
    const Expr *Object, bool *Seeded, bool ModuleCall) {
  auto ParamOf = [&](unsigned I) -> const ParmVarDecl * {
    return I >= Offset && I - Offset < Def->getNumParams()
               ? Def->getParamDecl(I - Offset)
               : nullptr;
  };
  // A variable the callee may change through one parameter must not seed
  // another: the seeded fact would go stale when the first one changes.
  llvm::DenseSet<const ValueDecl *> ChangedVars;
  for (unsigned I = 0; I < Args.size(); ++I)
    if (const ParmVarDecl *P = ParamOf(I);
        P && (reachesCallersVariable(P->getType(), Api)
                  ? mayChangeParam(State, Def, P, Api)
                  : rebindsParam(State, Def, P, Api))) {
      if (const ValueDecl *V = referencedVar(unwrapArgument(Args[I])))
        ChangedVars.insert(V);
      else if (const ValueDecl *M = moduleVar(Args[I]))
        ChangedVars.insert(M);
    }

  Env Context;
  Context.Reached = true;
  std::string CtxKey;
  bool Informative = false;
  // A tensor fact that says something, bound at K; \p Tag names K in the
  // cache key.
  auto BindTensor = [&](const Key &K, const TensorFact &F,
                        const std::string &Tag) {
    if (F.Device.Kind == FactKind::Unknown && F.Type.Kind == FactKind::Unknown)
      return;
    Informative = true;
    Context.Tensors[K] = F;
    CtxKey += Tag;
    appendKey(CtxKey, F);
  };
  // A struct of tensors held at \p Holder (null: `this`): each slot what
  // the struct value \p Value holds here.
  auto BindSlots = [&](const ValueDecl *Holder,
                       llvm::ArrayRef<TensorSlot> Slots, const Expr *Value,
                       llvm::StringRef Prefix) {
    if (auto Facts = evalFields(Value))
      for (unsigned I = 0; I < Slots.size(); ++I)
        BindTensor(Slots[I].of(Holder), (*Facts)[I],
                   Prefix.str() + Slots[I].keyName());
  };
  for (unsigned I = 0; I < Args.size(); ++I) {
    const ParmVarDecl *P = ParamOf(I);
    const Expr *A = Args[I];
    if (!P || isa<CXXDefaultArgExpr>(A))
      continue;
    const Expr *Arg = unwrapArgument(A);
    if (const ValueDecl *V = referencedVar(Arg); V && ChangedVars.contains(V))
      continue;
    QualType T = P->getType().getNonReferenceType().getUnqualifiedType();
    CtxKey += std::to_string(I) + "=";
    if (Api.isTensorValueType(T)) {
      BindTensor(Key(P),
                 isTensorExpr(Arg) ? evalTensor(Arg) : TensorFact::unknown(),
                 "");
    } else if (auto Slots = tensorSlots(T, Api); !Slots.empty()) {
      // A struct of tensors (a batch): each field where the caller has it.
      BindSlots(P, Slots, Arg, "");
    } else if (Api.isInputVector(T)) {
      // A std::vector of tensors: what the caller knows of all its
      // elements (evalElements), as a vector variable holds it.
      BindTensor(Key(P), evalElements(Arg), "[]");
    } else if (auto Types = tupleElementTypes(T)) {
      // A std::tuple or std::pair of tensors (an LSTM's (h, c) state):
      // each element where the caller has it.
      auto Elements = evalTuple(Arg);
      if (!Elements || Elements->size() != Types->size())
        continue;
      for (unsigned E = 0; E < Elements->size(); ++E)
        BindTensor(Key(P, nullptr, static_cast<int>(E)), (*Elements)[E],
                   "." + std::to_string(E) + "=");
    } else if (Api.isModuleHandleType(P->getType())) {
      if (const ValueDecl *M = moduleVar(A); M && ChangedVars.contains(M))
        continue;
      ModuleFact M = evalModule(A);
      if (M.Device.Kind == FactKind::Unknown &&
          M.Type.Kind == FactKind::Unknown)
        continue;
      Informative = true;
      Context.Modules[P] = M;
      appendKey(CtxKey, M);
    } else if (isDeviceLike(Api, T)) {
      DeviceFact D = evalDevice(Arg);
      if (D.Kind == FactKind::Unknown)
        continue;
      // A symbolic device alone only renames the parameter; it matters
      // with the tensors and modules bound beside it.
      Informative |= D.isKnown();
      Context.Devices[P] = D;
      appendKey(CtxKey, D);
    } else if (isDTypeLike(Api, T)) {
      DTypeFact D = evalDType(Arg);
      if (D.Kind == FactKind::Unknown)
        continue;
      Informative |= D.isKnown();
      Context.DTypes[P] = D;
      appendKey(CtxKey, D);
    }
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
      MD && MD->getParent()->isLambda())
    Informative |= bindCaptures(MD, ChangedVars, Context, CtxKey);
  const auto *Method = dyn_cast<CXXMethodDecl>(Def);
  // The tensor fields of that object, where this body follows them: the
  // method starts from what they hold here.
  if (Object && !ModuleCall) {
    auto SameClass = [&](const TensorSlot &Slot) {
      return Slot.Field->getParent()->getCanonicalDecl() ==
             Method->getParent()->getCanonicalDecl();
    };
    auto Fields = objectFields(Object);
    for (const auto &[Slot, K] : Fields) {
      if (!SameClass(Slot) || (K.Var && ChangedVars.contains(K.Var)))
        continue;
      TensorFact F = lookupTensor(K);
      // A member placed on a constructor's device parameter that also
      // initialises a Device member (`masks_ = torch::ones(n, device)`
      // beside `device_(device)`): the caller may know that device (it saw
      // `Storage s(4, torch::kCPU)`), but the method reads `device_` as a
      // symbol, and one value set against itself would be two devices (cpu
      // against 'device_'). The member is bound in the method's terms.
      if (Slot.Element < 0 && F.Device.Kind != FactKind::Unknown)
        if (DeviceFact D =
                memberDeviceFromParameter(State, Slot.Field, Def, Api);
            D.Kind == FactKind::Symbolic)
          F.Device = D;
      BindTensor(Slot.of(nullptr), F, ".this" + Slot.keyName());
    }
    // A temporary (`collate(seqs).to(device)`): what its value holds.
    const Expr *O = strip(Object);
    if (Fields.empty() && O->isPRValue() && !isa<CXXThisExpr>(O))
      if (auto Slots = tensorSlots(O->getType(), Api);
          !Slots.empty() && SameClass(Slots.front()))
        BindSlots(nullptr, Slots, O, ".this");
  }
  // Its class, when the call fixes it, for the virtual calls the method
  // makes on `this` (userCallee). Not a module holder's, nor a
  // Sequential's whose first layer's forward this is.
  if (Object && Method->getParent()->isPolymorphic())
    if (const CXXRecordDecl *Exact =
            exactClassOf(Object, Seed ? Seed->ExactThis : nullptr);
        Exact && !Exact->isEffectivelyFinal() &&
        (Exact->getCanonicalDecl() == Method->getParent()->getCanonicalDecl() ||
         Exact->isDerivedFrom(Method->getParent()))) {
      Context.ExactThis = Exact;
      CtxKey += "exact=" + std::to_string(reinterpret_cast<uintptr_t>(Exact));
      Informative = true;
    }
  // A method of a module class: the module it is called on, for its
  // registered submodules (`model->decode(z)` runs decode's fc layers where
  // the model is).
  if (Object && Api.isModuleClass(Method->getParent())) {
    // `encode(x)` from forward(): the same module, where this body's caller
    // has it, unless this body may move it first. A forward() followed from
    // its module's call passes on that its input was judged there.
    auto BindThis = [&](const ModuleFact &M, bool Judged) {
      Context.This = M;
      Context.ThisJudged = Judged;
      CtxKey += Judged ? "call=" : "this=";
      appendKey(CtxKey, M);
      Informative = true;
    };
    if (isa<CXXThisExpr>(strip(Object))) {
      if (Seed && Seed->This.Device.Kind != FactKind::Unreached &&
          !movesItself())
        BindThis(Seed->This, Seed->ThisJudged);
    } else if (ModuleFact M = evalModule(Object);
               M.Device.isKnown() || M.Device.Kind == FactKind::Symbolic ||
               M.Type.isKnown()) {
      if (const ValueDecl *V = moduleVar(Object);
          !V || !ChangedVars.contains(V))
        BindThis(M, ModuleCall);
    }
  }
  if (!Informative)
    return analyzeIn(State, Def, Ctx, Api, nullptr, "");
  const FunctionFacts *F = analyzeIn(State, Def, Ctx, Api, &Context, CtxKey);
  if (Seeded)
    *Seeded = F != nullptr;
  return F;
}

// A lambda called where it was made sees what it captures as this body
// has it at the call: a variable captured by reference is the variable
// itself, and one captured by copy was copied from a variable this body
// never assigns after its initialiser. Only variables the lambda does not
// change (mayChangeCapture): one that does carries the change from one call
// to the next.
bool FunctionAnalyzer::bindCaptures(
    const CXXMethodDecl *CallOp,
    const llvm::DenseSet<const ValueDecl *> &ChangedVars, Env &Context,
    std::string &CtxKey) {
  bool Informative = false;
  for (const LambdaCapture &C : CallOp->getParent()->captures()) {
    if (!C.capturesVariable())
      continue;
    const ValueDecl *V = C.getCapturedVar();
    const auto *Owner =
        dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
    if (!Owner || Owner->getCanonicalDecl() != Fn->getCanonicalDecl() ||
        ChangedVars.contains(V) || mayChangeCapture(State, CallOp, V, Api))
      continue;
    if (C.getCaptureKind() != LCK_ByRef) {
      const auto *VD = dyn_cast<VarDecl>(V);
      if (!VD || !keptInitialiser(VD, Fn))
        continue;
    }
    const ValueDecl *R = resolveAlias(V);
    if (isEscaped(R))
      continue;
    std::string Prefix = "cap" + std::to_string(reinterpret_cast<uintptr_t>(V));
    for (const auto &[K, F] : Cur.Tensors) {
      if (K.Var != R || (F.Device.Kind == FactKind::Unknown &&
                         F.Type.Kind == FactKind::Unknown))
        continue;
      Context.Tensors[Key(V, K.Field, K.Element)] = F;
      CtxKey += Prefix + "." +
                std::to_string(reinterpret_cast<uintptr_t>(K.Field)) + "." +
                std::to_string(K.Element) + "=";
      appendKey(CtxKey, F);
      Informative = true;
    }
    if (auto It = Cur.Modules.find(R);
        It != Cur.Modules.end() &&
        (It->second.Device.isKnown() || It->second.Type.isKnown())) {
      const ModuleFact &M = It->second;
      Context.Modules[V] = M;
      CtxKey += Prefix + "m=";
      appendKey(CtxKey, M);
      Informative = true;
    }
    if (auto It = Cur.Devices.find(R); It != Cur.Devices.end()) {
      Context.Devices[V] = It->second;
      CtxKey += Prefix + "d=";
      appendKey(CtxKey, It->second);
      Informative |= It->second.isKnown();
    }
    if (auto It = Cur.DTypes.find(R); It != Cur.DTypes.end()) {
      Context.DTypes[V] = It->second;
      CtxKey += Prefix + "t=";
      appendKey(CtxKey, It->second);
      Informative |= It->second.isKnown();
    }
  }
  return Informative;
}

} // namespace clang::tidy::tensor::analysis
