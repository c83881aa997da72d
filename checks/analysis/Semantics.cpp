//===--- Semantics.cpp - What ATen's and tt's calls give ------------------===//
//
// The evaluation of expressions in the current environment: devices,
// dtypes and TensorOptions; tensor factories, conversions and the ops that
// combine tensors, after ATen (TensorIterator's common device and
// result_type, c10's promote_types); modules; tuples and vectors of tensors.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalyzer.h"
#include "clang/AST/ASTContext.h"
#include "Members.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::tensor::analysis {

DeviceFact FunctionAnalyzer::evalDevice(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = strip(E);
    if (const EnumConstantDecl *EC = enumConstant(E)) {
      if (!Api.isDeviceTypeEnum(dyn_cast<EnumDecl>(EC->getDeclContext())))
        return DeviceFact::unknown();
      return deviceFromEnumerator(EC->getName());
    }
    if (const Expr *Init = constantInit(E)) {
      E = Init;
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = resolveAlias(DRE->getDecl());
      auto It = Cur.Devices.find(D);
      if (It != Cur.Devices.end() && !isEscaped(D))
        return It->second;
      // A Device variable whose value is not known here: symbolic.
      return DeviceFact::symbol(D, /*MayBeCuda=*/true);
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXRecordDecl *RD = CE->getConstructor()->getParent();
      if (!Api.isDeviceClass(RD) || CE->getNumArgs() == 0)
        return DeviceFact::unknown();
      // Device("cuda:1"): the literal, through its std::string temporary.
      const Expr *Arg = strip(CE->getArg(0));
      if (const auto *SC = dyn_cast<CXXConstructExpr>(Arg))
        if (auto Args = writtenArgs(SC); Args.size() == 1)
          Arg = strip(Args[0]);
      if (const auto *SL = dyn_cast<StringLiteral>(Arg)) {
        llvm::StringRef S = SL->getString();
        if (S == "cpu")
          return DeviceFact::cpu();
        if (S == "cuda")
          return DeviceFact::cuda();
        int Index;
        if (S.consume_front("cuda:") && !S.getAsInteger(10, Index))
          return DeviceFact::cuda(Index);
        return DeviceFact::unknown();
      }
      DeviceFact Type = evalDevice(CE->getArg(0));
      if (Type.isKnown() && Type.IsCuda && CE->getNumArgs() > 1) {
        Expr::EvalResult R;
        if (CE->getArg(1)->EvaluateAsInt(R, Ctx))
          Type.Index = static_cast<int>(R.Val.getInt().getExtValue());
      }
      return Type;
    }
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MCE->getMethodDecl();
      if (MD && MD->getIdentifier() && MD->getName() == "device" &&
          Api.isTensorClass(MD->getParent()))
        return evalTensor(MCE->getImplicitObjectArgument()).Device;
      return DeviceFact::unknown();
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return join(evalDevice(CO->getTrueExpr()), evalDevice(CO->getFalseExpr()));
    // device_ of a class whose constructors alone set it; inside one of
    // them, what its initialiser gave it.
    if (const FieldDecl *F = thisMember(E)) {
      if (!inConstructorOf(F))
        return fixedDeviceMember(F, Api);
      if (const Expr *Init = initialiserInEffect(
              cast<CXXConstructorDecl>(Fn), F, Api)) {
        E = Init;
        continue;
      }
    }
    return DeviceFact::unknown();
  }
  return DeviceFact::unknown();
}

DTypeFact FunctionAnalyzer::evalDType(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = strip(E);
    if (const EnumConstantDecl *EC = enumConstant(E)) {
      if (!Api.isScalarTypeEnum(dyn_cast<EnumDecl>(EC->getDeclContext())))
        return DTypeFact::unknown();
      if (auto T = dtypeFromEnumerator(EC->getName()))
        return DTypeFact::known(*T);
      return DTypeFact::unknown();
    }
    if (const Expr *Init = constantInit(E)) {
      E = Init;
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = resolveAlias(DRE->getDecl());
      auto It = Cur.DTypes.find(D);
      if (It != Cur.DTypes.end() && !isEscaped(D))
        return It->second;
      return DTypeFact::symbol(D);
    }
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MCE->getMethodDecl();
      if (MD && MD->getIdentifier() &&
          (MD->getName() == "scalar_type" || MD->getName() == "dtype") &&
          Api.isTensorClass(MD->getParent()))
        return evalTensor(MCE->getImplicitObjectArgument()).Type;
      return DTypeFact::unknown();
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return join(evalDType(CO->getTrueExpr()), evalDType(CO->getFalseExpr()));
    return DTypeFact::unknown();
  }
  return DTypeFact::unknown();
}
bool isDeviceLike(const ApiModel &Api, QualType T) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (const auto *ET = T->getAs<EnumType>())
    return Api.isDeviceTypeEnum(ET->getDecl());
  return Api.isDeviceClass(T->getAsCXXRecordDecl());
}

bool isDTypeLike(const ApiModel &Api, QualType T) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (const auto *ET = T->getAs<EnumType>())
    return Api.isScalarTypeEnum(ET->getDecl());
  return false;
}

bool isOptionsLike(const ApiModel &Api, QualType T) {
  return Api.isTensorOptionsClass(
      T.getNonReferenceType()->getAsCXXRecordDecl());
}

OptionsFact FunctionAnalyzer::evalOptions(const Expr *E) {
  OptionsFact O;
  E = strip(E);
  if (!E)
    return OptionsFact::unknown();
  O.At = {E->getExprLoc(), Origin::Created};
  if (isDeviceLike(Api, E->getType())) {
    O.Device = evalDevice(E);
    return O;
  }
  if (isDTypeLike(Api, E->getType())) {
    O.Type = evalDType(E);
    return O;
  }
  // A TensorOptions variable: what it was last given.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = resolveAlias(DRE->getDecl());
    auto It = Cur.Options.find(D);
    if (It == Cur.Options.end() || isEscaped(D))
      return OptionsFact::unknown();
    OptionsFact R = It->second;
    R.At = O.At;
    return R;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() == 0)
      return O; // TensorOptions(): nothing specified
    if (CE->getNumArgs() == 1)
      return evalOptions(CE->getArg(0));
  }
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    // t.options(): the tensor's device and dtype.
    if (MD && MD->getIdentifier() && MD->getName() == "options" &&
        Api.isTensorClass(MD->getParent())) {
      TensorFact T = evalTensor(MCE->getImplicitObjectArgument());
      O.Device = T.Device;
      O.Type = T.Type;
      return O;
    }
    if (MD && Api.isTensorOptionsClass(MD->getParent()) && MD->getIdentifier()) {
      OptionsFact Base = evalOptions(MCE->getImplicitObjectArgument());
      llvm::StringRef N = MD->getName();
      if (N == "device" && MCE->getNumArgs() >= 1)
        Base.Device = evalDevice(MCE->getArg(0));
      else if (N == "dtype")
        Base.Type = MCE->getNumArgs() >= 1 ? evalDType(MCE->getArg(0))
                                           : DTypeFact::unknown();
      else if (N != "requires_grad" && N != "pinned_memory" && N != "layout" &&
               N != "memory_format")
        Base = OptionsFact::unknown();
      Base.At = {MCE->getExprLoc(), Origin::Created};
      return Base;
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (FD && FD->getIdentifier() && CE->getNumArgs() == 1 &&
        Api.isTensorOptionsClass(
            FD->getReturnType()->getAsCXXRecordDecl())) {
      if (FD->getName() == "device")
        O.Device = evalDevice(CE->getArg(0));
      else if (FD->getName() == "dtype")
        O.Type = evalDType(CE->getArg(0));
      else
        return OptionsFact::unknown();
      return O;
    }
  }
  return OptionsFact::unknown();
}

//===----------------------------------------------------------------------===//
// Tensors.
//===----------------------------------------------------------------------===//

TensorFact FunctionAnalyzer::lookupTensor(const Key &K) {
  const ValueDecl *D = resolveAlias(K.Var);
  if (isEscaped(D))
    return TensorFact::unknown();
  auto It = Cur.Tensors.find(Key(D, K.Field, K.Element));
  if (It != Cur.Tensors.end())
    return It->second;
  // A batch from a data loader: its data and target are cpu tensors with at
  // least one dimension (the batch), as the loader returns them.
  if (K.Field && Body.BatchVars.contains(D) && Api.isBatchTensorField(K.Field))
    return batchTensor(D);
  return TensorFact::unknown();
}

TensorFact batchTensor(const ValueDecl *Batch) {
  TensorFact B = TensorFact::unknown();
  B.Device = DeviceFact::cpu();
  B.Dim = -2; // at least one dimension
  B.DeviceOrigin = {Batch->getLocation(), Origin::Batch};
  return B;
}

void FunctionAnalyzer::combinedOperands(const Expr *A,
                                        llvm::SmallVectorImpl<Operand> &Out,
                                        bool KeepScalars) {
  A = unwrapArgument(A);
  if (isTensorExpr(A)) {
    Out.push_back({A, evalTensor(A)});
    return;
  }
  if (auto Elements = listElements(A); !Elements.empty()) {
    for (const Expr *El : Elements)
      if (isTensorExpr(El))
        Out.push_back({El, evalTensor(El)});
    return;
  }
  // torch::stack(images), torch::cat(parts): one operand whose fact holds
  // for every element; an empty vector adds nothing. LibTorch takes a
  // TensorList (ArrayRef<Tensor>) built implicitly from the vector.
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(strip(A));
      CE && !CE->isListInitialization())
    if (auto Args = writtenArgs(CE);
        Args.size() == 1 && isTensorOperand(strip(Args[0])))
      A = strip(Args[0]);
  if (isTensorOperand(A)) {
    if (TensorFact F = evalElements(A); F.reached())
      Out.push_back({A, F});
    return;
  }
  if (KeepScalars)
    Out.push_back({A, TensorFact::unknown()});
}

TensorFact FunctionAnalyzer::combine(llvm::ArrayRef<const Expr *> Args,
                                     llvm::ArrayRef<TensorFact> Facts,
                                     SourceLocation Loc) {
  TensorFact R;
  R.Device.Kind = FactKind::Unreached;
  R.Type.Kind = FactKind::Unreached;
  int Dim = -1;
  bool AllTensorsPositiveDim = true;
  std::optional<DType> Scalar; // the widest C++ scalar operand's category
  DeviceFact ScalarDevice;     // of the operands that may be cpu scalars
  for (size_t I = 0; I < Args.size(); ++I) {
    const Expr *A = Args[I];
    if (!isTensorOperand(A)) {
      QualType T = A->getType().getNonReferenceType();
      if (T->isFloatingType())
        Scalar = DType::Float64;
      else if (T->isBooleanType())
        Scalar = Scalar ? Scalar : std::optional<DType>(DType::Bool);
      else if (T->isIntegerType())
        Scalar = (Scalar && isFloating(*Scalar)) ? Scalar
                                                 : std::optional<DType>(DType::Int64);
      continue;
    }
    const TensorFact &F = Facts[I];
    // A 0-dim cpu tensor takes the other operands' device (ATen's rule):
    // the result is where the others are; if it has dimensions after all,
    // the op throws and no result exists. Only when every operand may be a
    // cpu scalar is the result on the cpu.
    if (F.mayBeCpuScalar())
      ScalarDevice = ScalarDevice.Kind == FactKind::Unreached
                         ? F.Device
                         : join(ScalarDevice, F.Device);
    else
      R.Device = R.Device.Kind == FactKind::Unreached ? F.Device
                                                      : join(R.Device, F.Device);
    R.Type = R.Type.Kind == FactKind::Unreached
                 ? F.Type
                 : (F.Type.isKnown() && R.Type.isKnown()
                        ? DTypeFact::known(promoteTypes(R.Type.Type, F.Type.Type))
                        : DTypeFact::unknown());
    if (F.Dim == -1 || F.Dim == 0)
      AllTensorsPositiveDim = false;
    Dim = std::max(Dim, F.Dim);
  }
  if (R.Device.Kind == FactKind::Unreached)
    R.Device = ScalarDevice;
  if (R.Device.Kind == FactKind::Unreached)
    return TensorFact::unknown();
  // Promotion across dimension categories needs every dim: without them a
  // dtype is only certain when all operands share it.
  bool Mixed = false;
  for (size_t I = 0; I < Args.size(); ++I)
    if (isTensorOperand(Args[I]) && Facts[I].Type != Facts[0].Type)
      Mixed = true;
  if (Mixed && !AllTensorsPositiveDim)
    R.Type = DTypeFact::unknown();
  if (Scalar && R.Type.isKnown()) {
    DType T = R.Type.Type;
    if (isFloating(*Scalar) && !isFloating(T))
      R.Type = DTypeFact::known(DType::Float32); // the default dtype
    else if (*Scalar == DType::Int64 && T == DType::Bool)
      R.Type = DTypeFact::known(DType::Int64);
  }
  R.Dim = AllTensorsPositiveDim ? std::max(Dim, -2) : -1;
  R.DeviceOrigin = R.TypeOrigin = {Loc, Origin::Result};
  return R;
}

TensorFact FunctionAnalyzer::evalConversion(const CXXMemberCallExpr *MCE,
                                            const TensorFact &Self) {
  const CXXMethodDecl *MD = MCE->getMethodDecl();
  llvm::StringRef N = MD->getName();
  TensorFact R = Self;
  Origin Moved{MCE->getExprLoc(), Origin::Moved};
  Origin Converted{MCE->getExprLoc(), Origin::Converted};
  if (N == "cuda") {
    R.Device = DeviceFact::cuda();
    R.DeviceOrigin = Moved;
  } else if (N == "cpu") {
    R.Device = DeviceFact::cpu();
    R.DeviceOrigin = Moved;
  } else if (N == "half") {
    R.Type = DTypeFact::known(DType::Float16);
    R.TypeOrigin = Converted;
  } else if (N == "bfloat16") {
    R.Type = DTypeFact::known(DType::BFloat16);
    R.TypeOrigin = Converted;
  } else if (N == "toType") {
    R.Type = MCE->getNumArgs() ? evalDType(MCE->getArg(0)) : DTypeFact::unknown();
    R.TypeOrigin = Converted;
  } else if (N == "type_as") {
    R.Type = MCE->getNumArgs() ? evalTensor(MCE->getArg(0)).Type
                               : DTypeFact::unknown();
    R.TypeOrigin = Converted;
  } else if (N == "to") {
    if (MCE->getNumArgs() == 0)
      return R;
    const Expr *A0 = MCE->getArg(0);
    if (isTensorExpr(A0)) { // to(other): other's device and dtype
      TensorFact O = evalTensor(A0);
      R.Device = O.Device;
      R.Type = O.Type;
      R.DeviceOrigin = Moved;
      R.TypeOrigin = Converted;
      return R;
    }
    // to(device[, dtype]), to(dtype), to(options): each argument that names
    // a device or dtype sets it.
    for (const Expr *A : MCE->arguments()) {
      if (isa<CXXDefaultArgExpr>(A))
        continue;
      QualType T = A->getType();
      if (isDeviceLike(Api, T)) {
        R.Device = evalDevice(A);
        R.DeviceOrigin = Moved;
      } else if (isDTypeLike(Api, T)) {
        R.Type = evalDType(A);
        R.TypeOrigin = Converted;
      } else if (Api.isTensorOptionsClass(
                     T.getNonReferenceType()->getAsCXXRecordDecl())) {
        OptionsFact O = evalOptions(A);
        if (O.Device)
          R.Device = *O.Device, R.DeviceOrigin = Moved;
        if (O.Type)
          R.Type = *O.Type, R.TypeOrigin = Converted;
      } else if (const auto *RT = T.getNonReferenceType()->getAsCXXRecordDecl();
                 RT && RT->getIdentifier() && RT->getName() == "optional") {
        R.Device = DeviceFact::unknown();
        R.Type = DTypeFact::unknown();
      }
    }
  }
  // contiguous, clone, detach, pin_memory keep device and dtype.
  return R;
}


// The number of dimensions of a tensor method's result, given its object's
// (-1: unknown, -2: at least one), as ATen's shape functions give it.
int FunctionAnalyzer::methodRank(llvm::StringRef Name,
                                 const CXXMemberCallExpr *MCE, int Self) {
  auto Args = writtenArgs(MCE);
  if (Api.keepsRank(Name))
    return Self;
  if (Api.isReduction(Name) && Args.empty())
    return 0;
  if ((Name == "view" || Name == "reshape" || Name == "expand") &&
      Args.size() == 1)
    return sizesRank(Args[0]);
  if ((Name == "view_as" || Name == "reshape_as" || Name == "expand_as") &&
      Args.size() == 1 && isTensorExpr(Args[0]))
    return evalTensor(Args[0]).Dim;
  if (Name == "unsqueeze")
    return Self >= 0 ? Self + 1 : -2;
  if (Name == "flatten" && Args.empty())
    return 1;
  if (Name == "select")
    return Self >= 1 ? Self - 1 : -1;
  return -1;
}

TensorFact FunctionAnalyzer::evalCall(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return TensorFact::unknown();
  SourceLocation Loc = CE->getExprLoc();

  // Module calls: the output is where the module is.
  const Expr *ModuleE = nullptr, *Input = nullptr;
  if (isModuleCall(CE, ModuleE, Input)) {
    ModuleFact M = evalModule(ModuleE);
    TensorFact R = TensorFact::unknown();
    R.Device = M.Device;
    R.DeviceOrigin = M.DeviceOrigin;
    if (M.Type.isKnown() && M.TypeOrigin.How == Origin::ModuleMoved) {
      R.Type = M.Type;
      R.TypeOrigin = M.TypeOrigin;
    }
    return R;
  }

  // A user function: what it returns, given what the arguments are.
  if (const FunctionDecl *Def = userCallee(CE, Api)) {
    const FunctionFacts *F = isTensorExpr(CE) ? follow(CE, Def) : nullptr;
    if (F && F->Complete && F->Returns.reached())
      return F->Returns;
    return TensorFact::unknown();
  }

  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    // module.forward({x}).toTensor(): a TorchScript module's output.
    if (MD && MD->getIdentifier() && MD->getName() == "toTensor" &&
        Api.isIValueClass(MD->getParent()))
      if (const auto *Inner =
              dyn_cast<CallExpr>(strip(MCE->getImplicitObjectArgument()));
          Inner && isModuleCall(Inner, ModuleE, Input))
        return evalCall(Inner);
    if (!MD || !Api.isTensorClass(MD->getParent()))
      return TensorFact::unknown();
    TensorFact Self = evalTensor(MCE->getImplicitObjectArgument());
    if (Api.isOutOfPlaceConversion(MD))
      return evalConversion(MCE, Self);
    if (Api.isCombining(MD)) {
      llvm::SmallVector<const Expr *, 3> Args{MCE->getImplicitObjectArgument()};
      llvm::SmallVector<TensorFact, 3> Facts{Self};
      for (const Expr *A : MCE->arguments()) {
        if (isa<CXXDefaultArgExpr>(A))
          continue;
        Args.push_back(A);
        Facts.push_back(isTensorExpr(A) ? evalTensor(A) : TensorFact::unknown());
      }
      TensorFact R = combine(Args, Facts, Loc);
      if (MD->getName().ends_with("_"))
        R.Type = Self.Type, R.Dim = Self.Dim; // in place: the object's
      return R;
    }
    // Any other tensor method: same device; dtype only where it is kept.
    TensorFact R = TensorFact::unknown();
    R.Device = Self.Device;
    R.DeviceOrigin = Self.DeviceOrigin;
    if (MD->getIdentifier() && Api.keepsDType(MD->getName())) {
      R.Type = Self.Type;
      R.TypeOrigin = Self.TypeOrigin;
    }
    if (MD->getIdentifier())
      R.Dim = methodRank(MD->getName(), MCE, Self.Dim);
    return R;
  }

  // Operators and free functions.
  llvm::SmallVector<const Expr *, 4> Args;
  for (const Expr *A : CE->arguments())
    if (!isa<CXXDefaultArgExpr>(A))
      Args.push_back(unwrapArgument(A));

  switch (Api.factoryKind(FD)) {
  case ApiModel::FactoryKind::None:
    break;
  case ApiModel::FactoryKind::Like: {
    TensorFact R = Args.empty() ? TensorFact::unknown() : evalTensor(Args[0]);
    for (size_t I = 1; I < Args.size(); ++I)
      if (Api.isTensorOptionsClass(
              Args[I]->getType().getNonReferenceType()->getAsCXXRecordDecl()) ||
          isDTypeLike(Api, Args[I]->getType()) ||
          isDeviceLike(Api, Args[I]->getType())) {
        OptionsFact O = evalOptions(Args[I]);
        if (O.Device)
          R.Device = *O.Device;
        if (O.Type)
          R.Type = *O.Type;
      }
    R.DeviceOrigin = R.TypeOrigin = {Loc, Origin::Created};
    return R;
  }
  default: {
    ApiModel::FactoryKind K = Api.factoryKind(FD);
    TensorFact R;
    R.Device = DeviceFact::cpu();
    R.Type = K == ApiModel::FactoryKind::DefaultFloat
                 ? (defaultFloatKnown() ? DTypeFact::known(DType::Float32)
                                              : DTypeFact::unknown())
                 : K == ApiModel::FactoryKind::Long
                       ? DTypeFact::known(DType::Int64)
                       : DTypeFact::unknown();
    R.DeviceOrigin = R.TypeOrigin = {Loc, Origin::Created};
    llvm::StringRef N = FD->getName();
    // The sizes: a braced list, the first such argument (from_blob and
    // randint take other arguments before it).
    int Rank = -1;
    if (N == "tensor" && !Args.empty()) {
      // torch::tensor({{1.f, 2.f}, ...}): the values' nesting and type
      // (TensorDataContainer's compute_desired_dtype: int and long give
      // int64, float and double the default dtype, bool stays bool).
      QualType Leaf;
      Rank = nestedListRank(Args[0], &Leaf);
      if (Rank >= 0 && !Leaf.isNull()) {
        if (Leaf->isBooleanType())
          R.Type = DTypeFact::known(DType::Bool);
        else if (Leaf->isFloatingType() &&
                 (Leaf->isSpecificBuiltinType(BuiltinType::Float) ||
                  Leaf->isSpecificBuiltinType(BuiltinType::Double)))
          R.Type = defaultFloatKnown() ? DTypeFact::known(DType::Float32)
                                       : DTypeFact::unknown();
        else if (Leaf->isIntegerType() && !Leaf->isCharType() &&
                 Ctx.getTypeSize(Leaf) >= 32)
          R.Type = DTypeFact::known(DType::Int64);
      }
    } else if (N == "scalar_tensor")
      Rank = 0;
    else if (N == "arange" || N == "linspace" || N == "logspace" ||
             N == "randperm")
      Rank = 1;
    else if (N == "eye")
      Rank = 2;
    else
      for (const Expr *A : Args)
        if ((Rank = sizesRank(A)) >= 0)
          break;
    R.Dim = Rank;
    for (const Expr *A : Args) {
      QualType T = A->getType();
      if (Api.isTensorOptionsClass(
              T.getNonReferenceType()->getAsCXXRecordDecl()) ||
          isDeviceLike(Api, T) || isDTypeLike(Api, T)) {
        OptionsFact O = evalOptions(A);
        if (O.Device)
          R.Device = *O.Device;
        if (O.Type)
          R.Type = *O.Type;
      }
    }
    return R;
  }
  }

  if (Api.isCombining(FD)) {
    llvm::SmallVector<Operand, 4> Ops;
    for (const Expr *A : Args)
      combinedOperands(A, Ops, /*KeepScalars=*/true);
    llvm::SmallVector<const Expr *, 4> Tensors;
    llvm::SmallVector<TensorFact, 4> Facts;
    for (const Operand &O : Ops)
      Tensors.push_back(O.E), Facts.push_back(O.Fact);
    TensorFact R = combine(Tensors, Facts, Loc);
    R.Dim = Api.combinedRank(FD, R.Dim);
    return R;
  }

  // Other API functions of one tensor (relu, log_softmax, dropout...): the
  // device of their tensor arguments when those agree.
  if (FD->getIdentifier()) {
    TensorFact R;
    R.Device.Kind = FactKind::Unreached;
    bool Any = false;
    for (const Expr *A : Args) {
      if (!isTensorExpr(A))
        continue;
      TensorFact F = evalTensor(A);
      R.Device = Any ? (R.Device == F.Device ? R.Device : DeviceFact::unknown())
                     : F.Device;
      R.DeviceOrigin = F.DeviceOrigin;
      if (!Any && Api.keepsDType(FD->getName()))
        R.Type = F.Type, R.TypeOrigin = F.TypeOrigin;
      else
        R.Type = DTypeFact::unknown();
      Any = true;
    }
    if (Any && Api.isApiFunction(FD)) {
      R.Dim = -1;
      if (Api.keepsRank(FD->getName()) && !Args.empty() && isTensorExpr(Args[0]))
        R.Dim = evalTensor(Args[0]).Dim;
      return R;
    }
  }
  return TensorFact::unknown();
}

// A tensor boxed in an IValue (`{x}` passed to a TorchScript module), as
// written; anything else as it is.
const Expr *FunctionAnalyzer::unboxed(const Expr *E) const {
  E = strip(E);
  const auto *IV = dyn_cast_or_null<CXXConstructExpr>(E);
  if (IV && Api.isIValueClass(IV->getConstructor()->getParent()))
    if (auto Args = writtenArgs(IV); Args.size() == 1)
      return strip(Args[0]);
  return E;
}

// An argument as the user wrote it, through an implicit conversion of a
// tensor or a number into a wrapper parameter, such as tt's operators taking
// a LocatedTensor (a tensor reference plus the caller's source location).
const Expr *FunctionAnalyzer::unwrapArgument(const Expr *E) const {
  E = strip(E);
  const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
  if (!CE || isa<CXXTemporaryObjectExpr>(CE) || CE->isListInitialization() ||
      CE->getConstructor()->isExplicit() || isTensorExpr(CE))
    return E;
  auto Args = writtenArgs(CE);
  if (Args.size() != 1)
    return E;
  const Expr *Inner = strip(Args[0]);
  QualType T = Inner->getType().getNonReferenceType();
  return isTensorExpr(Inner) || T->isArithmeticType() ? Inner : E;
}

std::optional<Key> FunctionAnalyzer::tensorLocation(const Expr *E) const {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = strip(E);
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E)) {
      if (isa<VarDecl>(DRE->getDecl()))
        return Key(resolveAlias(DRE->getDecl()));
      // A structured binding: the element or member it names.
      if (const auto *BD = dyn_cast<BindingDecl>(DRE->getDecl())) {
        if (const VarDecl *Holding = BD->getHoldingVar())
          E = Holding->getInit();
        else
          E = BD->getBinding();
        continue;
      }
      return std::nullopt;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      // A tensor member of the class a constructor is setting up.
      if (FD && isa<CXXThisExpr>(strip(ME->getBase())) && inConstructorOf(FD))
        return Key(nullptr, FD);
      const ValueDecl *Base = referencedVar(ME->getBase());
      if (!FD || !Base || ME->isArrow())
        return std::nullopt;
      Base = resolveAlias(Base);
      // pair.first and pair.second are std::get<0> and std::get<1>.
      if (tupleElementTypes(Base->getType()) && FD->getIdentifier() &&
          (FD->getName() == "first" || FD->getName() == "second"))
        return Key(Base, nullptr, FD->getName() == "first" ? 0 : 1);
      return Key(Base, FD);
    }
    if (auto Get = tupleGet(E)) {
      const ValueDecl *Base = referencedVar(Get->second);
      if (!Base)
        return std::nullopt;
      return Key(resolveAlias(Base), nullptr, static_cast<int>(Get->first));
    }
    return std::nullopt;
  }
  return std::nullopt;
}

const ValueDecl *FunctionAnalyzer::containerOf(const Expr *E) const {
  const ValueDecl *V = elementContainer(E);
  if (!V)
    return nullptr;
  V = resolveAlias(V);
  QualType T = V->getType().getNonReferenceType().getUnqualifiedType();
  if (Api.isInputVector(T) || Body.BatchVectors.contains(V))
    return V;
  return nullptr;
}

TensorFact FunctionAnalyzer::evalElements(const Expr *E) {
  E = strip(E);
  if (!E)
    return TensorFact::unknown();
  if (const ValueDecl *V = referencedVar(E)) {
    V = resolveAlias(V);
    if (!Api.isInputVector(
            V->getType().getNonReferenceType().getUnqualifiedType()))
      return TensorFact::unknown();
    return lookupTensor(Key(V));
  }
  auto Elements = listElements(E);
  if (Elements.empty())
    return TensorFact::unknown();
  TensorFact R;
  for (const Expr *El : Elements) {
    const Expr *T = unboxed(El);
    TensorFact F = isTensorExpr(T) ? evalTensor(T) : TensorFact::unknown();
    R = R.reached() ? join(R, F) : F;
  }
  return R;
}

std::optional<llvm::SmallVector<TensorFact, 4>>
FunctionAnalyzer::evalTuple(const Expr *E) {
  E = strip(E);
  if (!E || E->containsErrors() || E->isTypeDependent())
    return std::nullopt;
  auto Types = tupleElementTypes(E->getType());
  if (!Types)
    return std::nullopt;
  llvm::SmallVector<TensorFact, 4> Out;
  auto IsTensorType = [&](QualType T) {
    return !T.isNull() &&
           Api.isTensorValueType(T.getNonReferenceType().getUnqualifiedType());
  };
  // Written element by element: make_tuple(h, c), {h, c}, std::pair(h, c).
  auto FromArgs = [&](llvm::ArrayRef<const Expr *> Args)
      -> std::optional<llvm::SmallVector<TensorFact, 4>> {
    if (Args.size() != Types->size())
      return std::nullopt;
    for (const Expr *A : Args)
      Out.push_back(isTensorExpr(A) ? evalTensor(A) : TensorFact::unknown());
    return Out;
  };
  if (std::optional<Key> K = tensorLocation(E); K && !K->Field && K->Element < 0) {
    if (isEscaped(K->Var))
      return std::nullopt;
    for (unsigned I = 0; I < Types->size(); ++I)
      Out.push_back(lookupTensor(Key(K->Var, nullptr, static_cast<int>(I))));
    return Out;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    auto A = evalTuple(CO->getTrueExpr()), B = evalTuple(CO->getFalseExpr());
    if (!A || !B || A->size() != B->size())
      return std::nullopt;
    for (unsigned I = 0; I < A->size(); ++I)
      Out.push_back(join((*A)[I], (*B)[I]));
    return Out;
  }
  if (auto Args = tupleArguments(E); !Args.empty())
    return FromArgs(Args);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    auto Args = writtenArgs(CE);
    return Args.size() == 1 ? evalTuple(Args[0]) // a converting copy
                            : std::nullopt;
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD)
    return std::nullopt;
  // A module's output: where the module is, as for a tensor output.
  const Expr *ModuleE = nullptr, *Input = nullptr;
  if (isModuleCall(Call, ModuleE, Input)) {
    TensorFact R = evalCall(Call);
    for (QualType T : *Types)
      Out.push_back(IsTensorType(T) ? R : TensorFact::unknown());
    return Out;
  }
  // An op of the tensor API that returns several tensors (max(dim),
  // sort, topk, ...): they are on its tensor's device. Values keep its
  // dtype and indices are int64.
  const Expr *Self = nullptr;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (Api.isTensorClass(MCE->getMethodDecl()->getParent()))
      Self = MCE->getImplicitObjectArgument();
  } else if (Api.isApiFunction(FD) && Call->getNumArgs() >= 1 &&
             isTensorExpr(Call->getArg(0))) {
    Self = Call->getArg(0);
  }
  if (!Self)
    return std::nullopt;
  TensorFact S = evalTensor(Self);
  bool ValuesAndIndices =
      FD->getIdentifier() && Api.returnsValuesAndIndices(FD->getName());
  // sort, topk, cummax and cummin keep the rank; max(dim), min(dim),
  // median(dim), ... drop the dim unless keepdim is written true.
  int Dim = -1;
  if (ValuesAndIndices && S.Dim >= 1) {
    llvm::StringRef N = FD->getName();
    auto Args = writtenArgs(Call);
    if (N == "sort" || N == "topk" || N == "cummax" || N == "cummin")
      Dim = S.Dim;
    else if (std::none_of(Args.begin(), Args.end(), [](const Expr *A) {
               return strip(A)->getType()->isBooleanType();
             }))
      Dim = S.Dim - 1;
  }
  for (unsigned I = 0; I < Types->size(); ++I) {
    TensorFact R = TensorFact::unknown();
    if (IsTensorType((*Types)[I])) {
      R.Device = S.Device;
      R.DeviceOrigin = S.DeviceOrigin;
      R.Dim = Dim;
      if (ValuesAndIndices && I == 0)
        R.Type = S.Type, R.TypeOrigin = S.TypeOrigin;
      else if (ValuesAndIndices && I == 1)
        R.Type = DTypeFact::known(DType::Int64),
        R.TypeOrigin = {Call->getExprLoc(), Origin::Result};
    }
    Out.push_back(R);
  }
  return Out;
}

TensorFact FunctionAnalyzer::evalTensor(const Expr *E) {
  E = strip(E);
  if (!E || E->containsErrors() || E->isTypeDependent())
    return TensorFact::unknown();
  if (std::optional<Key> K = tensorLocation(E))
    return lookupTensor(*K);
  // std::get<I> of a tuple that is not a variable: make_tuple(...), x.max(1).
  if (auto Get = tupleGet(E)) {
    auto Elements = evalTuple(Get->second);
    return Elements && Get->first < Elements->size() ? (*Elements)[Get->first]
                                                     : TensorFact::unknown();
  }
  if (const ValueDecl *V = containerOf(E)) {
    if (Body.BatchVectors.contains(V))
      return TensorFact::unknown(); // an Example, not a tensor
    TensorFact F = lookupTensor(Key(V));
    return F.reached() ? F : TensorFact::unknown();
  }
  // mean_ of a class whose constructors alone set it.
  if (const FieldDecl *F = thisMember(E); F && !inConstructorOf(F))
    return fixedTensorMember(F, Api);
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // batch[i].data: a tensor of a data loader's batch.
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (const ValueDecl *V = containerOf(ME->getBase());
        FD && V && !ME->isArrow() && Body.BatchVectors.contains(V) &&
        Api.isBatchTensorField(FD))
      return batchTensor(V);
    return TensorFact::unknown();
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return evalCall(CE);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return join(evalTensor(CO->getTrueExpr()), evalTensor(CO->getFalseExpr()));
  return TensorFact::unknown();
}

//===----------------------------------------------------------------------===//
// Modules.
//===----------------------------------------------------------------------===//

const ValueDecl *FunctionAnalyzer::moduleVar(const Expr *E) {
  // holder->, (*holder), shared_ptr->: the module behind the handle.
  if (const ValueDecl *D = objectVar(E))
    if (Api.isModuleHandleType(D->getType()))
      return resolveAlias(D);
  return nullptr;
}

ModuleFact FunctionAnalyzer::evalModule(const Expr *E) {
  const ValueDecl *D = moduleVar(E);
  if (!D) {
    // model_ of a class that places it in every constructor.
    if (const FieldDecl *F = thisMember(E); F && !inConstructorOf(F))
      return placedModuleMember(F, Api);
    return ModuleFact::unknown();
  }
  if (isEscaped(D))
    return ModuleFact::unknown();
  auto It = Cur.Modules.find(D);
  return It == Cur.Modules.end() ? ModuleFact::unknown() : It->second;
}

bool FunctionAnalyzer::isModuleCall(const CallExpr *CE, const Expr *&ModuleE,
                                    const Expr *&Input) const {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  auto FirstTensorArg = [&](unsigned From) -> const Expr * {
    for (unsigned I = From; I < CE->getNumArgs(); ++I)
      if (isTensorExpr(CE->getArg(I)))
        return CE->getArg(I);
    // TorchScript's forward(std::vector<IValue>), called as forward({x}),
    // or with a vector of inputs filled before.
    if (From < CE->getNumArgs()) {
      for (const Expr *El : listElements(CE->getArg(From)))
        if (const Expr *T = unboxed(El); isTensorExpr(T))
          return T;
      if (const ValueDecl *V = referencedVar(CE->getArg(From));
          V && Api.isInputVector(V->getType()))
        return strip(CE->getArg(From));
    }
    return nullptr;
  };
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (!Api.isModuleForward(MD))
      return false;
    ModuleE = MCE->getImplicitObjectArgument();
    Input = FirstTensorArg(0);
    return Input != nullptr;
  }
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (OCE->getOperator() != OO_Call || OCE->getNumArgs() < 2)
      return false;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (!MD || !Api.isModuleHandleType(OCE->getArg(0)->getType()))
      return false;
    ModuleE = OCE->getArg(0);
    Input = FirstTensorArg(1);
    return Input != nullptr;
  }
  return false;
}

} // namespace clang::tidy::tensor::analysis
