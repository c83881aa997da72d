//===--- Transfer.cpp - How statements change the environment ------------===//
//
// The transfer functions of the analysis: declarations, assignments, module
// moves, what vectors and tuples of tensors hold, the end of a variable's
// lifetime; and, in the final pass, the sites recorded for the checks.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalyzer.h"
#include "Images.h"
#include "Members.h"
#include "Modules.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::tensor::analysis {

void FunctionAnalyzer::declare(const VarDecl *VD) {
  QualType T = VD->getType();
  const Expr *Init = VD->getInit();
  // `for (const auto &t : tensors)`: each element of the vector.
  if (auto It = Body.LoopElements.find(VD); It != Body.LoopElements.end()) {
    TensorFact F = lookupTensor(Key(It->second));
    Cur.Tensors[Key(VD)] = F.reached() ? F : TensorFact::unknown();
    return;
  }
  // `for (auto &layer : layers_)`: a layer of a vector member.
  if (auto It = Body.ModuleLoopElements.find(VD);
      It != Body.ModuleLoopElements.end()) {
    Cur.Modules[VD] = unregisteredModuleElements(State, It->second, Api);
    return;
  }
  // A reference that holds an op's vector of results alive (`const auto
  // &parts = x.chunk(3)`, a range-for's hidden range variable): the
  // temporary is no one else's.
  if (T->isReferenceType() && Init &&
      Api.isInputVector(T.getNonReferenceType().getUnqualifiedType()))
    if (std::optional<TensorFact> F = evalListResult(Init)) {
      Cur.Tensors[Key(VD)] = *F;
      return;
    }
  if (T->isReferenceType())
    return; // aliases are resolved; other references stay unknown
  if (Api.isTensorValueType(T.getUnqualifiedType())) {
    Cur.Tensors[Key(VD)] = Init ? evalTensor(Init) : TensorFact::unknown();
  } else if (Api.isModuleHandleType(T)) {
    // Another handle's module, one built here (Modules.h), or what a
    // helper function returns.
    Cur.Modules[VD] =
        Init ? evalModule(Init) : createdModule(State, nullptr, T, Api);
  } else if (Api.isInputVector(T.getUnqualifiedType())) {
    // A vector of tensors (or of IValues, a TorchScript call's inputs):
    // one fact for all its elements, unreached while it is empty.
    TensorFact In;
    const auto *CE = dyn_cast_or_null<CXXConstructExpr>(strip(Init));
    if (CE && writtenArgs(CE).empty())
      In = TensorFact(); // empty
    else if (std::optional<TensorFact> Pieces = evalListResult(Init))
      In = *Pieces;
    else if (!listElements(Init).empty() || referencedVar(Init))
      In = evalElements(Init);
    else if (CE && CE->isListInitialization())
      In = TensorFact(); // `= {}`
    else
      In = TensorFact::unknown();
    Cur.Tensors[Key(VD)] = In;
  } else if (auto Types = tupleElementTypes(T)) {
    assignTuple(Key(VD), Types->size(), Init);
  } else if (auto Slots = tensorSlots(T, Api); !Slots.empty()) {
    assignFields(VD, Slots, Init);
  } else if (isOptionsLike(Api, T)) {
    Cur.Options[VD] = Init ? evalOptions(Init) : OptionsFact();
  } else if (isDeviceLike(Api, T)) {
    DeviceFact D = Init ? evalDevice(Init) : DeviceFact::unknown();
    if (D.Kind == FactKind::Unknown)
      D = DeviceFact::symbol(VD, /*MayBeCuda=*/true);
    Cur.Devices[VD] = D;
  } else if (isDTypeLike(Api, T)) {
    DTypeFact D = Init ? evalDType(Init) : DTypeFact::unknown();
    if (D.Kind == FactKind::Unknown)
      D = DTypeFact::symbol(VD);
    Cur.DTypes[VD] = D;
  }
}

void FunctionAnalyzer::assignTensor(const Expr *LHS, const TensorFact &F) {
  if (std::optional<Key> K = tensorLocation(LHS)) {
    Cur.Tensors[*K] = F;
    return;
  }
  // v[i] = x: the vector's elements may now be x as well.
  if (const ValueDecl *V = containerOf(LHS)) {
    TensorFact &All = Cur.Tensors[Key(V)];
    All = All.reached() ? join(All, F) : F;
  }
}

void FunctionAnalyzer::recordRegisteredCopy(const FieldDecl *Member,
                                            const Expr *Value) {
  const auto *Conversion = dyn_cast_or_null<CXXMemberCallExpr>(strip(Value));
  if (!Recording || !Member || !Conversion ||
      !Api.isOutOfPlaceConversion(Conversion->getMethodDecl()))
    return;
  const auto *Registration = dyn_cast_or_null<CXXMemberCallExpr>(
      strip(Conversion->getImplicitObjectArgument()));
  if (!Registration || Registration->getNumArgs() < 2 ||
      !isTensorExpr(Registration->getArg(1)))
    return;
  const char *What = nullptr;
  switch (Api.registration(Registration->getMethodDecl())) {
  case ApiModel::Registration::Parameter:
    What = "parameter";
    break;
  case ApiModel::Registration::Buffer:
    What = "buffer";
    break;
  default:
    return;
  }
  Site S;
  S.K = Site::RegisteredCopy;
  S.Call = Conversion;
  S.Callee = Conversion->getMethodDecl();
  S.Function = Fn;
  S.ArgumentName = What;
  S.Registration = Registration;
  const Expr *Registered = Registration->getArg(1);
  TensorFact F = evalTensor(Registered);
  S.Operands.push_back({Registered, F});
  S.Operands.push_back({Conversion, evalConversion(Conversion, F)});
  Sites.push_back(std::move(S));
}

void FunctionAnalyzer::assignTuple(const Key &K, size_t Size, const Expr *RHS) {
  auto Elements = evalTuple(RHS);
  for (unsigned I = 0; I < Size; ++I)
    Cur.Tensors[Key(K.Var, K.Field, static_cast<int>(I))] =
        Elements && I < Elements->size() ? (*Elements)[I]
                                         : TensorFact::unknown();
}

void FunctionAnalyzer::assignFields(const ValueDecl *V,
                                    llvm::ArrayRef<TensorSlot> Slots,
                                    const Expr *RHS) {
  auto Facts = evalFields(RHS);
  for (unsigned I = 0; I < Slots.size(); ++I)
    Cur.Tensors[Slots[I].of(V)] = Facts ? (*Facts)[I] : TensorFact::unknown();
}

void FunctionAnalyzer::assign(const Expr *LHS, const Expr *RHS) {
  LHS = strip(LHS);
  recordRegisteredCopy(thisMember(LHS), RHS);
  QualType T = LHS->getType().getNonReferenceType().getUnqualifiedType();
  if (Api.isTensorValueType(T)) {
    assignTensor(LHS, evalTensor(RHS));
    return;
  }
  // std::tie(inputs, targets) = make_batch(): each tensor its element.
  if (const CallExpr *Tie = tieCall(LHS)) {
    auto Elements = evalTuple(RHS);
    for (unsigned I = 0; I < Tie->getNumArgs(); ++I)
      if (const Expr *A = Tie->getArg(I); isTensorExpr(A))
        assignTensor(A, Elements && I < Elements->size()
                            ? (*Elements)[I]
                            : TensorFact::unknown());
    return;
  }
  // `hidden_ = std::make_tuple(h, c)`: a tuple field the analysis follows.
  if (auto Types = tupleElementTypes(T))
    if (std::optional<Key> K = tupleLocation(LHS); K && K->Field) {
      assignTuple(*K, Types->size(), RHS);
      return;
    }
  const ValueDecl *D = referencedVar(LHS);
  if (!D)
    return;
  D = resolveAlias(D);
  if (Api.isModuleHandleType(T))
    Cur.Modules[D] = evalModule(RHS);
  else if (Api.isInputVector(T))
    Cur.Tensors[Key(D)] = evalElements(RHS);
  else if (auto Types = tupleElementTypes(T))
    assignTuple(Key(D), Types->size(), RHS);
  else if (auto Slots = tensorSlots(T, Api); !Slots.empty())
    assignFields(D, Slots, RHS);
  else if (isOptionsLike(Api, T))
    Cur.Options[D] = evalOptions(RHS);
  else if (isDeviceLike(Api, T))
    Cur.Devices[D] = evalDevice(RHS);
  else if (isDTypeLike(Api, T))
    Cur.DTypes[D] = evalDType(RHS);
}

ModuleFact FunctionAnalyzer::unjudgedByCaller(const ModuleFact &M,
                                              const TensorFact &In) const {
  ModuleFact R = ModuleFact::unknown();
  if (!Seed || !Fn->hasBody())
    return R;
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceRange Body = Fn->getBody()->getSourceRange();
  // Written here: a factory, a move or a conversion in this body. Not a
  // result computed from other tensors, which may carry another finding
  // along (a layer's output where an unregistered layer left it).
  auto GivenHere = [&](const Origin &O) {
    return (O.How == Origin::Created || O.How == Origin::Moved ||
            O.How == Origin::Converted) &&
           O.Loc.isValid() &&
           SM.isPointWithin(SM.getExpansionLoc(O.Loc),
                            SM.getExpansionLoc(Body.getBegin()),
                            SM.getExpansionLoc(Body.getEnd()));
  };
  // A fact some bound parameter has may be that parameter's, made like it
  // (torch::zeros_like(x), x.options()): the caller's site judged it.
  auto NoParameterHas = [&](auto Of) {
    return llvm::none_of(
        Seed->Tensors, [&](const auto &KF) { return Of(KF.second) == Of(In); });
  };
  if (In.Device.isKnown() && GivenHere(In.DeviceOrigin) &&
      NoParameterHas([](const TensorFact &F) { return F.Device; })) {
    R.Device = M.Device;
    R.DeviceOrigin = M.DeviceOrigin;
    R.MoveDeviceArg = M.MoveDeviceArg;
  }
  if (In.Type.isKnown() && GivenHere(In.TypeOrigin) &&
      NoParameterHas([](const TensorFact &F) { return F.Type; })) {
    R.Type = M.Type;
    R.TypeOrigin = M.TypeOrigin;
  }
  return R;
}

Site FunctionAnalyzer::newSite(Site::Kind K, const CallExpr *CE) const {
  Site S;
  S.K = K;
  S.Call = CE;
  S.Callee = CE->getDirectCallee();
  S.Function = Fn;
  return S;
}

void FunctionAnalyzer::recordSites(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE || E->containsErrors())
    return;
  const FunctionDecl *FD = CE->getDirectCallee();
  // A call is visited again as part of each enclosing CFG element (the
  // declaration that holds it, say): record it once.
  if (!FD || !RecordedCalls.insert(CE).second)
    return;
  const Expr *ModuleE = nullptr, *Input = nullptr;
  const bool ModuleCall = isModuleCall(CE, ModuleE, Input);
  if (!ModuleCall)
    if (const FunctionDecl *Def = callee(CE)) {
      bool Seeded = false;
      if (const FunctionFacts *F = follow(CE, Def, &Seeded); F && Seeded)
        Calls.push_back({CE, Def, F});
      return;
    }
  auto NewSite = [&](Site::Kind K) { return newSite(K, CE); };
  // A loss's target, which ATen reads as int64 class indices, and its input.
  auto ClassIndexSite = [&](const Expr *Target, const Expr *In,
                            bool ProbabilitiesWhenSameShape) {
    Site C = NewSite(Site::ClassIndices);
    C.Operands.push_back({Target, evalTensor(Target)});
    C.Operands.push_back({In, evalTensor(In)});
    C.ProbabilitiesWhenSameShape = ProbabilitiesWhenSameShape;
    return C;
  };
  if (ModuleCall) {
    Site S = NewSite(Site::ModuleCall);
    S.ModuleExpr = ModuleE;
    S.Module = evalModule(ModuleE);
    const ModuleFact Placed = S.Module;
    // In a forward() followed from its module's call, a registered layer is
    // where the module is, and the caller's site judged the input already
    // (not the layer's other inputs, below) unless this body made it.
    const bool Repeats = Seed && Seed->ThisJudged;
    const TensorFact In = evalTensor(Input);
    if (Repeats)
      if (const FieldDecl *F = thisMember(ModuleE);
          F && isRegisteredSubmodule(State, F, Api) &&
          placedModuleMember(State, F, Api).Device.Kind == FactKind::Unknown)
        S.Module = unjudgedByCaller(S.Module, In);
    S.ModuleClass = Api.moduleBehind(throughDeref(ModuleE)->getType());
    S.Operands.push_back({Input, In});
    // criterion(output, target): a loss module combines its inputs like
    // torch::nll_loss does, so they must share a device.
    if (Api.isLossModule(S.ModuleClass)) {
      Site L = NewSite(Site::Combine);
      for (unsigned I = objectArguments(CE); I < CE->getNumArgs(); ++I)
        if (!isa<CXXDefaultArgExpr>(CE->getArg(I)))
          combinedOperands(CE->getArg(I), L.Operands, /*KeepScalars=*/false);
      // A loss built with `.weight(w)` holds w (a 1-D buffer): it meets the
      // inputs like nll_loss's weight argument does.
      if (S.Module.Device.Kind == FactKind::Known ||
          S.Module.Device.Kind == FactKind::Symbolic) {
        TensorFact Held = TensorFact::unknown();
        Held.Device = S.Module.Device;
        Held.DeviceOrigin = S.Module.DeviceOrigin;
        Held.Dim = -2;
        L.Operands.push_back({ModuleE, Held});
      }
      if (L.Operands.size() >= 2)
        Sites.push_back(std::move(L));
      // criterion(input, target) of NLLLoss or CrossEntropyLoss: the
      // target must be class indices.
      const ApiModel::ClassIndexTarget Kind = Api.lossTargetKind(S.ModuleClass);
      const unsigned First = objectArguments(CE);
      if (Kind != ApiModel::ClassIndexTarget::None &&
          CE->getNumArgs() >= First + 2) {
        Site C =
            ClassIndexSite(CE->getArg(First + 1), Input,
                           Kind == ApiModel::ClassIndexTarget::UnlessSameShape);
        C.ModuleExpr = ModuleE;
        Sites.push_back(std::move(C));
      }
    }
    // A built-in layer's other inputs (an LSTM's state, as a tensor or a
    // tuple written in the call) must be on its device too.
    llvm::SmallVector<Operand, 2> Extra;
    if (Api.isParameterizedBuiltinModule(S.ModuleClass))
      for (unsigned I = objectArguments(CE); I < CE->getNumArgs(); ++I) {
        const Expr *A = CE->getArg(I);
        if (A == Input || isa<CXXDefaultArgExpr>(A))
          continue;
        if (isTensorExpr(A)) {
          Extra.push_back({A, evalTensor(A)});
          continue;
        }
        // Through the optional<tuple<...>> the parameter takes.
        for (unsigned Depth = 0; Depth < 3; ++Depth)
          if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(strip(A));
              C && !C->isListInitialization() && writtenArgs(C).size() == 1)
            A = writtenArgs(C)[0];
        if (auto Elements = tupleArguments(A); !Elements.empty()) {
          for (const Expr *El : Elements)
            if (isTensorExpr(El))
              Extra.push_back({El, evalTensor(El)});
          continue;
        }
        // A tuple variable, or a call that returns one (`hidden`,
        // `init_hidden()`): named as a whole, so judged by its first
        // element (one diagnostic, not one per element).
        if (auto Facts = evalTuple(A); Facts && !Facts->empty())
          Extra.push_back({A, Facts->front()});
      }
    for (const Operand &A : Extra) {
      Site E = S;
      E.Module = Placed;
      E.Operands = {A};
      Sites.push_back(std::move(E));
    }
    // A user module's forward() with what the caller passes it: a tensor
    // it makes on the cpu (a mask, an arange) and combines with an input
    // on the module's device fails there. A Sequential hands its input to
    // its first layer, which is where the Sequential is.
    if (const CXXRecordDecl *Gets = S.inputLayer();
        Gets && !Api.isBuiltinModule(Gets) && !Api.isScriptModule(Gets))
      for (const CXXMethodDecl *MD : Api.forwardMethods(Gets)) {
        const FunctionDecl *Def = nullptr;
        if (!MD->hasBody(Def) || !Def || Def->isDependentContext() ||
            Def->getNumParams() + objectArguments(CE) < CE->getNumArgs())
          continue;
        bool Seeded = false;
        if (const FunctionFacts *F =
                follow(CE, Def, &Seeded, /*ModuleCall=*/true);
            F && Seeded)
          Calls.push_back({CE, Def, F});
        break;
      }
    Sites.push_back(std::move(S));
    return;
  }
  // torch::from_blob(buffer, ...): what the buffer's elements are, as the
  // type system sees it through decay and .data() (an explicit cast to
  // void* or char* says the bytes are meant to be reinterpreted).
  if (Api.isFromBlob(FD) && CE->getNumArgs() >= 1) {
    const Expr *Buffer = CE->getArg(0);
    QualType T = Buffer->IgnoreParenImpCasts()->getType();
    QualType Element = T->isPointerType() ? T->getPointeeType()
                       : T->isArrayType()
                           ? QualType(T->getArrayElementTypeNoTypeQual(), 0)
                           : QualType();
    if (!Element.isNull()) {
      Site S = NewSite(Site::FromBlob);
      S.BufferElement = Element;
      S.Operands.push_back({Buffer, evalTensor(CE)});
      S.BufferMemory = bufferMemory(Buffer, S);
      Sites.push_back(std::move(S));
    }
    return;
  }
  // torch::tensor({0.f, 0.5}): LibTorch's value container throws on a list
  // whose values have two scalar types. The operands are the list's first
  // value and the other one, each with its dtype.
  if (Api.factoryShape(FD) == ApiModel::FactoryShape::Values &&
      CE->getNumArgs() >= 1)
    if (auto Mixed = mixedValues(CE->getArg(0), Api)) {
      Site S = NewSite(Site::MixedValues);
      TensorFact First = TensorFact::unknown(), Other = TensorFact::unknown();
      First.Type = DTypeFact::known(Mixed->FirstType);
      Other.Type = DTypeFact::known(Mixed->OtherType);
      S.Operands.push_back({Mixed->First, First});
      S.Operands.push_back({Mixed->Other, Other});
      Sites.push_back(std::move(S));
      return;
    }
  // t.data_ptr<float>(): ATen checks the element type against the dtype.
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
    QualType Element = Api.typedElementAccess(MCE->getMethodDecl());
    if (const Expr *Obj = MCE->getImplicitObjectArgument();
        !Element.isNull() && Obj) {
      Site S = NewSite(Site::TypedAccess);
      S.BufferElement = Element;
      S.Operands.push_back({Obj, evalTensor(Obj)});
      Sites.push_back(std::move(S));
      return;
    }
  }
  const CallSemantics *Sem = Api.callSemantics(FD);
  if (!Sem)
    return;
  llvm::SmallVector<const Expr *, 6> Args = argumentsByPosition(CE);
  // A tensor the op requires on the cpu (a packed sequence's lengths).
  for (unsigned P = 0; P < Args.size() && P < Sem->Roles.size(); ++P)
    if (Args[P] && !isa<CXXDefaultArgExpr>(Args[P]) &&
        Sem->Roles[P].K == ArgumentRole::CpuOnly && isTensorExpr(Args[P])) {
      Site C = NewSite(Site::CpuOnly);
      C.Operands.push_back({Args[P], evalTensor(Args[P])});
      C.ArgumentName = Sem->Roles[P].Name;
      Sites.push_back(std::move(C));
    }
  // gather(dim, index): ATen checks the index's dtype.
  if (Sem->Indices >= 0 && static_cast<unsigned>(Sem->Indices) < Args.size())
    if (const Expr *Index = Args[Sem->Indices];
        Index && !isa<CXXDefaultArgExpr>(Index) && isTensorExpr(Index)) {
      Site C = NewSite(Site::Indices);
      C.Operands.push_back({Index, evalTensor(Index)});
      C.Int32Indices = Sem->IndicesInt32;
      Sites.push_back(std::move(C));
    }
  if (Sem->InPlacePromoted)
    recordInPlaceCast(CE, *Sem, Args);
  if (Sem->NeedsFloatingInput)
    recordFloatingInput(CE, *Sem, Args);
  if (Sem->deviceArguments() == 0)
    return;
  Site S = NewSite(Site::Combine);
  S.NonPromoting = Sem->NonPromoting;
  for (unsigned P = 0; P < Args.size() && P < Sem->Roles.size(); ++P)
    if (Args[P] && !isa<CXXDefaultArgExpr>(Args[P]) &&
        Sem->Roles[P].K == ArgumentRole::Device)
      combinedOperands(Args[P], S.Operands, false);
  // F::cross_entropy(x, y, CrossEntropyFuncOptions().weight(w)): the
  // functional hands the tensors its options hold to the op with its
  // inputs (w is nll_loss's weight), on their device.
  if (Api.isFunctional(FD)) {
    llvm::SmallVector<const Expr *, 2> Held;
    for (const Expr *A : CE->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        optionTensors(A, Held);
    for (const Expr *T : Held)
      combinedOperands(T, S.Operands, false);
  }
  if (S.Operands.size() >= 2)
    Sites.push_back(std::move(S));
  // nll_loss(input, target): the target must be class indices.
  if (Sem->ClassIndices > 0 &&
      static_cast<unsigned>(Sem->ClassIndices) < Args.size()) {
    const Expr *Target = Args[Sem->ClassIndices];
    const Expr *In = nullptr;
    for (unsigned P = 0; P < Args.size() && P < Sem->Roles.size(); ++P)
      if (Args[P] && static_cast<int>(P) != Sem->ClassIndices &&
          Sem->Roles[P].K == ArgumentRole::Device) {
        In = Args[P];
        break;
      }
    if (Target && In && !isa<CXXDefaultArgExpr>(Target))
      Sites.push_back(
          ClassIndexSite(Target, In, Sem->ProbabilitiesWhenSameShape));
  }
}

// img.div_(255.0): ATen computes the promoted dtype of the operands, as the
// out-of-place op would, and casts the result back to img's.
void FunctionAnalyzer::recordInPlaceCast(const CallExpr *CE,
                                         const CallSemantics &Sem,
                                         llvm::ArrayRef<const Expr *> Args) {
  if (Args.empty() || !Args[0] || !isTensorExpr(Args[0]))
    return;
  llvm::SmallVector<const Expr *, 4> Operands;
  llvm::SmallVector<TensorFact, 4> Facts;
  for (unsigned P = 0; P < Args.size() && P < Sem.Roles.size(); ++P) {
    const Expr *A = Args[P];
    if (!A || isa<CXXDefaultArgExpr>(A))
      continue;
    if (Sem.Roles[P].K == ArgumentRole::Device && isTensorExpr(A)) {
      Operands.push_back(A);
      Facts.push_back(evalTensor(A));
    } else if (Sem.Roles[P].K == ArgumentRole::Scalar &&
               !isTensorOperand(unwrapArgument(A))) {
      // A number: its category takes part in the promotion (combine).
      Operands.push_back(unwrapArgument(A));
      Facts.push_back(TensorFact::unknown());
    }
  }
  TensorFact Result = combine(Operands, Facts, CE->getExprLoc());
  // x.sqrt_() or x.div_(2) on an integer x: the op computes in float.
  if (Sem.IntegerToFloat && Result.Type.isKnown() &&
      !isFloating(Result.Type.Type))
    Result.Type = State.defaultFloat();
  Site C = newSite(Site::InPlaceCast, CE);
  C.Operands.push_back({Args[0], evalTensor(Args[0])});
  C.Operands.push_back({CE, std::move(Result)});
  Sites.push_back(std::move(C));
}

// correct.mean() with `correct` bool: ATen has no dtype to give the mean
// unless the call names one.
void FunctionAnalyzer::recordFloatingInput(const CallExpr *CE,
                                           const CallSemantics &Sem,
                                           llvm::ArrayRef<const Expr *> Args) {
  const Expr *In = nullptr;
  for (unsigned P = 0; P < Args.size() && P < Sem.Roles.size(); ++P) {
    const Expr *A = Args[P];
    if (!A || isa<CXXDefaultArgExpr>(A))
      continue;
    if (Sem.Roles[P].K == ArgumentRole::DType ||
        Sem.Roles[P].K == ArgumentRole::Options)
      return;
    if (Sem.Roles[P].K == ArgumentRole::Device && !In && isTensorExpr(A))
      In = A;
  }
  if (!In)
    return;
  Site C = newSite(Site::FloatingInput, CE);
  C.Operands.push_back({In, evalTensor(In)});
  Sites.push_back(std::move(C));
}

namespace {
// A standard container of host memory: std::array, or a std::vector or
// std::basic_string with the standard allocator (a custom one may hand out
// pinned or managed memory).
bool hostContainer(const CXXRecordDecl *RD) {
  if (isStd(RD, "array"))
    return true;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !isStdAnyOf(RD, {"vector", "basic_string"}))
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  const TemplateArgument &Alloc = Args[Args.size() - 1];
  return Alloc.getKind() == TemplateArgument::Type &&
         isStd(Alloc.getAsType()->getAsCXXRecordDecl(), "allocator");
}
} // namespace

Site::Memory FunctionAnalyzer::bufferMemory(const Expr *E, Site &S) {
  // The image whose `data` the buffer is, and its pixels' dtype (below).
  const VarDecl *Image = nullptr;
  std::optional<DType> ImageElement;
  auto Host = [&](const Expr *At) {
    // cudaHostRegister anywhere in the function may have made it memory
    // the device reaches.
    class Registers : public RecursiveASTVisitor<Registers> {
    public:
      explicit Registers(const ApiModel &Api) : Api(Api) {}
      bool Found = false;
      bool VisitCallExpr(CallExpr *CE) {
        Found |= Api.isHostRegistration(CE->getDirectCallee());
        return !Found;
      }
      const ApiModel &Api;
    };
    Registers R(Api);
    R.TraverseStmt(Fn->getBody());
    if (R.Found)
      return Site::Memory::Unknown;
    TensorFact F = TensorFact::unknown();
    F.Device = DeviceFact::cpu();
    S.Operands.push_back({At, F});
    S.Image = Image, S.ImageElement = ImageElement;
    return Site::Memory::Host;
  };
  // An OpenCV image's pixels are host memory when the image is a local
  // whose every write is known (Images.h): not a header over memory it
  // was given (pinned, or mapped for the device). `image.data` is an
  // `uchar *` whatever the pixels are: the image's depth says what they
  // are, for tensor-mixed-dtype.
  auto OwnImage = [&](const Expr *Object, bool Data) {
    const auto *VD = dyn_cast_or_null<VarDecl>(referencedVar(Object));
    std::optional<DType> Element =
        VD ? imageElementType(VD, Fn, Api) : std::nullopt;
    if (Element && Data)
      Image = VD, ImageElement = Element;
    return Element.has_value();
  };
  // Through a local pointer that keeps its initialiser, casts (they change
  // the element type, not where the memory is) and pointer arithmetic.
  bool ThroughVariable = false;
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->isAdditiveOp() && BO->getLHS()->getType()->isPointerType()) {
      E = BO->getLHS();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      // An array, unless CUDA code places it on the device.
      if (VD && VD->getType()->isArrayType() &&
          !VD->hasAttr<CUDADeviceAttr>() && !VD->hasAttr<CUDAConstantAttr>() &&
          !VD->hasAttr<HIPManagedAttr>())
        return Host(E);
      const Expr *Init = VD ? keptInitialiser(VD, Fn) : nullptr;
      if (!Init)
        return Site::Memory::Unknown;
      E = Init;
      ThroughVariable = true;
      continue;
    }
    // new T[n], not placement new (which may build in any memory).
    if (const auto *New = dyn_cast<CXXNewExpr>(E))
      return New->getNumPlacementArgs() == 0 ? Host(E) : Site::Memory::Unknown;
    // &v[0], &image.at<float>(0, 0): an element of a host container.
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf) {
      const ValueDecl *V = elementContainer(UO->getSubExpr());
      const auto *RD =
          V ? V->getType().getNonReferenceType()->getAsCXXRecordDecl()
            : nullptr;
      if (hostContainer(RD))
        return Host(E);
      return Site::Memory::Unknown;
    }
    // image.data: an OpenCV image's pixels.
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return Api.isHostImagePixels(ME->getMemberDecl()) &&
                     OwnImage(ME->getBase(), /*Data=*/true)
                 ? Host(E)
                 : Site::Memory::Unknown;
    const auto *MCE = dyn_cast<CXXMemberCallExpr>(E);
    const CXXMethodDecl *MD = MCE ? MCE->getMethodDecl() : nullptr;
    if (!MD)
      return Site::Memory::Unknown;
    if (Api.isDataPointerMethod(MD)) {
      // A tensor's memory. Read through a variable, the tensor must be one
      // the function never sets again, so that what is known of it here is
      // what it was when the pointer was taken.
      const Expr *T = MCE->getImplicitObjectArgument();
      if (ThroughVariable) {
        const auto *TV = dyn_cast_or_null<VarDecl>(referencedVar(T));
        if (!TV || !keptInitialiser(TV, Fn))
          return Site::Memory::Unknown;
      }
      S.Operands.push_back({T, evalTensor(T)});
      return Site::Memory::Tensor;
    }
    if ((isStd(MD, "data") && hostContainer(MD->getParent())) ||
        (Api.isHostImagePixels(MD) &&
         OwnImage(MCE->getImplicitObjectArgument(), /*Data=*/false)))
      return Host(E);
    return Site::Memory::Unknown;
  }
  return Site::Memory::Unknown;
}

// What a method call on a vector of tensors does to its elements.
void FunctionAnalyzer::visitContainerCall(const CXXMemberCallExpr *MCE,
                                          const ValueDecl *V) {
  const CXXMethodDecl *MD = MCE->getMethodDecl();
  TensorFact &In = Cur.Tensors[Key(V)];
  if (MD->isConst() || !MD->getIdentifier())
    return;
  // Reads through a non-const vector, and calls that add no element.
  if (isStdAnyOf(MD, {"at", "front", "back", "begin", "end", "size", "empty",
                      "reserve", "pop_back", "shrink_to_fit"}))
    return;
  if (isStd(MD, "clear")) {
    In = TensorFact();
    return;
  }
  const Expr *T = MCE->getNumArgs() == 1 ? unboxed(MCE->getArg(0)) : nullptr;
  if (isStdAnyOf(MD, {"push_back", "emplace_back"}) && isTensorExpr(T))
    In = In.reached() ? join(In, evalTensor(T)) : evalTensor(T);
  else
    In = TensorFact::unknown();
}

void FunctionAnalyzer::visitModuleMove(const CXXMemberCallExpr *MCE) {
  const CXXMethodDecl *MD = MCE->getMethodDecl();
  const ValueDecl *D = moduleVar(MCE->getImplicitObjectArgument());
  if (!D)
    return;
  ModuleFact &M = Cur.Modules[D];
  if (M.Device.Kind == FactKind::Unreached)
    M = ModuleFact::unknown();
  Origin Here{MCE->getExprLoc(), Origin::ModuleMoved};
  switch (Api.moduleMoveKind(MD)) {
  case ApiModel::ModuleMove::Cuda:
    M.Device = DeviceFact::cuda(), M.DeviceOrigin = Here;
    return;
  case ApiModel::ModuleMove::Cpu:
    M.Device = DeviceFact::cpu(), M.DeviceOrigin = Here;
    return;
  case ApiModel::ModuleMove::Half:
    M.Type = DTypeFact::known(DType::Float16), M.TypeOrigin = Here;
    return;
  case ApiModel::ModuleMove::BFloat16:
    M.Type = DTypeFact::known(DType::BFloat16), M.TypeOrigin = Here;
    return;
  case ApiModel::ModuleMove::To:
    break;
  }
  for (const Expr *A : MCE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      continue;
    if (isDeviceLike(Api, A->getType())) {
      M.Device = evalDevice(A), M.DeviceOrigin = Here;
      M.MoveDeviceArg = strip(A);
    } else if (isDTypeLike(Api, A->getType())) {
      M.Type = evalDType(A), M.TypeOrigin = Here;
    }
  }
}

void FunctionAnalyzer::joinTupleReturn(const Expr *RV) {
  auto Elements =
      tupleElementTypes(Fn->getReturnType()) ? evalTuple(RV) : evalFields(RV);
  // The first return gives the elements; each later one joins them.
  ReturnsTuple = ReturnsTuple ? joinElements(ReturnsTuple, Elements) : Elements;
  if (!ReturnsTuple)
    TupleReturnUnknown = true;
}

// Applies the effects of S and its subexpressions in evaluation order.
// Branches of ?:, && and || and the bodies of lambdas and statement
// expressions are elements of other CFG blocks or other functions.
void FunctionAnalyzer::visit(const Stmt *S) {
  if (!S ||
      isa<LambdaExpr, StmtExpr, ConditionalOperator, BinaryConditionalOperator>(
          S))
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
    return;
  for (const Stmt *Child : S->children())
    visit(Child);

  // A call met again in this block run keeps the facts it was followed
  // with the first time; one met anew is followed anew.
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && !EffectsApplied.count(CE))
    AppliedCalls.erase(CE);
  if (Recording)
    if (const auto *E = dyn_cast<Expr>(S))
      recordSites(E);
  if (Recording)
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      const Expr *RV = RS->getRetValue();
      if (RV && Api.isTensorValueType(Fn->getReturnType().getUnqualifiedType()))
        Returns =
            Returns.reached() ? join(Returns, evalTensor(RV)) : evalTensor(RV);
      else if (RV && Api.isModuleHandleType(Fn->getReturnType()))
        ReturnsModule = join(ReturnsModule, evalModule(RV));
      else if (RV && (tupleElementTypes(Fn->getReturnType()) ||
                      !tensorSlots(Fn->getReturnType(), Api).empty()))
        joinTupleReturn(RV);
    }

  // torch::load(model, path): the module (or tensor) holds what the file
  // did, on the device it was saved from (Escapes.cpp lets it be followed).
  if (const auto *CE = dyn_cast<CallExpr>(S);
      CE && !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(CE) &&
      Api.isLoadFunction(CE->getDirectCallee())) {
    for (const Expr *A : CE->arguments())
      if (const ValueDecl *V = loadedVariable(A, Api)) {
        V = resolveAlias(V);
        if (Api.isModuleHandleType(V->getType().getNonReferenceType()))
          Cur.Modules[V] = ModuleFact::unknown();
        else
          Cur.Tensors[Key(V)] = TensorFact::unknown();
      }
    return;
  }
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(S)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OCE->getDirectCallee());
    // An assignment, whoever declares it: a user-declared one of a struct
    // of tensors leaves its fields unknown (evalFields).
    if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2)
      assign(OCE->getArg(0), OCE->getArg(1));
    else if (MD && OCE->getNumArgs() >= 1)
      visitObjectMethod(OCE, MD, OCE->getArg(0));
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Assign)
      assign(BO->getLHS(), BO->getRHS());
    return;
  }
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (!MD)
      return;
    visitObjectMethod(MCE, MD, MCE->getImplicitObjectArgument());
    if (const ValueDecl *V = referencedVar(MCE->getImplicitObjectArgument());
        V && Api.isInputVector(
                 V->getType().getNonReferenceType().getUnqualifiedType())) {
      visitContainerCall(MCE, resolveAlias(V));
      return;
    }
    if (Api.isModuleMove(MD))
      visitModuleMove(MCE);
    return;
  }
}

void FunctionAnalyzer::visitObjectMethod(const CallExpr *CE,
                                         const CXXMethodDecl *MD,
                                         const Expr *Object) {
  if (MD->isConst() || MD->isStatic() || Api.isApiFunction(MD))
    return;
  auto Fields = objectFields(Object);
  if (Fields.empty() || !EffectsApplied.insert(CE).second)
    return;
  // The method the call runs is known when it is not virtual, or when its
  // object is a variable held by value (its class is its declared one).
  const ValueDecl *V = referencedVar(Object->IgnoreParenImpCasts());
  const bool Dispatched =
      MD->isVirtual() && !(V && !V->getType()->isReferenceType() &&
                           !V->getType()->isPointerType());
  const auto *Def = dyn_cast_or_null<CXXMethodDecl>(callee(CE));
  const FunctionFacts *Facts = nullptr;
  if (Def && !Dispatched &&
      Def->getParent()->getCanonicalDecl() ==
          Fields.front().first.Field->getParent()->getCanonicalDecl() &&
      followsFieldWrites(State, Def, Api)) {
    bool Seeded = false;
    Facts = follow(CE, Def, &Seeded);
    AppliedCalls[CE] = {Facts, Seeded};
  }
  for (const auto &[Slot, K] : Fields)
    Cur.Tensors[K] =
        Facts && Facts->Complete
            ? inCallerTerms(Facts->memberExit(Slot.Field, Slot.Element))
            : TensorFact::unknown();
}

void FunctionAnalyzer::forget(const VarDecl *VD) {
  Cur.Tensors.erase(Key(VD));
  Cur.Modules.erase(VD);
  Cur.Devices.erase(VD);
  Cur.DTypes.erase(VD);
  Cur.Options.erase(VD);
  if (auto Types = tupleElementTypes(VD->getType()))
    for (unsigned I = 0; I < Types->size(); ++I)
      Cur.Tensors.erase(Key(VD, nullptr, static_cast<int>(I)));
  // A batch's members live and die with it.
  if (Body.BatchVars.contains(VD))
    for (auto It = Cur.Tensors.begin(); It != Cur.Tensors.end();) {
      auto Next = std::next(It);
      if (It->first.Var == VD)
        Cur.Tensors.erase(It);
      It = Next;
    }
}

void FunctionAnalyzer::initialize(const CXXCtorInitializer *Init) {
  const FieldDecl *F = Init->getMember();
  const Expr *E = Init->getInit();
  if (!F || !E)
    return;
  const bool IsTensor =
      Api.isTensorValueType(F->getType().getUnqualifiedType());
  auto Types = IsTensor ? std::nullopt : tupleElementTypes(F->getType());
  if (!IsTensor && !Types)
    return;
  // A default member initialiser (`torch::Tensor mean_ = ...;`).
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(strip(E)))
    E = Default->getExpr();
  visit(E);
  if (Types) { // `hidden_(std::make_tuple(h, c))`
    assignTuple(Key(nullptr, F), Types->size(), E);
    return;
  }
  recordRegisteredCopy(F, E);
  Cur.Tensors[Key(nullptr, F)] = evalTensor(E);
}

void FunctionAnalyzer::transfer(const Stmt *S) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        if (VD->getInit())
          visit(VD->getInit());
        declare(VD);
      }
    return;
  }
  visit(S);
}

} // namespace clang::tidy::tensor::analysis
