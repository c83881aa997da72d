//===--- Modules.cpp - What a module holds when it is made ----------------===//

#include "Modules.h"
#include "DeviceDtypeAnalysis.h"
#include "Environment.h"
#include "Exprs.h"
#include "FunctionAnalyzer.h"
#include "Members.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <map>

namespace clang::tidy::tensor::analysis {
namespace {

/// What a user module's class guarantees of a fresh instance.
// The construction an expression of module type is: `nn::Linear(4, 2)`,
// `Net()`, `std::make_shared<NetImpl>()`; with the class it builds.
const CXXConstructExpr *construction(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = strip(E);
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E)) {
      // A copy or move of a temporary: the temporary.
      if (CE->getNumArgs() == 1 &&
          CE->getConstructor()->isCopyOrMoveConstructor()) {
        E = CE->getArg(0);
        continue;
      }
      return CE;
    }
    if (const auto *FC = dyn_cast_or_null<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

// std::make_shared<C>(args): the class, with the call's arguments.
const CXXRecordDecl *madeShared(const Expr *E, const CallExpr *&Call) {
  Call = dyn_cast_or_null<CallExpr>(strip(E));
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!isStd(FD, "make_shared"))
    return nullptr;
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || Args->size() < 1 ||
      Args->get(0).getKind() != TemplateArgument::Type)
    return nullptr;
  return Args->get(0).getAsType()->getAsCXXRecordDecl();
}

ModuleDefaults userDefaults(Session &S, const CXXRecordDecl *C,
                            const ApiModel &Api);

// The module class \p E constructs (`nn::Linear(4, 2)`, `Net()`,
// std::make_shared<NetImpl>()), with the arguments written for it; null
// when E is no such construction.
const CXXRecordDecl *
constructedModule(const Expr *E, const ApiModel &Api,
                  llvm::SmallVectorImpl<const Expr *> &Args) {
  if (const CXXConstructExpr *CE = construction(E)) {
    for (const Expr *A : writtenArgs(CE))
      Args.push_back(A);
    return Api.moduleBehind(CE->getType());
  }
  if (const CallExpr *Call = nullptr;
      const CXXRecordDecl *Made = madeShared(E, Call)) {
    for (const Expr *A : Call->arguments())
      Args.push_back(A);
    return Api.isModuleClass(Made) ? Made : nullptr;
  }
  return nullptr;
}

// Does \p E build a module whose parameters are all created by LibTorch's
// layers (so on the cpu, in float32)? \p OnCpu is cleared when a user
// module's constructor moves it; \p HasParams is set when it has any (a
// loss or an activation has none, and so no device or dtype of its own).
bool builtByDefault(Session &S, const Expr *E, const ApiModel &Api, bool &OnCpu,
                    bool &HasParams) {
  llvm::SmallVector<const Expr *, 4> Args;
  const CXXRecordDecl *C = constructedModule(E, Api, Args);
  if (!C)
    return false;
  if (Api.isContainerModule(C)) {
    // nn::Sequential(nn::Conv2d(...), nn::ReLU(), ...): each layer built so.
    bool Any = false;
    for (const Expr *A : Args) {
      if (!Api.isModuleHandleType(A->getType()))
        continue;
      if (!builtByDefault(S, A, Api, OnCpu, HasParams))
        return false;
      Any = true;
    }
    return Any;
  }
  if (Api.isBuiltinModule(C)) {
    HasParams |= Api.isParameterizedBuiltinModule(C);
    return true;
  }
  if (!Api.isModuleClass(C) || Api.isScriptModule(C))
    return false;
  ModuleDefaults D = userDefaults(S, C, Api);
  OnCpu = OnCpu && D.OnCpu;
  HasParams |= D.Float32; // it has parameters, all float32
  return D.Float32;
}

// Scans a user module class's methods for what voids its defaults.
class ClassScanner : public RecursiveASTVisitor<ClassScanner> {
public:
  ClassScanner(Session &S, const ApiModel &Api, bool InConstructor,
               bool InForward)
      : S(S), Api(Api), InConstructor(InConstructor), InForward(InForward) {}
  bool Void = false;  // something this file cannot follow
  bool Moved = false; // a constructor moves the module or a member
  unsigned Registered = 0;

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    // `for (auto &p : parameters()) p.set_data(p.data().cuda());` moves
    // parameters one by one, wherever it is written.
    if (Api.isRebindingMethod(MD))
      Void = true;
    if (Api.isModuleMove(MD)) {
      // A forward that moves its module (`to(x.device())`) runs wherever
      // its input is.
      if (InForward)
        Void = true;
      // A cast of the module or a member voids its dtype; a move in a
      // constructor its device.
      ApiModel::ModuleMove K = Api.moduleMoveKind(MD);
      if (K == ApiModel::ModuleMove::Half ||
          K == ApiModel::ModuleMove::BFloat16)
        Void = true;
      for (const Expr *A : MCE->arguments())
        if (!isa<CXXDefaultArgExpr>(A) && !isDeviceLike(Api, A->getType()))
          Void = true;
      if (InConstructor)
        Moved = true;
      return true;
    }
    switch (Api.registration(MD)) {
    case ApiModel::Registration::Module: {
      bool OnCpu = true, HasParams = false;
      if (MCE->getNumArgs() < 2 ||
          !builtByDefault(S, MCE->getArg(1), Api, OnCpu, HasParams))
        Void = true;
      Moved |= !OnCpu;
      Registered += HasParams;
      break;
    }
    case ApiModel::Registration::Parameter:
      if (MCE->getNumArgs() < 2 || !defaultFloatFactory(MCE->getArg(1), Api))
        Void = true;
      ++Registered;
      break;
    case ApiModel::Registration::Buffer:
      // Module::to moves buffers with the parameters: a float32 cpu buffer
      // places the module as a parameter does. Other buffers (an int64
      // step counter, say) say nothing of its parameters' dtype.
      if (MCE->getNumArgs() >= 2 && defaultFloatFactory(MCE->getArg(1), Api))
        ++Registered;
      break;
    default:
      break;
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (Api.isLoadFunction(CE->getDirectCallee()))
      Void = true;
    return true;
  }

private:
  Session &S;
  const ApiModel &Api;
  bool InConstructor;
  bool InForward;
};

ModuleDefaults computeDefaults(Session &S, const CXXRecordDecl *C,
                               const ApiModel &Api) {
  ModuleDefaults D;
  if (!C || !C->hasDefinition() || S.Modules.Depth > 4)
    return D;
  C = C->getDefinition();
  bool AnyConstructor = false, Void = false, Moved = false;
  unsigned Registered = 0;
  for (const Decl *Member : C->decls()) {
    const auto *MD = dyn_cast<CXXMethodDecl>(Member);
    if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(Member))
      MD = dyn_cast<CXXMethodDecl>(FTD->getTemplatedDecl());
    const FunctionDecl *Def = nullptr;
    if (!MD || !MD->hasBody(Def) || !Def)
      continue;
    const bool Ctor = isa<CXXConstructorDecl>(MD);
    AnyConstructor |= Ctor && !MD->isImplicit();
    ++S.Modules.Depth;
    ClassScanner Scanner(S, Api, Ctor, Api.isModuleForward(MD));
    Scanner.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
    if (const auto *CD = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : CD->inits())
        if (Init->isWritten())
          Scanner.TraverseStmt(Init->getInit());
    --S.Modules.Depth;
    Void |= Scanner.Void;
    Moved |= Scanner.Moved;
    Registered += Scanner.Registered;
  }
  // Its bases other than the module class itself may hold anything.
  for (const CXXBaseSpecifier &B : C->bases()) {
    const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
    if (Base && !Api.isBuiltinModule(Base) && Api.isModuleClass(Base) &&
        !Api.forwardMethods(Base).empty())
      Void = true;
  }
  if (!AnyConstructor || Void || Registered == 0)
    return D;
  D.Float32 = true;
  D.OnCpu = !Moved;
  return D;
}

ModuleDefaults userDefaults(Session &S, const CXXRecordDecl *C,
                            const ApiModel &Api) {
  auto Key = std::make_pair(C, Api.configurationKey());
  auto &Classes = S.Modules.Classes;
  if (auto It = Classes.find(Key); It != Classes.end())
    return It->second;
  Classes[Key] = ModuleDefaults(); // in progress: a cycle gives nothing
  ModuleDefaults D = computeDefaults(S, C, Api);
  Classes[Key] = D;
  return D;
}

} // namespace

const CXXRecordDecl *writtenFirstLayer(const Expr *E, const ApiModel &Api) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    llvm::SmallVector<const Expr *, 4> Args;
    const CXXRecordDecl *C = constructedModule(E, Api, Args);
    if (!C || !Api.isContainerModule(C) || Args.empty() ||
        !Api.isModuleHandleType(Args.front()->getType()))
      return nullptr;
    const CXXRecordDecl *Layer = Api.moduleBehind(Args.front()->getType());
    if (!Layer || !Api.isContainerModule(Layer))
      return Layer;
    E = Args.front(); // a container first: its own first layer
  }
  return nullptr;
}

bool defaultFloatFactory(const Expr *E, const ApiModel &Api) {
  const auto *CE = dyn_cast_or_null<CallExpr>(strip(E));
  if (!CE || Api.factoryKind(CE->getDirectCallee()) !=
                 ApiModel::FactoryKind::DefaultFloat)
    return false;
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      continue;
    QualType T = A->getType();
    if (isOptionsLike(Api, T) || isDTypeLike(Api, T) || isDeviceLike(Api, T))
      return false;
  }
  return true;
}

bool buildsNewOnCpu(Session &S, const Expr *E, const ApiModel &Api) {
  // A holder constructed from a pointer wraps a module that exists: only a
  // container takes modules as the layers it is built from.
  if (const CXXConstructExpr *CE = construction(E)) {
    const CXXRecordDecl *C = Api.moduleBehind(CE->getType());
    if (!C || (!Api.isContainerModule(C) &&
               llvm::any_of(writtenArgs(CE), [&](const Expr *A) {
                 QualType T = A->getType();
                 return T->isNullPtrType() || T->isPointerType() ||
                        Api.isModuleHandleType(T);
               })))
      return false;
  }
  bool OnCpu = true, HasParams = false;
  return builtByDefault(S, E, Api, OnCpu, HasParams) && OnCpu && HasParams;
}

bool isEmptyHolder(const Expr *E) {
  const CXXConstructExpr *CE = construction(E);
  if (!CE)
    return false;
  auto Args = writtenArgs(CE);
  return Args.size() == 1 && Args.front()->getType()->isNullPtrType();
}

ModuleFact createdModule(Session &S, const Expr *E, QualType T,
                         const ApiModel &Api) {
  const CXXRecordDecl *C = Api.moduleBehind(T);
  ModuleFact M = ModuleFact::unknown();
  if (!C)
    return M;
  Origin Here{E ? E->getExprLoc() : SourceLocation(), Origin::ModuleCreated};
  // A declaration without an initialiser expression: a default-built one.
  if (!E) {
    if (!Api.isParameterizedBuiltinModule(C))
      return M;
  } else {
    // What a container's first layer is holds however its layers were
    // built.
    M.FirstLayer = writtenFirstLayer(E, Api);
    bool OnCpu = true, HasParams = false;
    if (!Api.isParameterizedBuiltinModule(C) &&
        (!builtByDefault(S, E, Api, OnCpu, HasParams) || !HasParams))
      return M;
    if (!OnCpu) {
      M.Type = DTypeFact::known(DType::Float32);
      M.TypeOrigin = Here;
      return M;
    }
  }
  M.Device = DeviceFact::cpu();
  M.Type = DTypeFact::known(DType::Float32);
  M.DeviceOrigin = M.TypeOrigin = Here;
  return M;
}

bool buildsParameters(Session &S, const CXXRecordDecl *C, const ApiModel &Api) {
  if (!C)
    return false;
  if (Api.isBuiltinModule(C))
    return Api.isParameterizedBuiltinModule(C);
  return Api.isModuleClass(C) && !Api.isScriptModule(C) &&
         !Api.isContainerModule(C) && userDefaults(S, C, Api).Float32;
}

namespace {

// A call of one of the module's own layers (`this->fc(x)`).
bool callsOwnLayer(const Site &Call) {
  return Call.K == Site::ModuleCall && !Call.Operands.empty() &&
         Call.ModuleExpr && thisMember(Call.ModuleExpr);
}

// Follows \p Module's forward() with its first tensor parameter seeded as
// \p In, and asks \p Feeds of each site in that context whether it needs
// something of the input. Cached per module, seed (\p SeedKey) and API
// configuration; a recursive query while one is in progress answers false.
bool followForward(Session &S, const CXXRecordDecl *Module,
                   const TensorFact &In, const std::string &SeedKey,
                   ASTContext &Ctx, const ApiModel &Api,
                   llvm::function_ref<bool(const Site &)> Feeds) {
  auto CacheKey = std::make_tuple(Module, SeedKey, Api.configurationKey());
  auto &Cache = S.Modules.Feeds;
  if (auto It = Cache.find(CacheKey); It != Cache.end())
    return It->second;
  Cache[CacheKey] = false;
  bool Found = false;
  for (const CXXMethodDecl *MD : Api.forwardMethods(Module)) {
    const FunctionDecl *Def = nullptr;
    if (!MD->hasBody(Def) || !Def || Def->isDependentContext())
      continue;
    const ParmVarDecl *Input = firstTensorParameter(Def, Api);
    if (!Input)
      continue;
    Env Seed;
    Seed.Reached = true;
    Seed.Tensors[Key(Input)] = In;
    const FunctionFacts *F = analyzeIn(S, Def, Ctx, Api, &Seed, SeedKey);
    if (!F || !F->Complete)
      continue;
    if (llvm::any_of(F->Sites, Feeds))
      Found = true;
  }
  Cache[CacheKey] = Found;
  return Found;
}

} // namespace

bool forwardFeedsParameterLayer(Session &S, const CXXRecordDecl *Module,
                                DType D, ASTContext &Ctx, const ApiModel &Api) {
  TensorFact In = TensorFact::unknown();
  In.Type = DTypeFact::known(D);
  return followForward(
      S, Module, In, "feeds:" + std::to_string(static_cast<int>(D)), Ctx, Api,
      [&](const Site &Call) {
        return callsOwnLayer(Call) &&
               Api.takesParameterDtypeInput(Call.ModuleClass) &&
               Call.Operands.front().Fact.Type == DTypeFact::known(D);
      });
}

bool forwardFeedsLayerOnItsDevice(Session &S, const CXXRecordDecl *Module,
                                  const DeviceFact &D, ASTContext &Ctx,
                                  const ApiModel &Api) {
  if (D.Kind != FactKind::Known && D.Kind != FactKind::Symbolic)
    return false;
  TensorFact In = TensorFact::unknown();
  In.Device = D;
  std::string SeedKey;
  llvm::raw_string_ostream(SeedKey)
      << "feeds-device:" << D.IsCuda << ':' << D.Index << ':' << D.Symbol << ':'
      << D.SymbolMayBeCuda;
  return followForward(S, Module, In, SeedKey, Ctx, Api, [&](const Site &Call) {
    // An op that combines the input with a parameter or buffer of the
    // module's own that has dimensions (`torch::matmul(x, w)`).
    if (Call.K == Site::Combine) {
      bool Input = false, Parameter = false;
      for (const Operand &O : Call.Operands) {
        const FieldDecl *M = thisMember(O.E);
        if (M && registeredWithDimensions(S, M, Api))
          Parameter = true;
        else if (O.Fact.Device == D)
          Input = true;
      }
      return Input && Parameter;
    }
    if (!callsOwnLayer(Call) || Call.Operands.front().Fact.Device != D)
      return false;
    const CXXRecordDecl *Gets = Call.inputLayer();
    if (Api.isParameterizedBuiltinModule(Gets))
      return true;
    return Gets && !Api.isBuiltinModule(Gets) &&
           buildsParameters(S, Gets, Api) &&
           forwardFeedsLayerOnItsDevice(S, Gets, D, Ctx, Api);
  });
}

} // namespace clang::tidy::tensor::analysis
