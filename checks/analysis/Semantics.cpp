//===--- Semantics.cpp - What ATen's and tt's calls give ------------------===//
//
// The evaluation of expressions in the current environment: devices,
// dtypes and TensorOptions; tensor factories, conversions and the ops that
// combine tensors, after ATen (TensorIterator's common device and
// result_type, c10's promote_types); modules; tuples and vectors of tensors.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalyzer.h"
#include "Members.h"
#include "Modules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::tensor::analysis {

// What an optional made from one value holds: `optional<ScalarType>` and
// `optional<Device>` are what TensorOptions::dtype(), device() and
// torch::jit::load take, so `.dtype(torch::kFloat64)` passes one.
static const Expr *heldByOptional(const ApiModel &Api, const Expr *E) {
  const auto *C = dyn_cast_or_null<CXXConstructExpr>(E);
  if (!C || !Api.isOptionalClass(C->getConstructor()->getParent()))
    return nullptr;
  auto Args = writtenArgs(C);
  return Args.size() == 1 ? strip(Args[0]) : nullptr;
}

DeviceFact FunctionAnalyzer::evalDevice(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = strip(E);
    if (const Expr *Held = heldByOptional(Api, E)) {
      E = Held;
      continue;
    }
    if (const EnumConstantDecl *EC = enumConstant(E)) {
      return deviceFromKind(Api.deviceKindOf(EC));
    }
    if (const Expr *Init = constantInit(E)) {
      E = Init;
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = resolveAlias(DRE->getDecl());
      auto It = Cur.Devices.find(D);
      if (It != Cur.Devices.end() && !isEscaped(D)) {
        DeviceFact F = It->second;
        // Messages name the variable written here, not the one it was
        // made from.
        if (F.Kind == FactKind::Symbolic && F.Symbol != D && isa<VarDecl>(D) &&
            !isa<ParmVarDecl>(D) && D->getDeclContext() == Fn)
          F.Shown = D;
        return F;
      }
      // A Device variable whose value is not known here: symbolic.
      return DeviceFact::symbol(D, /*MayBeCuda=*/true);
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXRecordDecl *RD = CE->getConstructor()->getParent();
      if (!Api.isDeviceClass(RD) || CE->getNumArgs() == 0)
        return DeviceFact::unknown();
      // Device("cuda:1").
      if (const StringLiteral *SL = writtenString(CE->getArg(0)))
        return deviceFromName(Api.parseDeviceString(SL->getString()));
      DeviceFact Type = evalDevice(CE->getArg(0));
      if (Type.isKnown() && Type.IsCuda && CE->getNumArgs() > 1) {
        Expr::EvalResult R;
        if (CE->getArg(1)->EvaluateAsInt(R, Ctx))
          Type.Index = static_cast<int>(R.Val.getInt().getExtValue());
      }
      return Type;
    }
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
      if (Api.tensorProperty(MCE->getMethodDecl()) ==
          ApiModel::TensorProperty::Device)
        return evalTensor(MCE->getImplicitObjectArgument()).Device;
      return DeviceFact::unknown();
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return join(evalDevice(CO->getTrueExpr()),
                  evalDevice(CO->getFalseExpr()));
    // device_ of a class whose constructors alone set it; inside one of
    // them, what its initialiser gave it.
    if (const FieldDecl *F = thisMember(E)) {
      if (!inConstructorOf(F)) {
        DeviceFact D = fixedDeviceMember(State, F, Api);
        return D.Kind != FactKind::Unknown ? D : fieldDevice(State, F, Fn, Api);
      }
      if (const Expr *Init =
              initialiserInEffect(cast<CXXConstructorDecl>(Fn), F, Api)) {
        E = Init;
        continue;
      }
      return DeviceFact::unknown();
    }
    // cfg.device, opts_->device: a configuration object's Device field.
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        return fieldDevice(State, F, Fn, Api);
    return DeviceFact::unknown();
  }
  return DeviceFact::unknown();
}

DTypeFact FunctionAnalyzer::evalDType(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = strip(E);
    if (const Expr *Held = heldByOptional(Api, E)) {
      E = Held;
      continue;
    }
    if (const EnumConstantDecl *EC = enumConstant(E)) {
      if (std::optional<DType> T = Api.dtypeOf(EC))
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
      if (Api.tensorProperty(MCE->getMethodDecl()) ==
          ApiModel::TensorProperty::DType)
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
  return Api.isTypeMetaClass(T->getAsCXXRecordDecl());
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
  // opts_ of a class whose constructors alone set it: what their
  // initialisers' constants give it in every method (a constructor's
  // parameter means nothing here).
  if (const FieldDecl *F = thisMember(E)) {
    llvm::ArrayRef<const Expr *> Inits =
        inConstructorOf(F) || OptionsMemberDepth >= 2
            ? llvm::ArrayRef<const Expr *>()
            : fixedOptionsInitialisers(State, F, Api);
    if (Inits.empty())
      return OptionsFact::unknown();
    std::optional<OptionsFact> R;
    ++OptionsMemberDepth; // one member's initialiser may name another
    for (const Expr *Init : Inits) {
      OptionsFact I = evalOptions(Init);
      // A constant, or a fixed Device member (`device_`), means the same
      // in every method.
      if (I.Device && !I.Device->isKnown() &&
          !(I.Device->Kind == FactKind::Symbolic &&
            isa_and_nonnull<FieldDecl>(I.Device->Symbol)))
        I.Device = DeviceFact::unknown();
      if (I.Type && !I.Type->isKnown())
        I.Type = DTypeFact::unknown();
      R = R ? join(*R, I) : I;
    }
    --OptionsMemberDepth;
    return *R;
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
    if (Api.tensorProperty(MD) == ApiModel::TensorProperty::Options) {
      TensorFact T = evalTensor(MCE->getImplicitObjectArgument());
      O.Device = T.Device;
      O.Type = T.Type;
      return O;
    }
    if (MD && Api.isTensorOptionsClass(MD->getParent())) {
      OptionsFact Base = evalOptions(MCE->getImplicitObjectArgument());
      switch (Api.optionsSetter(MD)) {
      case ApiModel::OptionsSetter::Device:
        if (MCE->getNumArgs() >= 1)
          Base.Device = evalDevice(MCE->getArg(0));
        break;
      case ApiModel::OptionsSetter::DType:
        Base.Type = MCE->getNumArgs() >= 1 ? evalDType(MCE->getArg(0))
                                           : DTypeFact::unknown();
        break;
      case ApiModel::OptionsSetter::Neutral:
        break;
      case ApiModel::OptionsSetter::Other:
        Base = OptionsFact::unknown();
        break;
      }
      Base.At = {MCE->getExprLoc(), Origin::Created};
      return Base;
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (FD && !isa<CXXMethodDecl>(FD) && CE->getNumArgs() == 1 &&
        Api.isTensorOptionsClass(FD->getReturnType()->getAsCXXRecordDecl())) {
      switch (Api.optionsSetter(FD)) {
      case ApiModel::OptionsSetter::Device:
        O.Device = evalDevice(CE->getArg(0));
        return O;
      case ApiModel::OptionsSetter::DType:
        O.Type = evalDType(CE->getArg(0));
        return O;
      case ApiModel::OptionsSetter::Neutral:
        return O; // torch::requires_grad(): nothing else specified
      default:
        return OptionsFact::unknown();
      }
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
  DeviceFact ScalarDevice;     // of the operands that decide nothing
  for (size_t I = 0; I < Args.size(); ++I) {
    const Expr *A = Args[I];
    if (!isTensorOperand(A)) {
      QualType T = A->getType().getNonReferenceType();
      if (T->isFloatingType())
        Scalar = DType::Float64;
      else if (T->isBooleanType())
        Scalar = Scalar ? Scalar : std::optional<DType>(DType::Bool);
      else if (T->isIntegerType())
        Scalar = (Scalar && isFloating(*Scalar))
                     ? Scalar
                     : std::optional<DType>(DType::Int64);
      continue;
    }
    const TensorFact &F = Facts[I];
    // A 0-dim cpu tensor takes the other operands' device (ATen's rule):
    // the result is where the others are; if it has dimensions after all,
    // the op throws and no result exists. Only when every operand may be a
    // cpu scalar is the result on the cpu.
    // An operand whose device is not known does not decide the result's
    // either, as long as another operand does: it is on that operand's
    // device, or a cpu scalar, or the op throws (TensorIteratorBase::
    // compute_types takes the first non-cpu operand's device as the common
    // one and lets only a 0-dim cpu operand differ from it). So `x - mean_`
    // with x on cuda is on cuda whatever mean_ is. A symbolic device that
    // may have no dimensions may be such a cpu scalar too.
    if (F.mayBeCpuScalar() || F.Device.Kind == FactKind::Unknown ||
        (F.Device.Kind == FactKind::Symbolic && (F.Dim == -1 || F.Dim == 0)))
      ScalarDevice = ScalarDevice.Kind == FactKind::Unreached
                         ? F.Device
                         : join(ScalarDevice, F.Device);
    else
      R.Device = R.Device.Kind == FactKind::Unreached
                     ? F.Device
                     : join(R.Device, F.Device);
    R.Type =
        R.Type.Kind == FactKind::Unreached
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
  TensorFact R = Self;
  Origin Moved{MCE->getExprLoc(), Origin::Moved};
  Origin Converted{MCE->getExprLoc(), Origin::Converted};
  switch (Api.conversionKind(MCE->getMethodDecl())) {
  case ApiModel::Conversion::Cuda:
    R.Device = DeviceFact::cuda();
    R.DeviceOrigin = Moved;
    break;
  case ApiModel::Conversion::Cpu:
    R.Device = DeviceFact::cpu();
    R.DeviceOrigin = Moved;
    break;
  case ApiModel::Conversion::Half:
    R.Type = DTypeFact::known(DType::Float16);
    R.TypeOrigin = Converted;
    break;
  case ApiModel::Conversion::BFloat16:
    R.Type = DTypeFact::known(DType::BFloat16);
    R.TypeOrigin = Converted;
    break;
  case ApiModel::Conversion::ToType:
    R.Type =
        MCE->getNumArgs() ? evalDType(MCE->getArg(0)) : DTypeFact::unknown();
    R.TypeOrigin = Converted;
    break;
  case ApiModel::Conversion::TypeAs:
    R.Type = MCE->getNumArgs() ? evalTensor(MCE->getArg(0)).Type
                               : DTypeFact::unknown();
    R.TypeOrigin = Converted;
    break;
  case ApiModel::Conversion::To: {
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
      } else if (!T->isBooleanType()) {
        // to(optional<ScalarType>, ...): whatever it holds; and an
        // argument of a type this does not know may name either.
        R.Device = DeviceFact::unknown();
        R.Type = DTypeFact::unknown();
      }
    }
    break;
  }
  case ApiModel::Conversion::Keeps:
    break;
  }
  // contiguous, clone, detach, pin_memory keep device and dtype.
  return R;
}

// A call of the tensor API as the semantics table describes it (ApiModel::
// callSemantics): its device tensors combine (TensorIterator's common
// device, a 0-dim cpu tensor taking the others'), and its result's dtype and
// number of dimensions follow the table's rules.
// The rank of a reduction over \p Dims of a tensor of rank \p Rank: the
// same with keepdim=True, fewer by the dims named otherwise (the schemas'
// keepdim defaults to False). -1 when the dims or the flag are not constant.
int FunctionAnalyzer::reducedRank(int Rank, const Expr *Dims,
                                  const Expr *KeepDim) const {
  if (Rank < 0 || !Dims)
    return -1;
  bool Keep = false;
  if (KeepDim) {
    if (KeepDim->isValueDependent() ||
        !KeepDim->EvaluateAsBooleanCondition(Keep, Ctx))
      return -1;
  }
  if (Keep)
    return Rank;
  // An integer names one dim; a list its length (an empty one reduces all
  // of them in 1.13 and none in 2.x: not known).
  int Reduced =
      strip(Dims)->getType()->isIntegerType() ? 1 : sizesRank(Dims, Api);
  if (Reduced <= 0 || Reduced > Rank)
    return -1;
  return Rank - Reduced;
}

TensorFact FunctionAnalyzer::evalApiCall(const CallExpr *CE,
                                         const CallSemantics &Sem) {
  SourceLocation Loc = CE->getExprLoc();
  llvm::SmallVector<const Expr *, 6> Args = argumentsByPosition(CE);
  auto Written = [&](unsigned P) -> const Expr * {
    if (P >= Args.size() || !Args[P] || isa<CXXDefaultArgExpr>(Args[P]))
      return nullptr;
    return P == 0 ? Args[P] : unwrapArgument(Args[P]);
  };
  llvm::SmallVector<const Expr *, 4> Exprs;
  llvm::SmallVector<TensorFact, 4> Facts;
  const Expr *First = nullptr; // the first device tensor, `self` mostly
  DTypeFact Explicit;
  Explicit.Kind = FactKind::Unreached;
  const Expr *ReducedDims = nullptr, *KeepDim = nullptr;
  for (unsigned P = 0; P < Sem.Roles.size(); ++P) {
    const Expr *A = Written(P);
    if (!A)
      continue;
    switch (Sem.Roles[P].K) {
    case ArgumentRole::ReducedDims:
      ReducedDims = A;
      break;
    case ArgumentRole::KeepDim:
      KeepDim = A;
      break;
    case ArgumentRole::Device: {
      llvm::SmallVector<Operand, 4> Ops;
      combinedOperands(A, Ops, /*KeepScalars=*/false);
      for (const Operand &O : Ops) {
        if (!First)
          First = O.E;
        Exprs.push_back(O.E);
        Facts.push_back(O.Fact);
      }
      break;
    }
    case ArgumentRole::Scalar:
      if (!isTensorOperand(A)) {
        Exprs.push_back(A);
        Facts.push_back(TensorFact::unknown());
      }
      break;
    case ArgumentRole::DType:
      if (isDTypeLike(Api, A->getType()))
        Explicit = evalDType(A);
      else if (const auto *C = dyn_cast<CXXConstructExpr>(strip(A));
               C && writtenArgs(C).size() == 1 &&
               isDTypeLike(Api, writtenArgs(C)[0]->getType()))
        Explicit = evalDType(writtenArgs(C)[0]); // optional<ScalarType>
      else
        Explicit = DTypeFact::unknown();
      break;
    case ArgumentRole::Options:
      if (isOptionsLike(Api, A->getType()) || isDTypeLike(Api, A->getType()))
        if (OptionsFact O = evalOptions(A); O.Type)
          Explicit = *O.Type;
      break;
    default:
      break;
    }
  }
  if (!First)
    return TensorFact::unknown();
  TensorFact R = combine(Exprs, Facts, Loc);
  const TensorFact FirstFact = Facts.front();
  // One tensor in, one out (x.relu(), x[0]): the result comes from where
  // that tensor came from, for the notes; with other operands it was
  // computed here.
  if (Exprs.size() == 1 && isTensorExpr(Exprs[0]))
    R.DeviceOrigin = FirstFact.DeviceOrigin,
    R.TypeOrigin = FirstFact.TypeOrigin;

  switch (Sem.DTypeRule) {
  case ResultDType::Bool:
    R.Type = DTypeFact::known(DType::Bool);
    R.TypeOrigin = {Loc, Origin::Result};
    break;
  case ResultDType::Int64:
    R.Type = DTypeFact::known(DType::Int64);
    R.TypeOrigin = {Loc, Origin::Result};
    break;
  case ResultDType::Self:
    R.Type = FirstFact.Type;
    R.TypeOrigin = FirstFact.TypeOrigin;
    break;
  case ResultDType::Promoted:
    // Promotion keeps floating dtypes. Integers and bool stay in most ops
    // (add, mul, where) and become the default float in float ops (sqrt,
    // true division); no other op's is known (complex, overflow rules).
    if (R.Type.isKnown() && !isFloating(R.Type.Type) && Sem.IntegerToFloat) {
      R.Type = State.defaultFloat();
      R.TypeOrigin = {Loc, Origin::Result};
    } else if (!R.Type.isKnown() || !isFloating(R.Type.Type)) {
      R.Type = DTypeFact::unknown();
    }
    break;
  case ResultDType::Unknown:
    R.Type = DTypeFact::unknown();
    break;
  }
  if (Explicit.Kind != FactKind::Unreached &&
      Sem.DTypeRule != ResultDType::Bool &&
      Sem.DTypeRule != ResultDType::Int64) {
    R.Type = Explicit;
    R.TypeOrigin = {Loc, Origin::Converted};
  }

  const int Dim = R.Dim, FirstDim = FirstFact.Dim;
  auto FirstWrittenAfterObject = [&]() -> const Expr * {
    for (unsigned P = 1; P < Args.size(); ++P)
      if (const Expr *A = Written(P))
        return A;
    return nullptr;
  };
  switch (Sem.RankRule) {
  case ResultRank::Broadcast:
    R.Dim = Dim;
    break;
  case ResultRank::Same:
    R.Dim = FirstDim;
    break;
  case ResultRank::Scalar:
    R.Dim = 0;
    break;
  case ResultRank::Reduce:
    R.Dim = reducedRank(FirstDim, ReducedDims, KeepDim);
    break;
  case ResultRank::Sizes: {
    const Expr *Sizes = FirstWrittenAfterObject();
    R.Dim = Sizes ? sizesRank(Sizes, Api) : -1;
    break;
  }
  case ResultRank::Unsqueeze:
    R.Dim = FirstDim >= 0 ? FirstDim + 1 : -2;
    break;
  case ResultRank::Select:
    R.Dim = FirstDim >= 1 ? FirstDim - 1 : -1;
    break;
  case ResultRank::Matrix:
    R.Dim = 2;
    break;
  case ResultRank::Stack:
    R.Dim = Dim >= 0 ? Dim + 1 : -2;
    break;
  case ResultRank::Cat:
    R.Dim = Dim >= 1 ? Dim : -2;
    break;
  case ResultRank::Vector:
    R.Dim = 1;
    break;
  case ResultRank::Flatten:
    R.Dim = FirstWrittenAfterObject() ? -1 : 1;
    break;
  case ResultRank::Like: {
    const Expr *Other = FirstWrittenAfterObject();
    R.Dim = Other && isTensorExpr(Other) ? evalTensor(Other).Dim : -1;
    break;
  }
  case ResultRank::Unknown:
    R.Dim = -1;
    break;
  }
  if (Sem.Op && Sem.Op->isInPlace() && isa<CXXMemberCallExpr>(CE))
    R.Dim = FirstDim;
  return R;
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
  if (const FunctionDecl *Def = callee(CE)) {
    const FunctionFacts *F = isTensorExpr(CE) ? follow(CE, Def) : nullptr;
    if (F && F->Complete && F->Returns.reached())
      return F->Returns;
    return TensorFact::unknown();
  }

  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    // module.forward({x}).toTensor(): a TorchScript module's output.
    if (Api.isIValueToTensor(MD))
      if (const auto *Inner =
              dyn_cast<CallExpr>(strip(MCE->getImplicitObjectArgument()));
          Inner && isModuleCall(Inner, ModuleE, Input))
        return evalCall(Inner);
    // register_parameter/register_buffer: the module owns the tensor now,
    // and Module::to moves it with the module.
    if (Api.registration(MD) != ApiModel::Registration::None)
      return TensorFact::unknown();
    if (!MD || !Api.isTensorClass(MD->getParent()))
      return TensorFact::unknown();
    TensorFact Self = evalTensor(MCE->getImplicitObjectArgument());
    if (Api.isOutOfPlaceConversion(MD))
      return evalConversion(MCE, Self);
    if (const CallSemantics *Sem = Api.callSemantics(MD))
      return evalApiCall(CE, *Sem);
    // A method the table does not know: on its object's device.
    TensorFact R = TensorFact::unknown();
    R.Device = Self.Device;
    R.DeviceOrigin = Self.DeviceOrigin;
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
    R.Type = K == ApiModel::FactoryKind::DefaultFloat ? State.defaultFloat()
             : K == ApiModel::FactoryKind::Long ? DTypeFact::known(DType::Int64)
                                                : DTypeFact::unknown();
    R.DeviceOrigin = R.TypeOrigin = {Loc, Origin::Created};
    // The sizes: a braced list, the first such argument (from_blob and
    // randint take other arguments before it).
    int Rank = -1;
    const ApiModel::FactoryShape Shape = Api.factoryShape(FD);
    if (Shape == ApiModel::FactoryShape::Values && !Args.empty()) {
      // torch::tensor({{1.f, 2.f}, ...}): the values' nesting and type
      // (TensorDataContainer's compute_desired_dtype: int and long give
      // int64, float and double the default dtype, bool stays bool).
      QualType Leaf;
      Rank = nestedListRank(Args[0], Api, &Leaf);
      if (Rank >= 0 && !Leaf.isNull()) {
        if (Leaf->isBooleanType())
          R.Type = DTypeFact::known(DType::Bool);
        else if (Leaf->isFloatingType() &&
                 (Leaf->isSpecificBuiltinType(BuiltinType::Float) ||
                  Leaf->isSpecificBuiltinType(BuiltinType::Double)))
          R.Type = State.defaultFloat();
        else if (Leaf->isIntegerType() && !Leaf->isCharType() &&
                 Ctx.getTypeSize(Leaf) >= 32)
          R.Type = DTypeFact::known(DType::Int64);
      }
    } else if (Shape == ApiModel::FactoryShape::Scalar)
      Rank = 0;
    else if (Shape == ApiModel::FactoryShape::Vector)
      Rank = 1;
    else if (Shape == ApiModel::FactoryShape::Matrix)
      Rank = 2;
    else if (Shape == ApiModel::FactoryShape::Sizes)
      for (const Expr *A : Args)
        if ((Rank = sizesRank(A, Api)) >= 0)
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

  if (const CallSemantics *Sem = Api.callSemantics(FD);
      Sem && Sem->deviceArguments() > 0)
    return evalApiCall(CE, *Sem);

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
      R.Type = DTypeFact::unknown();
      Any = true;
    }
    if (Any && Api.isApiFunction(FD)) {
      R.Dim = -1;
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
      // A tensor member of the class a constructor is setting up, or one
      // this method follows.
      if (FD && isa<CXXThisExpr>(strip(ME->getBase())) &&
          (inConstructorOf(FD) || isThisField(FD)))
        return Key(nullptr, FD);
      if (!FD || ME->isArrow())
        return std::nullopt;
      // pair.first and pair.second are std::get<0> and std::get<1>.
      if (isStdAnyOf(FD, {"first", "second"}) &&
          tupleElementTypes(ME->getBase()->getType()))
        return tupleElementLocation(ME->getBase(), isStd(FD, "first") ? 0 : 1);
      const ValueDecl *Base = referencedVar(ME->getBase());
      if (!Base)
        return std::nullopt;
      return Key(resolveAlias(Base), FD);
    }
    if (auto Get = tupleGet(E))
      return tupleElementLocation(Get->second, Get->first);
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Key>
FunctionAnalyzer::tupleElementLocation(const Expr *Tuple,
                                       unsigned Element) const {
  std::optional<Key> K = tupleLocation(Tuple);
  if (!K)
    return std::nullopt;
  K->Element = static_cast<int>(Element);
  return K;
}

std::optional<Key> FunctionAnalyzer::tupleLocation(const Expr *Tuple) const {
  std::optional<Key> K = tensorLocation(Tuple);
  if (!K || K->Element >= 0)
    return std::nullopt;
  // A tuple field: tracked for `this` where its slots are (ThisFields, or
  // any member in a constructor), for a variable where its class's are.
  if (K->Field && K->Var &&
      !isSlotField(K->Var->getType().getNonReferenceType(), K->Field, Api))
    return std::nullopt;
  return K;
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
  if (std::optional<TensorFact> F = evalListResult(E))
    return *F;
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

std::optional<TensorFact> FunctionAnalyzer::evalListResult(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(strip(E));
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  const CallSemantics *Sem = FD ? Api.callSemantics(FD) : nullptr;
  if (!Sem || !Sem->Op || Sem->Op->Returns.size() != 1 ||
      Sem->Op->Returns[0].Ty != OpSchema::Type::TensorList ||
      Sem->deviceArguments() != 1)
    return std::nullopt;
  // One tensor in: a list in (broadcast_tensors, meshgrid) gives each
  // result its own tensor's dtype, which one fact cannot hold.
  llvm::SmallVector<const Expr *, 6> Args = argumentsByPosition(CE);
  for (unsigned P = 0; P < Sem->Roles.size() && P < Args.size(); ++P)
    if (Sem->Roles[P].K == ArgumentRole::Device &&
        (!Args[P] || !isTensorExpr(P == 0 ? Args[P] : unwrapArgument(Args[P]))))
      return std::nullopt;
  TensorFact R = evalApiCall(CE, *Sem);
  R.Dim = -1; // chunk keeps the rank, unbind drops one
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
  // A variable, or a tuple field the analysis follows (tensorSlots).
  if (std::optional<Key> K = tupleLocation(E)) {
    if (K->Var && isEscaped(resolveAlias(K->Var)))
      return std::nullopt;
    for (unsigned I = 0; I < Types->size(); ++I)
      Out.push_back(lookupTensor(Key(K->Var, K->Field, static_cast<int>(I))));
    return Out;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return joinElements(evalTuple(CO->getTrueExpr()),
                        evalTuple(CO->getFalseExpr()));
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
  // A user function (`init_hidden()`): what it returns, given what the
  // arguments are.
  if (const FunctionDecl *Def = callee(Call)) {
    const FunctionFacts *F = follow(Call, Def);
    if (F && F->Complete && F->ReturnsTuple &&
        F->ReturnsTuple->size() == Types->size())
      return *F->ReturnsTuple;
    return std::nullopt;
  }
  // An op of the tensor API that returns several tensors (max(dim),
  // sort, topk, linalg::eigh, ...): they are on its tensor's device, each
  // with the dtype its name in the schema gives it.
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
  const CallSemantics *Sem = Api.callSemantics(FD);
  // (values, indices): max(dim), sort, topk... (the schema's second return
  // is named `indices`).
  const bool ValuesAndIndices = Sem && Sem->ValuesAndIndices;
  // sort, topk, cummax and cummin keep the rank; max(dim), min(dim),
  // median(dim), ... drop the dim unless keepdim is written true.
  int Dim = -1;
  if (ValuesAndIndices && S.Dim >= 1) {
    auto Args = writtenArgs(Call);
    if (Sem->RankRule == ResultRank::Same)
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
      // Each return's dtype by its name in the schema (returnDTypes):
      // eigh's eigenvectors keep the matrix's, sort's indices are int64.
      const ResultDType Rule = Sem && Sem->ReturnDTypes.size() == Types->size()
                                   ? Sem->ReturnDTypes[I]
                                   : ResultDType::Unknown;
      if (Rule == ResultDType::Self)
        R.Type = S.Type, R.TypeOrigin = S.TypeOrigin;
      else if (Rule == ResultDType::Int64)
        R.Type = DTypeFact::known(DType::Int64),
        R.TypeOrigin = {Call->getExprLoc(), Origin::Result};
    }
    Out.push_back(R);
  }
  return Out;
}

std::optional<ElementFacts>
FunctionAnalyzer::constructedFields(const CXXConstructExpr *CE,
                                    llvm::ArrayRef<TensorSlot> Slots) {
  const FunctionDecl *Def = nullptr;
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  if (!Ctor->isUserProvided() || !Ctor->hasBody(Def) || !Def)
    return std::nullopt;
  // Followed with what the arguments hold (`Normalizer n(mean, std)`).
  llvm::SmallVector<const Expr *, 4> Args(CE->arguments());
  const FunctionFacts *F = followWith(Def, Args, 0, nullptr, nullptr, false);
  if (!F || !F->Complete)
    return std::nullopt;
  ElementFacts Out;
  for (const TensorSlot &Slot : Slots)
    Out.push_back(inCallerTerms(F->memberExit(Slot.Field, Slot.Element)));
  return Out;
}

TensorFact FunctionAnalyzer::inCallerTerms(TensorFact F) const {
  auto Foreign = [&](const ValueDecl *D) {
    const auto *Owner =
        D ? dyn_cast_or_null<FunctionDecl>(D->getParentFunctionOrMethod())
          : nullptr;
    return Owner && Owner->getCanonicalDecl() != Fn->getCanonicalDecl();
  };
  if (F.Device.Kind == FactKind::Symbolic && Foreign(F.Device.Symbol)) {
    F.Device = DeviceFact::unknown();
    F.DeviceOrigin = {};
  }
  if (F.Type.Kind == FactKind::Symbolic && Foreign(F.Type.Symbol)) {
    F.Type = DTypeFact::unknown();
    F.TypeOrigin = {};
  }
  return F;
}

bool FunctionAnalyzer::isThisField(const FieldDecl *F) const {
  return hasField(ThisFields, F);
}

llvm::SmallVector<std::pair<TensorSlot, Key>, 4>
FunctionAnalyzer::objectFields(const Expr *Object) const {
  llvm::SmallVector<std::pair<TensorSlot, Key>, 4> Out;
  if (!Object)
    return Out;
  const Expr *O = Object->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(O)) {
    for (const TensorSlot &Slot : ThisFields)
      Out.push_back({Slot, Slot.of(nullptr)});
    return Out;
  }
  // A local variable or parameter: code elsewhere may change a global or
  // static one between this body's statements.
  const auto *V = dyn_cast_or_null<VarDecl>(referencedVar(O));
  if (!V || !V->isLocalVarDeclOrParm() || V->isStaticLocal())
    return Out;
  QualType T = V->getType().getNonReferenceType();
  const ValueDecl *Held = resolveAlias(V);
  for (const TensorSlot &Slot : tensorSlots(T, Api))
    Out.push_back({Slot, Slot.of(Held)});
  return Out;
}

std::optional<llvm::SmallVector<TensorFact, 4>>
FunctionAnalyzer::evalFields(const Expr *E) {
  E = strip(E);
  if (!E || E->containsErrors() || E->isTypeDependent())
    return std::nullopt;
  auto Slots = tensorSlots(E->getType(), Api);
  if (Slots.empty())
    return std::nullopt;
  // A copy the class writes itself may do anything to the fields (move
  // them, say); only the implicit member-wise copies keep them.
  if (const CXXRecordDecl *RD = E->getType()->getAsCXXRecordDecl();
      RD->hasUserDeclaredCopyConstructor() ||
      RD->hasUserDeclaredMoveConstructor() ||
      RD->hasUserDeclaredCopyAssignment() ||
      RD->hasUserDeclaredMoveAssignment())
    return std::nullopt;
  llvm::SmallVector<TensorFact, 4> Out;
  if (std::optional<Key> K = tensorLocation(E);
      K && K->Var && !K->Field && K->Element < 0) {
    if (isEscaped(resolveAlias(K->Var)))
      return std::nullopt;
    for (const TensorSlot &Slot : Slots)
      Out.push_back(lookupTensor(Slot.of(K->Var)));
    return Out;
  }
  // Batch{x, y}: the semantic form has one initialiser per field.
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    if (IL->isSemanticForm())
      for (const TensorSlot &Slot : Slots) {
        unsigned Index = Slot.Field->getFieldIndex();
        const Expr *Init =
            Index < IL->getNumInits() ? IL->getInit(Index) : nullptr;
        if (Slot.Element < 0) {
          Out.push_back(Init && isTensorExpr(Init) ? evalTensor(Init)
                                                   : TensorFact::unknown());
          continue;
        }
        auto Elements = Init ? evalTuple(Init) : std::nullopt;
        Out.push_back(Elements && static_cast<unsigned>(Slot.Element) <
                                      Elements->size()
                          ? (*Elements)[Slot.Element]
                          : TensorFact::unknown());
      }
    return IL->isSemanticForm() ? std::optional(Out) : std::nullopt;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return joinElements(evalFields(CO->getTrueExpr()),
                        evalFields(CO->getFalseExpr()));
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (!CE->getConstructor()->isCopyOrMoveConstructor())
      return constructedFields(CE, Slots);
    auto Args = writtenArgs(CE);
    return Args.size() == 1 ? evalFields(Args[0]) : std::nullopt;
  }
  // A user function that returns the struct: what its returns hold.
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *Def = callee(Call)) {
      const FunctionFacts *F = follow(Call, Def);
      if (F && F->Complete && F->ReturnsTuple &&
          F->ReturnsTuple->size() == Slots.size())
        return *F->ReturnsTuple;
    }
  return std::nullopt;
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
    return fixedTensorMember(State, F, Api);
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
    // model_ of a class that places it in every constructor; or, in a
    // method followed from a caller that knows the module, a registered
    // submodule, which is where its module is.
    if (const FieldDecl *F = thisMember(E); F && !inConstructorOf(F)) {
      // Only a submodule with parameters of its own moves with its module
      // (a ReLU or a loss without weights has no device).
      ModuleFact M = placedModuleMember(State, F, Api);
      if (M.Device.Kind != FactKind::Unknown)
        return M;
      if (Seed && Seed->This.Device.Kind != FactKind::Unreached &&
          !movesItself() && isRegisteredSubmodule(State, F, Api) &&
          buildsParameters(State, Api.moduleBehind(F->getType()), Api))
        return Seed->This;
      // Never registered: where it was built, whatever its module does.
      return unregisteredModuleMember(State, F, Api);
    }
    // layers_[i], layers_.at(i): a layer of a vector member.
    if (const FieldDecl *F = moduleVectorElement(E, Api))
      return unregisteredModuleElements(State, F, Api);
    if (const auto *CE = dyn_cast_or_null<CallExpr>(strip(E))) {
      // A helper that builds and returns a module: what it returns.
      if (const FunctionDecl *Def = callee(CE)) {
        const FunctionFacts *F = follow(CE, Def);
        return F && F->Complete &&
                       F->ReturnsModule.Device.Kind != FactKind::Unreached
                   ? F->ReturnsModule
                   : ModuleFact::unknown();
      }
      // torch::jit::load(path, device): its tensors are on that device.
      // (Without one, they are where they were saved: not known.)
      if (Api.isScriptLoad(CE->getDirectCallee()))
        return loadedModule(CE);
    }
    // A module that exists already, named through another object
    // (`model->fc`, `net.fc`, `*layer`): where it is follows from what was
    // done to that object (its module's to() moves a registered child in
    // place), which is not followed here. Only an expression that builds a
    // module is where it was built.
    if (isa_and_nonnull<MemberExpr, ArraySubscriptExpr, UnaryOperator,
                        DeclRefExpr, CXXOperatorCallExpr>(strip(E)))
      return ModuleFact::unknown();
    // A module built here.
    return E ? builtModule(E) : ModuleFact::unknown();
  }
  if (isEscaped(D))
    return ModuleFact::unknown();
  auto It = Cur.Modules.find(D);
  return It == Cur.Modules.end() ? ModuleFact::unknown() : It->second;
}

// The module torch::jit::load returns when it is given a device.
ModuleFact FunctionAnalyzer::loadedModule(const CallExpr *CE) {
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      continue;
    // optional<Device>(torch::kCUDA), optional<Device>(device).
    const Expr *Device = strip(A);
    if (const Expr *Held = heldByOptional(Api, Device))
      Device = Held;
    if (!Device || !isDeviceLike(Api, Device->getType()))
      continue;
    ModuleFact M = ModuleFact::unknown();
    M.Device = evalDevice(Device);
    if (M.Device.Kind == FactKind::Unknown)
      return ModuleFact::unknown();
    M.DeviceOrigin = {CE->getExprLoc(), Origin::ModuleLoaded};
    return M;
  }
  return ModuleFact::unknown();
}

// A module built by \p E (Modules.h), and the tensors its options give it:
// a loss built with `.weight(w)` holds w as a buffer, an Embedding built
// with `._weight(w)` holds w as its weight, so the module is where w is.
ModuleFact FunctionAnalyzer::builtModule(const Expr *E) {
  ModuleFact M = createdModule(State, E, E->getType(), Api);
  const auto *CE = dyn_cast_or_null<CXXConstructExpr>(strip(E));
  if (!CE || !Api.isBuiltinModule(Api.moduleBehind(E->getType())))
    return M;
  std::optional<TensorFact> Given;
  bool Agree = true;
  llvm::SmallVector<const Expr *, 2> Held;
  for (const Expr *A : writtenArgs(CE))
    optionTensors(A, Held);
  for (const Expr *T : Held) {
    TensorFact F = evalTensor(T);
    if (!F.Device.isKnown() && F.Device.Kind != FactKind::Symbolic)
      return ModuleFact::unknown(); // a tensor the analysis does not know
    Agree &= !Given || Given->Device == F.Device;
    Given = F;
  }
  if (!Given)
    return M;
  if (!Agree)
    return ModuleFact::unknown();
  M.Device = Given->Device;
  M.DeviceOrigin = Given->DeviceOrigin;
  return M;
}

void FunctionAnalyzer::optionTensors(
    const Expr *A, llvm::SmallVectorImpl<const Expr *> &Out) const {
  // options.margin(2).weight(w): setters whose one parameter is a tensor.
  for (const auto *Set = dyn_cast<CXXMemberCallExpr>(strip(A)); Set;
       Set = dyn_cast<CXXMemberCallExpr>(
           strip(Set->getImplicitObjectArgument()))) {
    const CXXMethodDecl *MD = Set->getMethodDecl();
    if (MD && MD->getNumParams() == 1 && Set->getNumArgs() == 1 &&
        isTensorExpr(Set->getArg(0)) &&
        MD->getParent() ==
            Set->getType().getNonReferenceType()->getAsCXXRecordDecl())
      Out.push_back(Set->getArg(0));
  }
}

bool FunctionAnalyzer::movesItself() {
  // Through the methods it calls too (a helper `to_cpu()`): Escapes.h.
  return mayMoveItsModule(State, dyn_cast<CXXMethodDecl>(Fn), Api);
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
