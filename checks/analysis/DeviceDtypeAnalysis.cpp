//===--- DeviceDtypeAnalysis.cpp - Where tensors live, what they hold -----===//

#include "DeviceDtypeAnalysis.h"
#include "Escapes.h"
#include "Members.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <deque>
#include <map>
#include <memory>

namespace clang::tidy::tensor {
namespace {

using analysis::referencedVar;
using analysis::strip;

// A tracked location: a variable, or one member of a variable (batch.data).
using Key = std::pair<const ValueDecl *, const FieldDecl *>;

struct Env {
  bool Reached = false;
  llvm::DenseMap<Key, TensorFact> Tensors;
  llvm::DenseMap<const ValueDecl *, ModuleFact> Modules;
  llvm::DenseMap<const ValueDecl *, DeviceFact> Devices;
  llvm::DenseMap<const ValueDecl *, DTypeFact> DTypes;

  bool operator==(const Env &O) const {
    return Reached == O.Reached && Tensors == O.Tensors &&
           Modules == O.Modules && Devices == O.Devices && DTypes == O.DTypes;
  }
};

// A key missing on one side has that side's default, which the caller
// cannot know here: treat it as unknown, the safe answer.
template <typename Map, typename Unknown>
void joinMaps(Map &Into, const Map &From, Unknown MakeUnknown) {
  for (auto &[K, V] : Into) {
    auto It = From.find(K);
    V = It == From.end() ? MakeUnknown() : join(V, It->second);
  }
  for (auto &[K, V] : From)
    if (!Into.count(K))
      Into[K] = MakeUnknown();
}

void joinInto(Env &Into, const Env &From) {
  if (!From.Reached)
    return;
  if (!Into.Reached) {
    Into = From;
    return;
  }
  joinMaps(Into.Tensors, From.Tensors, [] { return TensorFact::unknown(); });
  joinMaps(Into.Modules, From.Modules, [] { return ModuleFact::unknown(); });
  joinMaps(Into.Devices, From.Devices, [] { return DeviceFact::unknown(); });
  joinMaps(Into.DTypes, From.DTypes, [] { return DTypeFact::unknown(); });
}

// Arguments as written: defaulted ones (an allocator, say) left out.
llvm::SmallVector<const Expr *, 2> writtenArgs(const CXXConstructExpr *CE) {
  llvm::SmallVector<const Expr *, 2> Args;
  for (const Expr *A : CE->arguments())
    if (!isa<CXXDefaultArgExpr>(A))
      Args.push_back(A);
  return Args;
}

// Elements of a braced list or std::initializer_list argument.
llvm::SmallVector<const Expr *, 4> listElements(const Expr *E) {
  llvm::SmallVector<const Expr *, 4> Out;
  E = strip(E);
  if (const auto *SIL = dyn_cast_or_null<CXXStdInitializerListExpr>(E))
    E = strip(SIL->getSubExpr());
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E))
    if (auto Args = writtenArgs(CE); Args.size() == 1)
      return listElements(Args[0]);
  if (const auto *ILE = dyn_cast_or_null<InitListExpr>(E))
    for (const Expr *Init : ILE->inits())
      Out.push_back(Init);
  return Out;
}

// The number of sizes in a `{2, 3}` argument; -1 when not a literal list.
int sizesRank(const Expr *E) {
  E = strip(E);
  if (const auto *SIL = dyn_cast_or_null<CXXStdInitializerListExpr>(E))
    E = strip(SIL->getSubExpr());
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E)) {
    auto Args = writtenArgs(CE);
    if (Args.empty() && CE->isListInitialization())
      return 0;
    if (Args.size() == 1)
      return sizesRank(Args[0]);
  }
  if (const auto *ILE = dyn_cast_or_null<InitListExpr>(E))
    return ILE->getNumInits();
  return -1;
}

bool mayBeZeroDim(const TensorFact &F) { return F.Dim == -1 || F.Dim == 0; }

struct Options {
  std::optional<DeviceFact> Device;
  std::optional<DTypeFact> Type;
  Origin At;
};

struct Cache {
  // (function, API configuration, context) -> facts; null while analysed.
  std::map<std::tuple<const FunctionDecl *, std::string, std::string>,
           std::unique_ptr<FunctionFacts>>
      Facts;
  unsigned Depth = 0;    // analyses in progress, nested
  unsigned Contexts = 0; // analyses with a context so far
  bool DefaultFloatKnown = true;
  bool DefaultFloatDecided = false;
};

Cache &cache() {
  thread_local Cache C;
  return C;
}

// The facts of Fn, analysed with Seed bound to its parameters (null: no
// context), cached under SeedKey. Null on recursion or past the budgets.
const FunctionFacts *analyzeIn(const FunctionDecl *Fn, ASTContext &Ctx,
                               const ApiModel &Api, const Env *Seed,
                               const std::string &SeedKey);

//===----------------------------------------------------------------------===//
// The per-function analysis.
//===----------------------------------------------------------------------===//
class FunctionAnalyzer {
public:
  /// \p Seed, when given, holds the facts of Fn's parameters at entry (the
  /// caller's arguments); it must outlive run().
  FunctionAnalyzer(const FunctionDecl *Fn, ASTContext &Ctx, const ApiModel &Api,
                   const Env *Seed = nullptr)
      : Fn(Fn), Ctx(Ctx), Api(Api), Seed(Seed) {}

  FunctionFacts run();

private:
  // Pre-pass facts, flow-insensitive.
  void scanBody(const Stmt *Body);
  bool isEscaped(const ValueDecl *D) const { return Escaped.contains(D); }
  const ValueDecl *resolveAlias(const ValueDecl *D) const {
    auto It = Aliases.find(D);
    return It == Aliases.end() ? D : It->second;
  }

  // Evaluation of expressions in the current environment (pure).
  TensorFact evalTensor(const Expr *E);
  DeviceFact evalDevice(const Expr *E);
  DTypeFact evalDType(const Expr *E);
  Options evalOptions(const Expr *E);
  ModuleFact evalModule(const Expr *E);
  const ValueDecl *moduleVar(const Expr *E);
  TensorFact lookupTensor(const ValueDecl *D, const FieldDecl *F,
                          SourceLocation Use);
  TensorFact evalCall(const CallExpr *CE);
  TensorFact evalConversion(const CXXMemberCallExpr *MCE,
                            const TensorFact &Self);
  TensorFact combine(llvm::ArrayRef<const Expr *> Args,
                     llvm::ArrayRef<TensorFact> Facts, SourceLocation Loc);
  bool isTensorExpr(const Expr *E) const {
    return E && Api.isTensorValueType(E->getType().getNonReferenceType()
                                          .getUnqualifiedType());
  }
  bool isModuleCall(const CallExpr *CE, const Expr *&ModuleE,
                    const Expr *&Input) const;
  const Expr *unwrapArgument(const Expr *E) const;
  const Expr *unboxed(const Expr *E) const;
  // Inside a constructor of the member's class, the member is being set up:
  // what the class guarantees holds only once it is constructed.
  bool inConstructorOf(const FieldDecl *F) const {
    const auto *CD = dyn_cast<CXXConstructorDecl>(Fn);
    return CD && CD->getParent() == F->getParent();
  }
  /// Analyses the user function \p Def that \p CE calls, with the facts of
  /// the arguments bound to its parameters when they say anything. Null
  /// when it cannot (recursion, depth or context budget). \p Seeded tells
  /// whether a context was used.
  const FunctionFacts *follow(const CallExpr *CE, const FunctionDecl *Def,
                              bool *Seeded = nullptr);

  // Effects of one CFG element, applied in evaluation order.
  void transfer(const Stmt *S);
  void forget(const VarDecl *VD);
  void visit(const Stmt *S);
  void assign(const Expr *LHS, const Expr *RHS);
  void declare(const VarDecl *VD);
  void recordSites(const Expr *E);

  const FunctionDecl *Fn;
  ASTContext &Ctx;
  const ApiModel &Api;
  const Env *Seed;
  Env Cur;
  bool Recording = false;
  std::vector<Site> Sites;
  std::vector<FollowedCall> Calls;
  TensorFact Returns;
  llvm::DenseSet<const ValueDecl *> Escaped;
  llvm::DenseMap<const ValueDecl *, const ValueDecl *> Aliases;
  llvm::DenseSet<const ValueDecl *> BatchVars;
};

//===----------------------------------------------------------------------===//
// Pre-pass: variables the analysis cannot follow.
//===----------------------------------------------------------------------===//

void FunctionAnalyzer::scanBody(const Stmt *Body) {
  analysis::BodyFacts F = analysis::scanBody(Body, Api);
  Escaped = std::move(F.Escaped);
  Aliases = std::move(F.Aliases);
  BatchVars = std::move(F.BatchVars);
}

//===----------------------------------------------------------------------===//
// Devices, dtypes, options.
//===----------------------------------------------------------------------===//

const EnumConstantDecl *enumConstant(const Expr *E) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    return dyn_cast<EnumConstantDecl>(DRE->getDecl());
  return nullptr;
}

// A constant variable's initialiser (kCUDA, kHalf, kFloat32 = at::kFloat).
const Expr *constantInit(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (VD && VD->getType().isConstQualified() && VD->hasGlobalStorage() &&
      VD->getAnyInitializer())
    return VD->getAnyInitializer();
  return nullptr;
}

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
    // device_ of a class whose constructors alone set it.
    if (const FieldDecl *F = analysis::thisMember(E); F && !inConstructorOf(F))
      return analysis::fixedDeviceMember(F, Api);
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

Options FunctionAnalyzer::evalOptions(const Expr *E) {
  Options O;
  E = strip(E);
  if (!E) {
    O.Device = DeviceFact::unknown();
    O.Type = DTypeFact::unknown();
    return O;
  }
  O.At = {E->getExprLoc(), Origin::Created};
  if (isDeviceLike(Api, E->getType())) {
    O.Device = evalDevice(E);
    return O;
  }
  if (isDTypeLike(Api, E->getType())) {
    O.Type = evalDType(E);
    return O;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() == 0)
      return O; // TensorOptions(): nothing specified
    if (CE->getNumArgs() == 1)
      return evalOptions(CE->getArg(0));
  }
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (MD && Api.isTensorOptionsClass(MD->getParent()) && MD->getIdentifier()) {
      Options Base = evalOptions(MCE->getImplicitObjectArgument());
      llvm::StringRef N = MD->getName();
      if (N == "device" && MCE->getNumArgs() >= 1)
        Base.Device = evalDevice(MCE->getArg(0));
      else if (N == "dtype")
        Base.Type = MCE->getNumArgs() >= 1 ? evalDType(MCE->getArg(0))
                                           : DTypeFact::unknown();
      else if (N != "requires_grad" && N != "pinned_memory" && N != "layout" &&
               N != "memory_format")
        Base.Device = DeviceFact::unknown(), Base.Type = DTypeFact::unknown();
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
        O.Device = DeviceFact::unknown(), O.Type = DTypeFact::unknown();
      return O;
    }
  }
  O.Device = DeviceFact::unknown();
  O.Type = DTypeFact::unknown();
  return O;
}

//===----------------------------------------------------------------------===//
// Tensors.
//===----------------------------------------------------------------------===//

TensorFact FunctionAnalyzer::lookupTensor(const ValueDecl *D,
                                          const FieldDecl *F,
                                          SourceLocation Use) {
  D = resolveAlias(D);
  if (isEscaped(D))
    return TensorFact::unknown();
  auto It = Cur.Tensors.find({D, F});
  if (It != Cur.Tensors.end())
    return It->second;
  // A batch from a data loader: its data and target are cpu tensors with at
  // least one dimension (the batch), as the loader returns them.
  if (F && BatchVars.contains(D) && Api.isBatchTensorField(F)) {
    TensorFact B = TensorFact::unknown();
    B.Device = DeviceFact::cpu();
    B.Dim = -2; // at least one dimension
    B.DeviceOrigin = {D->getLocation(), Origin::Batch};
    return B;
  }
  return TensorFact::unknown();
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
  for (size_t I = 0; I < Args.size(); ++I) {
    const Expr *A = Args[I];
    if (!isTensorExpr(A)) {
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
    // A 0-dim cpu tensor takes the other operands' device (ATen's rule).
    if (!(F.Device.isCpu() && mayBeZeroDim(F)) || !R.Device.isKnown())
      R.Device = R.Device.Kind == FactKind::Unreached ? F.Device
                                                      : join(R.Device, F.Device);
    if (R.Device != F.Device && !(F.Device.isCpu() && mayBeZeroDim(F)))
      R.Device = DeviceFact::unknown();
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
    return TensorFact::unknown();
  // Promotion across dimension categories needs every dim: without them a
  // dtype is only certain when all operands share it.
  bool Mixed = false;
  for (size_t I = 0; I < Args.size(); ++I)
    if (isTensorExpr(Args[I]) && Facts[I].Type != Facts[0].Type)
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
        Options O = evalOptions(A);
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
  if (const FunctionDecl *Def = analysis::userCallee(CE, Api)) {
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
    if (MD->getIdentifier() && Api.keepsRank(MD->getName()))
      R.Dim = Self.Dim;
    else if (MD->getIdentifier() && Api.isReduction(MD->getName()) &&
             MCE->getNumArgs() == 0)
      R.Dim = 0;
    else if (MD->getIdentifier() &&
             (MD->getName() == "view" || MD->getName() == "reshape") &&
             MCE->getNumArgs() == 1)
      R.Dim = sizesRank(MCE->getArg(0));
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
        Options O = evalOptions(Args[I]);
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
                 ? (cache().DefaultFloatKnown ? DTypeFact::known(DType::Float32)
                                              : DTypeFact::unknown())
                 : K == ApiModel::FactoryKind::Long
                       ? DTypeFact::known(DType::Int64)
                       : DTypeFact::unknown();
    R.DeviceOrigin = R.TypeOrigin = {Loc, Origin::Created};
    llvm::StringRef N = FD->getName();
    // The sizes: a braced list, the first such argument (from_blob and
    // randint take other arguments before it).
    int Rank = -1;
    if (N == "tensor")
      Rank = !Args.empty() && Args[0]->getType()->isArithmeticType() ? 0 : -1;
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
        Options O = evalOptions(A);
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
    llvm::SmallVector<const Expr *, 4> Tensors;
    llvm::SmallVector<TensorFact, 4> Facts;
    for (const Expr *A : Args) {
      auto Elements = listElements(A);
      if (!Elements.empty() && !isTensorExpr(A)) {
        for (const Expr *El : Elements)
          if (isTensorExpr(El))
            Tensors.push_back(El), Facts.push_back(evalTensor(El));
        continue;
      }
      Tensors.push_back(A);
      Facts.push_back(isTensorExpr(A) ? evalTensor(A) : TensorFact::unknown());
    }
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

TensorFact FunctionAnalyzer::evalTensor(const Expr *E) {
  E = strip(E);
  if (!E || E->containsErrors() || E->isTypeDependent())
    return TensorFact::unknown();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<VarDecl>(DRE->getDecl()))
      return lookupTensor(DRE->getDecl(), nullptr, DRE->getLocation());
    return TensorFact::unknown();
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const ValueDecl *Base = referencedVar(ME->getBase());
    if (FD && Base && !ME->isArrow())
      return lookupTensor(Base, FD, ME->getMemberLoc());
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
  if (const ValueDecl *D = analysis::objectVar(E))
    if (Api.isModuleHandleType(D->getType()))
      return resolveAlias(D);
  return nullptr;
}

ModuleFact FunctionAnalyzer::evalModule(const Expr *E) {
  const ValueDecl *D = moduleVar(E);
  if (!D) {
    // model_ of a class that places it in every constructor.
    if (const FieldDecl *F = analysis::thisMember(E); F && !inConstructorOf(F))
      return analysis::placedModuleMember(F, Api);
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

//===----------------------------------------------------------------------===//
// Transfer.
//===----------------------------------------------------------------------===//

// A module created here: LibTorch and tt layers with parameters start with
// them on the cpu in float32. A user-defined module's constructor may create
// them anywhere, and a layer without parameters (a loss, an activation) has
// no device of its own, so those start unknown.
ModuleFact freshModule(const ApiModel &Api, const VarDecl *VD) {
  if (!Api.isParameterizedBuiltinModule(Api.moduleBehind(VD->getType())))
    return ModuleFact::unknown();
  ModuleFact M;
  M.Device = DeviceFact::cpu();
  M.Type = DTypeFact::known(DType::Float32);
  M.DeviceOrigin = M.TypeOrigin = {VD->getLocation(), Origin::ModuleCreated};
  return M;
}

void FunctionAnalyzer::declare(const VarDecl *VD) {
  QualType T = VD->getType();
  if (T->isReferenceType())
    return; // aliases are resolved; other references stay unknown
  const Expr *Init = VD->getInit();
  if (Api.isTensorValueType(T.getUnqualifiedType())) {
    Cur.Tensors[{VD, nullptr}] =
        Init ? evalTensor(Init) : TensorFact::unknown();
  } else if (Api.isModuleHandleType(T)) {
    const Expr *I = strip(Init);
    bool Constructed = !I || isa<CXXConstructExpr>(I);
    if (const auto *CE = dyn_cast_or_null<CallExpr>(I))
      if (const FunctionDecl *FD = CE->getDirectCallee())
        Constructed = FD->getIdentifier() && FD->getName() == "make_shared";
    if (const ValueDecl *From = moduleVar(Init))
      Cur.Modules[VD] = evalModule(Init), (void)From;
    else
      Cur.Modules[VD] =
          Constructed ? freshModule(Api, VD) : ModuleFact::unknown();
  } else if (Api.isInputVector(T)) {
    // The inputs of a TorchScript call: what was put in (a fact with no
    // device while empty), unknown once it is changed any other way.
    TensorFact In;
    const auto *CE = dyn_cast_or_null<CXXConstructExpr>(strip(Init));
    if (!CE || !writtenArgs(CE).empty() || CE->isListInitialization()) {
      In = TensorFact::unknown();
      if (Init) {
        bool First = true;
        for (const Expr *El : listElements(Init)) {
          const Expr *T = unboxed(El);
          TensorFact F = isTensorExpr(T) ? evalTensor(T) : TensorFact::unknown();
          In = First ? F : join(In, F);
          First = false;
        }
      }
    }
    Cur.Tensors[{VD, nullptr}] = In;
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

void FunctionAnalyzer::assign(const Expr *LHS, const Expr *RHS) {
  LHS = strip(LHS);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS)) {
    const ValueDecl *D = resolveAlias(DRE->getDecl());
    QualType T = D->getType().getNonReferenceType();
    if (Api.isTensorValueType(T.getUnqualifiedType()))
      Cur.Tensors[{D, nullptr}] = evalTensor(RHS);
    else if (Api.isModuleHandleType(T))
      Cur.Modules[D] = evalModule(RHS);
    else if (isDeviceLike(Api, T))
      Cur.Devices[D] = evalDevice(RHS);
    else if (isDTypeLike(Api, T))
      Cur.DTypes[D] = evalDType(RHS);
    return;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(LHS)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const ValueDecl *Base = referencedVar(ME->getBase());
    if (FD && Base && !ME->isArrow() &&
        Api.isTensorValueType(FD->getType().getUnqualifiedType()))
      Cur.Tensors[{resolveAlias(Base), FD}] = evalTensor(RHS);
  }
}

void FunctionAnalyzer::recordSites(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE || E->containsErrors())
    return;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return;
  const Expr *ModuleE = nullptr, *Input = nullptr;
  const bool ModuleCall = isModuleCall(CE, ModuleE, Input);
  if (!ModuleCall)
    if (const FunctionDecl *Def = analysis::userCallee(CE, Api)) {
      bool Seeded = false;
      if (const FunctionFacts *F = follow(CE, Def, &Seeded); F && Seeded)
        Calls.push_back({CE, Def, F});
      return;
    }
  if (ModuleCall) {
    Site S;
    S.K = Site::ModuleCall;
    S.Call = CE;
    S.Callee = FD;
    S.Function = Fn;
    S.ModuleExpr = ModuleE;
    S.Module = evalModule(ModuleE);
    S.ModuleClass = Api.moduleBehind(analysis::throughDeref(ModuleE)->getType());
    S.Operands.push_back({Input, evalTensor(Input)});
    Sites.push_back(std::move(S));
    return;
  }
  if (!Api.isCombining(FD))
    return;
  Site S;
  S.K = Site::Combine;
  S.Call = CE;
  S.Callee = FD;
  S.Function = Fn;
  S.NonPromoting = Api.isNonPromotingMatmul(FD);
  auto Add = [&](const Expr *A) {
    A = unwrapArgument(A);
    if (!isTensorExpr(A)) {
      for (const Expr *El : listElements(A))
        if (isTensorExpr(El))
          S.Operands.push_back({El, evalTensor(El)});
      return;
    }
    S.Operands.push_back({A, evalTensor(A)});
  };
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    Add(MCE->getImplicitObjectArgument());
  for (const Expr *A : CE->arguments())
    if (!isa<CXXDefaultArgExpr>(A))
      Add(A);
  if (S.Operands.size() >= 2)
    Sites.push_back(std::move(S));
}

// Applies the effects of S and its subexpressions in evaluation order.
// Branches of ?:, && and || and the bodies of lambdas and statement
// expressions are elements of other CFG blocks or other functions.
void FunctionAnalyzer::visit(const Stmt *S) {
  if (!S || isa<LambdaExpr, StmtExpr, ConditionalOperator,
                BinaryConditionalOperator>(S))
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
    return;
  for (const Stmt *Child : S->children())
    visit(Child);

  if (Recording)
    if (const auto *E = dyn_cast<Expr>(S))
      recordSites(E);
  if (Recording)
    if (const auto *RS = dyn_cast<ReturnStmt>(S))
      if (const Expr *RV = RS->getRetValue();
          RV && Api.isTensorValueType(
                    Fn->getReturnType().getUnqualifiedType()))
        Returns = Returns.reached() ? join(Returns, evalTensor(RV))
                                    : evalTensor(RV);

  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2)
      assign(OCE->getArg(0), OCE->getArg(1));
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Assign)
      assign(BO->getLHS(), BO->getRHS());
    return;
  }
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (const ValueDecl *V = referencedVar(MCE->getImplicitObjectArgument());
        V && MD && Api.isInputVector(V->getType())) {
      TensorFact &In = Cur.Tensors[{resolveAlias(V), nullptr}];
      if (MD->isConst())
        return;
      const Expr *T = MCE->getNumArgs() == 1 ? unboxed(MCE->getArg(0)) : nullptr;
      if (MD->getIdentifier() &&
          (MD->getName() == "push_back" || MD->getName() == "emplace_back") &&
          isTensorExpr(T))
        In = In.reached() ? join(In, evalTensor(T)) : evalTensor(T);
      else
        In = TensorFact::unknown();
      return;
    }
    if (!Api.isModuleMove(MD))
      return;
    const ValueDecl *D = moduleVar(MCE->getImplicitObjectArgument());
    if (!D)
      return;
    ModuleFact &M = Cur.Modules[D];
    if (M.Device.Kind == FactKind::Unreached)
      M = ModuleFact::unknown();
    Origin Here{MCE->getExprLoc(), Origin::ModuleMoved};
    llvm::StringRef N = MD->getName();
    if (N == "cuda")
      M.Device = DeviceFact::cuda(), M.DeviceOrigin = Here;
    else if (N == "cpu")
      M.Device = DeviceFact::cpu(), M.DeviceOrigin = Here;
    else if (N == "half")
      M.Type = DTypeFact::known(DType::Float16), M.TypeOrigin = Here;
    else if (N == "bfloat16")
      M.Type = DTypeFact::known(DType::BFloat16), M.TypeOrigin = Here;
    else
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
    return;
  }
}

void FunctionAnalyzer::forget(const VarDecl *VD) {
  Cur.Tensors.erase({VD, nullptr});
  Cur.Modules.erase(VD);
  Cur.Devices.erase(VD);
  Cur.DTypes.erase(VD);
  // A batch's members live and die with it.
  if (BatchVars.contains(VD))
    for (auto It = Cur.Tensors.begin(); It != Cur.Tensors.end();) {
      auto Next = std::next(It);
      if (It->first.first == VD)
        Cur.Tensors.erase(It);
      It = Next;
    }
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

FunctionFacts FunctionAnalyzer::run() {
  FunctionFacts Result;
  const Stmt *Body = Fn->getBody();
  if (!Body || Fn->isInvalidDecl() || Fn->isDependentContext())
    return Result;
  CFG::BuildOptions Opts;
  Opts.AddImplicitDtors = false;
  Opts.AddTemporaryDtors = false;
  Opts.AddCXXDefaultInitExprInCtors = false;
  // Lifetime ends let the environments forget variables that went out of
  // scope, which keeps them small in long functions.
  Opts.AddLifetime = true;
  std::unique_ptr<CFG> G = CFG::buildCFG(Fn, const_cast<Stmt *>(Body), &Ctx,
                                         Opts);
  if (!G)
    return Result;
  scanBody(Body);

  // Parameters: tensors and modules unknown, devices and dtypes symbolic.
  Env Entry;
  Entry.Reached = true;
  for (const ParmVarDecl *P : Fn->parameters()) {
    QualType T = P->getType().getNonReferenceType();
    if (isDeviceLike(Api, T))
      Entry.Devices[P] = DeviceFact::symbol(P, true);
    else if (isDTypeLike(Api, T))
      Entry.DTypes[P] = DTypeFact::symbol(P);
  }
  if (Seed) {
    for (const auto &[K, V] : Seed->Tensors)
      Entry.Tensors[K] = V;
    for (const auto &[K, V] : Seed->Modules)
      Entry.Modules[K] = V;
    for (const auto &[K, V] : Seed->Devices)
      Entry.Devices[K] = V;
    for (const auto &[K, V] : Seed->DTypes)
      Entry.DTypes[K] = V;
  }

  std::vector<Env> Out(G->getNumBlockIDs());
  std::vector<unsigned> Visits(G->getNumBlockIDs(), 0);
  // Copying and joining environments costs their size; a function whose
  // environments are large at many blocks would cost size x blocks. A work
  // budget linear in the function's size bounds it: past the budget the
  // analysis gives up on the function, like the per-block visit cap.
  uint64_t Elements = 0;
  for (const CFGBlock *B : *G)
    Elements += B->size() + 1;
  const uint64_t Budget =
      DeviceDtypeAnalysis::BaseWork + DeviceDtypeAnalysis::WorkPerElement * Elements;
  uint64_t Work = 0;
  auto Size = [](const Env &E) {
    return E.Tensors.size() + E.Modules.size() + E.Devices.size() +
           E.DTypes.size();
  };
  auto InOf = [&](const CFGBlock *B) {
    Env In;
    if (B == &G->getEntry())
      return Entry;
    for (const CFGBlock::AdjacentBlock &P : B->preds())
      if (const CFGBlock *PB = P.getReachableBlock()) {
        Work += Size(Out[PB->getBlockID()]) + 1;
        joinInto(In, Out[PB->getBlockID()]);
      }
    return In;
  };
  auto RunBlock = [&](const CFGBlock *B) {
    for (const CFGElement &El : *B) {
      if (std::optional<CFGStmt> CS = El.getAs<CFGStmt>())
        transfer(CS->getStmt());
      else if (std::optional<CFGLifetimeEnds> LE = El.getAs<CFGLifetimeEnds>())
        forget(LE->getVarDecl());
    }
  };

  // Forward worklist in reverse post-order would be ideal; a FIFO over
  // block IDs with a visit cap is simple and bounded.
  std::deque<const CFGBlock *> Worklist{&G->getEntry()};
  llvm::DenseSet<const CFGBlock *> Queued{&G->getEntry()};
  while (!Worklist.empty()) {
    const CFGBlock *B = Worklist.front();
    Worklist.pop_front();
    Queued.erase(B);
    if (++Visits[B->getBlockID()] > DeviceDtypeAnalysis::MaxVisitsPerBlock ||
        Work > Budget)
      return Result; // gave up: Complete stays false
    Cur = InOf(B);
    if (!Cur.Reached)
      continue;
    RunBlock(B);
    if (Cur == Out[B->getBlockID()])
      continue;
    Out[B->getBlockID()] = std::move(Cur);
    for (const CFGBlock::AdjacentBlock &S : B->succs())
      if (const CFGBlock *SB = S.getReachableBlock())
        if (Queued.insert(SB).second)
          Worklist.push_back(SB);
  }

  // Final pass: replay each reached block once from its fixed point and
  // record the sites with the facts that hold there.
  Recording = true;
  for (const CFGBlock *B : *G) {
    Cur = InOf(B);
    if (Cur.Reached)
      RunBlock(B);
  }
  Result.Sites = std::move(Sites);
  Result.Calls = std::move(Calls);
  Result.Returns = Returns;
  Result.Complete = true;
  return Result;
}

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

const FunctionFacts *FunctionAnalyzer::follow(const CallExpr *CE,
                                              const FunctionDecl *Def,
                                              bool *Seeded) {
  if (Seeded)
    *Seeded = false;
  unsigned Offset = analysis::objectArguments(CE);
  auto ParamOf = [&](unsigned I) -> const ParmVarDecl * {
    return I >= Offset && I - Offset < Def->getNumParams()
               ? Def->getParamDecl(I - Offset)
               : nullptr;
  };
  // A variable the callee may change through one parameter must not seed
  // another: the seeded fact would go stale when the first one changes.
  llvm::DenseSet<const ValueDecl *> ChangedVars;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I)
    if (const ParmVarDecl *P = ParamOf(I))
      if (analysis::mayChangeParam(Def, P, Api)) {
        if (const ValueDecl *V = referencedVar(unwrapArgument(CE->getArg(I))))
          ChangedVars.insert(V);
        else if (const ValueDecl *M = moduleVar(CE->getArg(I)))
          ChangedVars.insert(M);
      }

  Env Context;
  Context.Reached = true;
  std::string Key;
  bool Informative = false;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const ParmVarDecl *P = ParamOf(I);
    const Expr *A = CE->getArg(I);
    if (!P || isa<CXXDefaultArgExpr>(A))
      continue;
    const Expr *Arg = unwrapArgument(A);
    if (const ValueDecl *V = referencedVar(Arg); V && ChangedVars.contains(V))
      continue;
    QualType T = P->getType().getNonReferenceType().getUnqualifiedType();
    Key += std::to_string(I) + "=";
    if (Api.isTensorValueType(T)) {
      TensorFact F = isTensorExpr(Arg) ? evalTensor(Arg) : TensorFact::unknown();
      if (F.Device.Kind == FactKind::Unknown && F.Type.Kind == FactKind::Unknown)
        continue;
      Informative = true;
      Context.Tensors[{P, nullptr}] = F;
      appendKey(Key, F.Device), appendKey(Key, F.Type);
      Key += std::to_string(F.Dim) + ";";
    } else if (Api.isModuleHandleType(P->getType())) {
      if (const ValueDecl *M = moduleVar(A); M && ChangedVars.contains(M))
        continue;
      ModuleFact M = evalModule(A);
      if (M.Device.Kind == FactKind::Unknown && M.Type.Kind == FactKind::Unknown)
        continue;
      Informative = true;
      Context.Modules[P] = M;
      appendKey(Key, M.Device), appendKey(Key, M.Type);
    } else if (isDeviceLike(Api, T)) {
      DeviceFact D = evalDevice(Arg);
      if (D.Kind == FactKind::Unknown)
        continue;
      // A symbolic device alone only renames the parameter; it matters
      // with the tensors and modules bound beside it.
      Informative |= D.isKnown();
      Context.Devices[P] = D;
      appendKey(Key, D);
    } else if (isDTypeLike(Api, T)) {
      DTypeFact D = evalDType(Arg);
      if (D.Kind == FactKind::Unknown)
        continue;
      Informative |= D.isKnown();
      Context.DTypes[P] = D;
      appendKey(Key, D);
    }
  }
  if (!Informative)
    return analyzeIn(Def, Ctx, Api, nullptr, "");
  const FunctionFacts *F = analyzeIn(Def, Ctx, Api, &Context, Key);
  if (Seeded)
    *Seeded = F != nullptr;
  return F;
}

//===----------------------------------------------------------------------===//
// The per-TU cache (declared at the top).
//===----------------------------------------------------------------------===//


const FunctionFacts *analyzeIn(const FunctionDecl *Fn, ASTContext &Ctx,
                               const ApiModel &Api, const Env *Seed,
                               const std::string &SeedKey) {
  Cache &C = cache();
  auto Key = std::make_tuple(Fn, Api.configurationKey(), SeedKey);
  if (auto It = C.Facts.find(Key); It != C.Facts.end())
    return It->second.get(); // null: recursion
  if (C.Depth > DeviceDtypeAnalysis::MaxCallDepth ||
      (Seed && C.Contexts >= DeviceDtypeAnalysis::MaxContexts))
    return nullptr;
  C.Contexts += Seed != nullptr;
  C.Facts[Key] = nullptr;
  ++C.Depth;
  auto Facts = std::make_unique<FunctionFacts>(
      FunctionAnalyzer(Fn, Ctx, Api, Seed).run());
  --C.Depth;
  std::unique_ptr<FunctionFacts> &Slot = C.Facts[Key];
  Slot = std::move(Facts);
  return Slot.get();
}

} // namespace

const FunctionFacts &DeviceDtypeAnalysis::analyze(const FunctionDecl *Fn,
                                                  ASTContext &Ctx,
                                                  const ApiModel &Api) {
  // A top-level request never meets a recursion (nothing is in progress).
  static const FunctionFacts Nothing;
  const FunctionFacts *F = analyzeIn(Fn, Ctx, Api, nullptr, "");
  return F ? *F : Nothing;
}

void DeviceDtypeAnalysis::reset() {
  cache().Facts.clear();
  cache().Contexts = 0;
  cache().DefaultFloatKnown = true;
  cache().DefaultFloatDecided = false;
  analysis::resetEscapes();
  analysis::resetMembers();
}

void DeviceDtypeAnalysis::setDefaultFloatKnown(bool Known) {
  if (cache().DefaultFloatKnown != Known)
    cache().Facts.clear();
  cache().DefaultFloatKnown = Known;
  cache().DefaultFloatDecided = true;
}

bool DeviceDtypeAnalysis::defaultFloatDecided() {
  return cache().DefaultFloatDecided;
}

} // namespace clang::tidy::tensor
