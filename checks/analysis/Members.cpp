//===--- Members.cpp - What a class's methods may assume of its members ---===//

#include "Members.h"
#include "Escapes.h"
#include "FunctionAnalyzer.h"
#include "Modules.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <map>
#include <string>

namespace clang::tidy::tensor::analysis {

const FieldDecl *thisMember(const Expr *E) {
  const MemberExpr *ME = thisMemberExpr(throughDeref(E));
  return ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
}

const FieldDecl *moduleVectorElement(const Expr *E, const ApiModel &Api) {
  const Expr *Vector = elementContainerExpr(throughDeref(E));
  const MemberExpr *ME = thisMemberExpr(Vector);
  if (!ME || !Api.isModuleVector(ME->getType()))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

namespace {

// The class's constructors and other methods with their bodies; false when
// one of them has no body in this translation unit (then a method the
// analysis cannot see may change the member) or there is no user-written
// constructor.
bool allMethods(const CXXRecordDecl *C,
                llvm::SmallVectorImpl<const CXXConstructorDecl *> &Ctors,
                llvm::SmallVectorImpl<const FunctionDecl *> &Others) {
  for (const CXXMethodDecl *M : C->methods()) {
    if (M->isImplicit() || M->isDeleted() || M->isDefaulted() ||
        M->isPureVirtual())
      continue;
    const FunctionDecl *Def = nullptr;
    if (!M->hasBody(Def) || !Def)
      return false;
    if (const auto *CD = dyn_cast<CXXConstructorDecl>(Def))
      Ctors.push_back(CD);
    else
      Others.push_back(Def);
  }
  return !Ctors.empty();
}

// Every use of one member through `this` in a body, sorted by what it does.
class MemberUses : public RecursiveASTVisitor<MemberUses> {
public:
  MemberUses(const FieldDecl *F, const ApiModel &Api) : F(F), Api(Api) {}

  llvm::SmallVector<const MemberExpr *, 8> All;
  llvm::DenseSet<const MemberExpr *> Kept;
  // Module moves: the call, and its device argument (null for cuda()/cpu(),
  // or a move that sets only the dtype).
  llvm::SmallVector<std::pair<const CXXMemberCallExpr *, const Expr *>, 2>
      Moves;
  llvm::SmallVector<SourceLocation, 2> Assigns;
  llvm::SmallVector<const Expr *, 2> AssignedValues; // their right sides
  bool Written = false; // address taken, non-const method, non-const ref

  bool VisitMemberExpr(MemberExpr *ME) {
    if (mine(ME))
      All.push_back(ME);
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
    const MemberExpr *ME = mine(MCE->getImplicitObjectArgument());
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (!ME || !MD)
      return true;
    if (Api.isRebindingMethod(MD)) {
      Written = true; // member.set_data(other): another tensor
    } else if (Api.isModuleMove(MD)) {
      const Expr *Dev = nullptr;
      for (const Expr *A : MCE->arguments())
        if (const auto *RD = A->getType()->getAsCXXRecordDecl();
            RD && Api.isDeviceClass(RD))
          Dev = A;
      Moves.push_back({MCE, Dev});
      Kept.insert(ME);
    } else if (Api.isApiFunction(MD) || Api.isModuleForward(MD) ||
               Api.isModuleModeMethod(MD) || MD->isConst()) {
      Kept.insert(ME);
    } else {
      Written = true;
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    // Dereferencing the handle (model_->, *model_) changes nothing.
    if (isDerefCall(CE)) {
      if (const MemberExpr *ME = mine(CE->getArg(0)))
        Kept.insert(ME);
      return true;
    }
    // std::get<I>(hidden_) only names an element; what is done with it is
    // judged where it is used (mine() sees through it).
    if (tupleGet(CE))
      return true;
    // The arguments of a method call (its object is VisitCXXMemberCallExpr's)
    // are judged as a function's: `other.fill(h_)` may write h_ through a
    // non-const reference; make_tuple(h_, c_) copies them.
    bool IsApi = keepsArguments(FD, Api) || copiesArguments(FD);
    unsigned Offset = objectArguments(CE);
    // `block = Block()`: the assignment is an assignment (below), whoever
    // declares the operator, as a TORCH_MODULE holder of the user's does.
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE);
    const bool Assignment = Op && Op->getOperator() == OO_Equal;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      const MemberExpr *ME = mine(CE->getArg(I));
      if (!ME || (Assignment && I == 0))
        continue;
      if (IsApi) {
        Kept.insert(ME);
        continue;
      }
      // A read: by value or by const reference.
      if (I >= Offset && I - Offset < FD->getNumParams()) {
        QualType PT = FD->getParamDecl(I - Offset)->getType();
        if (!PT->isReferenceType() ||
            PT.getNonReferenceType().isConstQualified())
          continue;
      }
      Written = true;
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      if (const MemberExpr *ME = mine(BO->getLHS())) {
        Assigns.push_back(BO->getExprLoc()), Kept.insert(ME);
        AssignedValues.push_back(BO->getRHS());
      }
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
    if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2)
      if (const MemberExpr *ME = mine(OCE->getArg(0))) {
        Assigns.push_back(OCE->getExprLoc()), Kept.insert(ME);
        AssignedValues.push_back(OCE->getArg(1));
      }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf && mine(UO->getSubExpr()))
      Written = true;
    return true;
  }
  // `Tensor &t = mean_;` and `Tensor &mean() { return mean_; }`: writes
  // through the reference are not seen.
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getInit() && isMutableReference(VD->getType()) &&
        mine(VD->getInit()))
      Written = true;
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *RS) {
    if (RS->getRetValue() && isMutableReference(ReturnType) &&
        mine(RS->getRetValue()))
      Written = true;
    return true;
  }
  QualType ReturnType;
  // No VisitLambdaExpr: a lambda that captures `this` may run later and
  // elsewhere, but its body, visited with the method's, is all it does to
  // the member.

private:
  static bool isMutableReference(QualType T) {
    return !T.isNull() &&
           ((T->isReferenceType() &&
             !T.getNonReferenceType().isConstQualified()) ||
            (T->isPointerType() && !T->getPointeeType().isConstQualified()));
  }
  // The member itself, or an element of it when it is a tuple
  // (`std::get<0>(hidden_)`, `state_.first`): a write to the element is
  // one to the member.
  const MemberExpr *mine(const Expr *E) const {
    for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
      E = throughDeref(E);
      if (auto Get = tupleGet(E)) {
        E = Get->second;
        continue;
      }
      if (const auto *Pair = dyn_cast<MemberExpr>(E);
          Pair && !Pair->isArrow() &&
          isStdAnyOf(Pair->getMemberDecl(), {"first", "second"}) &&
          tupleElementTypes(Pair->getBase()->getType())) {
        E = Pair->getBase();
        continue;
      }
      break;
    }
    const MemberExpr *ME = thisMemberExpr(E);
    return ME && ME->getMemberDecl() == F ? ME : nullptr;
  }
  const FieldDecl *F;
  const ApiModel &Api;
};

MemberUses uses(const FieldDecl *F, const FunctionDecl *Fn,
                const ApiModel &Api) {
  MemberUses U(F, Api);
  U.ReturnType = Fn->getReturnType();
  U.TraverseStmt(Fn->getBody());
  return U;
}

bool isDevice(QualType T, const ApiModel &Api) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && Api.isDeviceClass(RD);
}

// A device the expression names as a constant: an enumerator (`kCPU`), a
// constant that names one (LibTorch's torch::kCUDA is `constexpr
// DeviceType kCUDA = DeviceType::CUDA`), `Device(kCUDA)`, the implicit
// conversion from a DeviceType, `Device("cpu")`; unknown otherwise.
DeviceFact constantDevice(const Expr *E, const ApiModel &Api) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = strip(E);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
        CE && CE->getNumArgs() >= 1 && isDevice(CE->getType(), Api)) {
      // Device("cuda:1").
      if (const StringLiteral *SL = writtenString(CE->getArg(0)))
        return deviceFromName(Api.parseDeviceString(SL->getString()));
      E = strip(CE->getArg(0));
      continue;
    }
    if (const EnumConstantDecl *EC = enumConstant(E))
      return deviceFromKind(Api.deviceKindOf(EC));
    E = constantInit(E);
  }
  return DeviceFact::unknown();
}

// The initialiser a constructor writes for \p F in its member-initialiser
// list, or null.
const Expr *writtenInitialiser(const CXXConstructorDecl *Ctor,
                               const FieldDecl *F) {
  for (const CXXCtorInitializer *I : Ctor->inits())
    if (I->getMember() == F && I->isWritten())
      return I->getInit();
  return nullptr;
}

DeviceFact computeFixedDevice(Session &, const FieldDecl *F,
                              const ApiModel &Api) {
  const auto *C = dyn_cast<CXXRecordDecl>(F->getParent());
  llvm::SmallVector<const CXXConstructorDecl *, 2> Ctors;
  llvm::SmallVector<const FunctionDecl *, 8> Others;
  if (!C || F->getAccess() == AS_public || !isDevice(F->getType(), Api) ||
      !allMethods(C, Ctors, Others))
    return DeviceFact::unknown();
  for (const FunctionDecl *M : Others) {
    MemberUses U = uses(F, M, Api);
    if (U.Written || !U.Assigns.empty())
      return DeviceFact::unknown();
  }
  // Every value the constructors give it, in their initialisers (or the
  // member's default initialiser) and assignments: when none may be cuda,
  // neither may the member, in any method (`torch::Device
  // device_{torch::kCPU};`, a class kept on the cpu).
  bool MayBeCuda = false;
  auto Gives = [&](const Expr *V) {
    DeviceFact D = constantDevice(V, Api);
    MayBeCuda |= !D.isKnown() || D.IsCuda;
  };
  for (const CXXConstructorDecl *M : Ctors) {
    MemberUses U = uses(F, M, Api);
    if (U.Written)
      return DeviceFact::unknown();
    const Expr *Init = writtenInitialiser(M, F);
    Gives(Init ? Init : F->getInClassInitializer());
    for (const Expr *V : U.AssignedValues)
      Gives(V);
  }
  return DeviceFact::symbol(F, MayBeCuda);
}

// A constructor's Device parameter as the class's other methods see it:
// the fixed Device member it initialises; or, given the method \p In that
// reads it, a Device member read as a field there (fieldDevice); unknown
// when there is none.
DeviceFact parameterAsMember(Session &S, const CXXConstructorDecl *Ctor,
                             const ParmVarDecl *P, const ApiModel &Api,
                             const FunctionDecl *In = nullptr) {
  for (const CXXCtorInitializer *Init : Ctor->inits())
    if (const FieldDecl *G = Init->getMember();
        G && Init->isWritten() && referencedVar(Init->getInit()) == P) {
      if (DeviceFact D = fixedDeviceMember(S, G, Api);
          D.Kind == FactKind::Symbolic)
        return D;
      if (In && isDevice(G->getType(), Api))
        if (DeviceFact D = fieldDevice(S, G, In, Api);
            D.Kind == FactKind::Symbolic)
          return D;
    }
  return DeviceFact::unknown();
}

// The device a constructor's move names, as the other methods see it.
DeviceFact moveTarget(Session &S, const CXXConstructorDecl *Ctor,
                      const CXXMemberCallExpr *Move, const Expr *Dev,
                      const ApiModel &Api) {
  if (!Dev) {
    switch (Api.moduleMoveKind(Move->getMethodDecl())) {
    case ApiModel::ModuleMove::Cuda:
      return DeviceFact::cuda();
    case ApiModel::ModuleMove::Cpu:
      return DeviceFact::cpu();
    default:
      return DeviceFact::unknown();
    }
  }
  if (DeviceFact D = constantDevice(Dev, Api); D.isKnown())
    return D;
  const Expr *E = strip(Dev);
  // Device(device_): what it copies.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && CE->getNumArgs() >= 1 && isDevice(CE->getType(), Api))
    E = strip(CE->getArg(0));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    // The constructor's parameter that initialises a fixed Device member.
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      return parameterAsMember(S, Ctor, P, Api);
    return DeviceFact::unknown();
  }
  if (const FieldDecl *G = thisMember(E))
    return fixedDeviceMember(S, G, Api);
  return DeviceFact::unknown();
}

// Every use of the member in the body keeps it (calls, reads, moves,
// assignments), and nothing writes it where the analysis cannot see.
bool allKept(const MemberUses &U) {
  return !U.Written && llvm::all_of(U.All, [&](const MemberExpr *ME) {
    return U.Kept.contains(ME);
  });
}

ModuleFact computePlacedModule(Session &S, const FieldDecl *F,
                               const ApiModel &Api) {
  const auto *C = dyn_cast<CXXRecordDecl>(F->getParent());
  llvm::SmallVector<const CXXConstructorDecl *, 2> Ctors;
  llvm::SmallVector<const FunctionDecl *, 8> Others;
  if (!C || F->getAccess() == AS_public ||
      !Api.isModuleHandleType(F->getType()) || !allMethods(C, Ctors, Others))
    return ModuleFact::unknown();
  for (const FunctionDecl *M : Others) {
    MemberUses U = uses(F, M, Api);
    if (!allKept(U) || !U.Moves.empty() || !U.Assigns.empty())
      return ModuleFact::unknown();
  }
  ModuleFact R = ModuleFact::unknown(); // known once the first is read
  for (const CXXConstructorDecl *Ctor : Ctors) {
    MemberUses U = uses(F, Ctor, Api);
    // Exactly one move, which sets the device, after every assignment.
    if (!allKept(U) || U.Moves.size() != 1)
      return ModuleFact::unknown();
    const auto &[Move, Dev] = U.Moves.front();
    const SourceManager &SM = F->getASTContext().getSourceManager();
    for (SourceLocation A : U.Assigns)
      if (!SM.isBeforeInTranslationUnit(A, Move->getExprLoc()))
        return ModuleFact::unknown();
    DeviceFact D = moveTarget(S, Ctor, Move, Dev, Api);
    if (D.Kind == FactKind::Unknown ||
        (R.Device.Kind != FactKind::Unknown && D != R.Device))
      return ModuleFact::unknown();
    if (R.Device.Kind == FactKind::Unknown)
      R.Device = D, R.DeviceOrigin = {Move->getExprLoc(), Origin::ModuleMoved};
  }
  return R;
}

// A constructor's symbolic device as the class's other methods see it: the
// fixed Device member its parameter initialises.
DeviceFact inClassTerms(Session &S, const DeviceFact &D,
                        const CXXConstructorDecl *Ctor, const ApiModel &Api) {
  if (D.Kind != FactKind::Symbolic)
    return D;
  if (const auto *P = dyn_cast_or_null<ParmVarDecl>(D.Symbol))
    return parameterAsMember(S, Ctor, P, Api);
  if (const auto *G = dyn_cast_or_null<FieldDecl>(D.Symbol))
    return fixedDeviceMember(S, G, Api);
  return DeviceFact::unknown();
}

// Whether code outside \p F's class names it (`net->scale_ = ...`): only a
// public member of a class this translation unit alone sees (defined in
// its main file) can be known not to be; everything else may be.
bool usedOutsideItsClass(const FieldDecl *F) {
  const auto *C = dyn_cast<CXXRecordDecl>(F->getParent());
  const ASTContext &Ctx = F->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  if (!C || !SM.isInMainFile(SM.getExpansionLoc(C->getLocation())))
    return true;
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    Finder(const FieldDecl *F, const CXXRecordDecl *C) : F(F), C(C) {}
    bool Found = false;
    bool VisitMemberExpr(MemberExpr *ME) {
      Found |= ME->getMemberDecl() == F;
      return !Found;
    }
    // The class's own methods (and lambdas in them) may use it.
    bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
      return MD->getParent() == C ||
             RecursiveASTVisitor::TraverseCXXMethodDecl(MD);
    }
    bool TraverseCXXConstructorDecl(CXXConstructorDecl *CD) {
      return CD->getParent() == C ||
             RecursiveASTVisitor::TraverseCXXConstructorDecl(CD);
    }
    bool TraverseCXXDestructorDecl(CXXDestructorDecl *DD) {
      return DD->getParent() == C ||
             RecursiveASTVisitor::TraverseCXXDestructorDecl(DD);
    }

  private:
    const FieldDecl *F;
    const CXXRecordDecl *C;
  };
  Finder Look(F, C);
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    SourceLocation Loc = D->getLocation();
    if (Loc.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
      continue;
    Look.TraverseDecl(const_cast<Decl *>(D));
    if (Look.Found)
      return true;
  }
  return false;
}

// A module's members are public by LibTorch's idiom (`struct NetImpl :
// torch::nn::Module`): such a member is the class's own when no code
// outside it names it. Another class's public member is anyone's.
bool writableOutsideItsClass(const FieldDecl *F, const CXXRecordDecl *C,
                             const ApiModel &Api) {
  return F->getAccess() == AS_public &&
         (!Api.isModuleClass(C) || usedOutsideItsClass(F));
}

TensorFact computeFixedTensor(Session &S, const FieldDecl *F,
                              const ApiModel &Api) {
  const auto *C = dyn_cast<CXXRecordDecl>(F->getParent());
  llvm::SmallVector<const CXXConstructorDecl *, 2> Ctors;
  llvm::SmallVector<const FunctionDecl *, 8> Others;
  if (!C || writableOutsideItsClass(F, C, Api) ||
      !Api.isTensorValueType(F->getType().getUnqualifiedType()) ||
      !allMethods(C, Ctors, Others))
    return TensorFact::unknown();
  for (const FunctionDecl *M : Others) {
    MemberUses U = uses(F, M, Api);
    if (U.Written || !U.Assigns.empty())
      return TensorFact::unknown();
  }
  TensorFact R;
  for (const CXXConstructorDecl *Ctor : Ctors) {
    MemberUses U = uses(F, Ctor, Api);
    if (U.Written)
      return TensorFact::unknown();
    // A delegating constructor that leaves the member alone: the target
    // constructor, among these, sets it.
    if (Ctor->isDelegatingConstructor() && U.All.empty())
      continue;
    const FunctionFacts *Analysed =
        analyzeIn(S, Ctor, F->getASTContext(), Api, nullptr, "");
    if (!Analysed)
      S.Members.Retry = true; // in progress, or nested too deeply
    if (!Analysed || !Analysed->Complete)
      return TensorFact::unknown();
    TensorFact T = Analysed->memberExit(F);
    T.Device = inClassTerms(S, T.Device, Ctor, Api);
    if (T.Type.Kind == FactKind::Symbolic)
      T.Type = DTypeFact::unknown();
    R = R.reached() ? join(R, T) : T;
  }
  return R.reached() ? R : TensorFact::unknown();
}

// A Device field of a configuration object (`cfg.device`): every value
// this translation unit gives it, in the field's default initialiser, the
// class's constructors, aggregate initialisation and assignments. When
// none may be cuda, and no code outside this translation unit may write it
// (its class is defined in the main file, and nothing here takes its
// address or binds it to a non-const reference), it holds no cuda device.
FieldDevice computeFieldDevice(const FieldDecl *F, const ApiModel &Api) {
  const auto *C = dyn_cast<CXXRecordDecl>(F->getParent());
  const ASTContext &Ctx = F->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  if (!C || !isDevice(F->getType(), Api) || F->getType()->isReferenceType() ||
      SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
    return {};
  bool MayBeCuda = !SM.isInMainFile(SM.getExpansionLoc(C->getLocation()));
  auto Gives = [&](const Expr *V) {
    DeviceFact D = constantDevice(V, Api);
    MayBeCuda |= !D.isKnown() || D.IsCuda;
  };
  if (const Expr *Init = F->getInClassInitializer())
    Gives(Init);
  class Writes : public RecursiveASTVisitor<Writes> {
  public:
    Writes(const FieldDecl *F, decltype(Gives) &Give) : F(F), Give(Give) {}
    bool shouldVisitImplicitCode() const { return false; }
    // The function each write is in (a lambda's: the enclosing one's).
    bool TraverseDecl(Decl *D) {
      const FunctionDecl *Outer = Current;
      if (auto *FD = dyn_cast_or_null<FunctionDecl>(D))
        Current = FD;
      bool R = RecursiveASTVisitor::TraverseDecl(D);
      Current = Outer;
      return R;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() == BO_Assign && names(BO->getLHS()))
        write(BO->getRHS());
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
      if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2 &&
          names(OCE->getArg(0)))
        write(OCE->getArg(1));
      return true;
    }
    // Config{..., torch::kCUDA}, Config{.device = d}: the semantic form.
    bool VisitInitListExpr(InitListExpr *IL) {
      const auto *RD = IL->getType()->getAsCXXRecordDecl();
      if (!IL->isSemanticForm() || !RD || RD != F->getParent())
        return true;
      if (F->getFieldIndex() < IL->getNumInits())
        Give(IL->getInit(F->getFieldIndex()));
      return true;
    }
    bool VisitCXXConstructorDecl(CXXConstructorDecl *CD) {
      if (const Expr *Init = writtenInitialiser(CD, F))
        Give(Init);
      return true;
    }
    // `&cfg.device`, or a non-const reference to it: written elsewhere.
    bool VisitUnaryOperator(UnaryOperator *UO) {
      if (UO->getOpcode() == UO_AddrOf && names(UO->getSubExpr()))
        Escaped = true;
      return true;
    }
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->getType()->isReferenceType() &&
          !VD->getType().getNonReferenceType().isConstQualified() &&
          VD->getInit() && names(VD->getInit()))
        Escaped = true;
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *FD = CE->getDirectCallee();
      const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE);
      const auto *Method = dyn_cast_or_null<CXXMethodDecl>(FD);
      const unsigned Offset = OCE && Method ? 1 : 0;
      for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
        if (!names(CE->getArg(I)))
          continue;
        if (I < Offset) { // the object of a member operator
          Escaped |= OCE->getOperator() != OO_Equal && !Method->isConst();
          continue;
        }
        const ParmVarDecl *P = FD && I - Offset < FD->getNumParams()
                                   ? FD->getParamDecl(I - Offset)
                                   : nullptr;
        Escaped |=
            !P || (P->getType()->isReferenceType() &&
                   !P->getType().getNonReferenceType().isConstQualified());
      }
      return true;
    }
    // `cfg.device.set_index(1)`.
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
      const CXXMethodDecl *MD = MCE->getMethodDecl();
      if (names(MCE->getImplicitObjectArgument()) && (!MD || !MD->isConst()))
        Escaped = true;
      return true;
    }
    bool Escaped = false;
    llvm::SmallVector<const FunctionDecl *, 4> Writers;

  private:
    void write(const Expr *V) {
      Give(V);
      if (Current)
        Writers.push_back(Current->getCanonicalDecl());
    }
    const FunctionDecl *Current = nullptr;
    bool names(const Expr *E) const {
      const auto *ME =
          dyn_cast_or_null<MemberExpr>(E ? E->IgnoreParenImpCasts() : E);
      return ME && ME->getMemberDecl() == F;
    }
    const FieldDecl *F;
    decltype(Gives) &Give;
  };
  Writes Scan(F, Gives);
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    SourceLocation Loc = D->getLocation();
    if (Loc.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
      continue;
    Scan.TraverseDecl(const_cast<Decl *>(D));
  }
  return {DeviceFact::symbol(F, MayBeCuda || Scan.Escaped),
          std::move(Scan.Writers)};
}

using MemberKey = MemberState::Key;

// Computes once per member and API configuration. The map is looked up
// again after Compute, which may fill the other map (a module's device).
template <typename Fact>
Fact cached(Session &S, std::map<MemberKey, Fact> &Map, const FieldDecl *F,
            const ApiModel &Api,
            Fact (*Compute)(Session &, const FieldDecl *, const ApiModel &)) {
  MemberKey Key{F, Api.configurationKey()};
  if (auto It = Map.find(Key); It != Map.end())
    return It->second;
  // Computing may come back here (a constructor that reads the member
  // through a helper): unknown meanwhile. A result that met an analysis in
  // progress is not kept: asked again later, it may be known.
  Map[Key] = Fact::unknown();
  const bool Outer = S.Members.Retry;
  S.Members.Retry = false;
  Fact R = Compute(S, F, Api);
  if (S.Members.Retry)
    Map.erase(Key);
  else
    Map[Key] = R;
  S.Members.Retry |= Outer;
  return R;
}

// The same for a yes-or-no property that needs no session.
bool cachedFlag(std::map<MemberKey, bool> &Map, const FieldDecl *F,
                const ApiModel &Api,
                bool (*Compute)(const FieldDecl *, const ApiModel &)) {
  MemberKey Key{F, Api.configurationKey()};
  auto It = Map.find(Key);
  if (It == Map.end())
    It = Map.emplace(Key, Compute(F, Api)).first;
  return It->second;
}

} // namespace

bool writesMemberOutOfSight(const FieldDecl *F, const FunctionDecl *Fn,
                            const ApiModel &Api) {
  return uses(F, Fn, Api).Written;
}

DeviceFact fixedDeviceMember(Session &S, const FieldDecl *F,
                             const ApiModel &Api) {
  return cached(S, S.Members.Devices, F, Api, computeFixedDevice);
}

DeviceFact fieldDevice(Session &S, const FieldDecl *F, const FunctionDecl *In,
                       const ApiModel &Api) {
  MemberKey Key{F, Api.configurationKey()};
  auto It = S.Members.FieldDevices.find(Key);
  if (It == S.Members.FieldDevices.end())
    It = S.Members.FieldDevices.emplace(Key, computeFieldDevice(F, Api)).first;
  const FieldDevice &D = It->second;
  // A function that writes the field reads what it wrote: the flow there
  // is its own, which this does not follow.
  if (In && llvm::is_contained(D.Writers, In->getCanonicalDecl()))
    return DeviceFact::unknown();
  return D.Value;
}

const Expr *initialiserInEffect(const CXXConstructorDecl *Ctor,
                                const FieldDecl *F, const ApiModel &Api) {
  const Expr *Init = writtenInitialiser(Ctor, F);
  if (!Init)
    return nullptr;
  MemberUses U = uses(F, Ctor, Api);
  return U.Written || !U.Assigns.empty() ? nullptr : Init;
}

DeviceFact memberDeviceFromParameter(Session &S, const FieldDecl *F,
                                     const FunctionDecl *In,
                                     const ApiModel &Api) {
  const auto *C = dyn_cast<CXXRecordDecl>(F->getParent());
  llvm::SmallVector<const CXXConstructorDecl *, 2> Ctors;
  llvm::SmallVector<const FunctionDecl *, 8> Others;
  if (!C || !Api.isTensorValueType(F->getType().getUnqualifiedType()) ||
      !allMethods(C, Ctors, Others))
    return DeviceFact::unknown();
  DeviceFact R = DeviceFact::unknown();
  for (const CXXConstructorDecl *Ctor : Ctors) {
    if (Ctor->isDelegatingConstructor() && uses(F, Ctor, Api).All.empty())
      continue;
    const FunctionFacts *Analysed =
        analyzeIn(S, Ctor, F->getASTContext(), Api, nullptr, "");
    if (!Analysed || !Analysed->Complete)
      return DeviceFact::unknown();
    const DeviceFact D = Analysed->memberExit(F).Device;
    const auto *P = D.Kind == FactKind::Symbolic
                        ? dyn_cast_or_null<ParmVarDecl>(D.Symbol)
                        : nullptr;
    if (!P)
      return DeviceFact::unknown();
    // As In reads `this->G` (evalDevice).
    const DeviceFact M = parameterAsMember(S, Ctor, P, Api, In);
    if (M.Kind != FactKind::Symbolic ||
        (R.Kind == FactKind::Symbolic && R.Symbol != M.Symbol))
      return DeviceFact::unknown();
    R = M;
  }
  return R;
}

TensorFact fixedTensorMember(Session &S, const FieldDecl *F,
                             const ApiModel &Api) {
  return cached(S, S.Members.Tensors, F, Api, computeFixedTensor);
}

llvm::ArrayRef<const Expr *>
fixedOptionsInitialisers(Session &S, const FieldDecl *F, const ApiModel &Api) {
  MemberKey Key{F, Api.configurationKey()};
  auto [It, New] = S.Members.OptionsInitialisers.try_emplace(Key);
  if (!New)
    return It->second;
  const auto *C = dyn_cast<CXXRecordDecl>(F->getParent());
  const auto *RD = F->getType()->getAsCXXRecordDecl();
  llvm::SmallVector<const CXXConstructorDecl *, 2> Ctors;
  llvm::SmallVector<const FunctionDecl *, 8> Others;
  if (!C || !RD || !Api.isTensorOptionsClass(RD) ||
      writableOutsideItsClass(F, C, Api) || !allMethods(C, Ctors, Others))
    return {};
  for (const FunctionDecl *M : Others) {
    MemberUses U = uses(F, M, Api);
    if (U.Written || !U.Assigns.empty())
      return {};
  }
  llvm::SmallVector<const Expr *, 2> Inits;
  for (const CXXConstructorDecl *Ctor : Ctors) {
    MemberUses U = uses(F, Ctor, Api);
    if (U.Written || !U.Assigns.empty())
      return {};
    // A delegating constructor leaves it to its target, among these.
    if (Ctor->isDelegatingConstructor())
      continue;
    const Expr *Init = writtenInitialiser(Ctor, F);
    if (!Init)
      Init = F->getInClassInitializer();
    if (!Init)
      return {};
    Inits.push_back(Init);
  }
  It->second = std::move(Inits); // std::map entries stay put
  return It->second;
}

namespace {
bool computeRegisteredSubmodule(const FieldDecl *F, const ApiModel &Api) {
  const auto *C = dyn_cast<CXXRecordDecl>(F->getParent());
  llvm::SmallVector<const CXXConstructorDecl *, 2> Ctors;
  llvm::SmallVector<const FunctionDecl *, 8> Others;
  if (!C || !Api.isModuleClass(C) || !Api.isModuleHandleType(F->getType()) ||
      (F->getAccess() == AS_public && usedOutsideItsClass(F)) ||
      !allMethods(C, Ctors, Others))
    return false;
  auto Registers = [&](const Expr *E) {
    // register_module returns a shared_ptr the holder is built from.
    E = strip(E);
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
        CE && CE->getNumArgs() == 1)
      E = strip(CE->getArg(0));
    const auto *MCE = dyn_cast_or_null<CXXMemberCallExpr>(E);
    return MCE && Api.registration(MCE->getMethodDecl()) ==
                      ApiModel::Registration::Module;
  };
  for (const FunctionDecl *M : Others) {
    MemberUses U = uses(F, M, Api);
    if (U.Written || !U.Moves.empty() || !U.Assigns.empty())
      return false;
  }
  for (const CXXConstructorDecl *Ctor : Ctors) {
    MemberUses U = uses(F, Ctor, Api);
    if (U.Written || !U.Moves.empty())
      return false;
    // The member is registered when its last write registers it
    // (`fc(register_module("fc", nn::Linear(...)))`, `fc = register_module(
    // ...)`), or when `register_module("fc", fc)` follows every write that
    // does not (its initialisers, `fc = nn::Linear(...)`).
    bool Set = false, Unregistered = false;
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->getMember() == F) {
        const Expr *E =
            Init->isWritten() ? Init->getInit() : F->getInClassInitializer();
        if (Init->isWritten() && Registers(E))
          Set = true;
        else if (E && !isEmptyHolder(E))
          Unregistered = true; // a module built and not registered
      }
    class Writes : public RecursiveASTVisitor<Writes> {
    public:
      Writes(const FieldDecl *F, const ApiModel &Api,
             llvm::function_ref<bool(const Expr *)> Registers)
          : F(F), Api(Api), Registers(Registers) {}
      bool Any = false;
      llvm::SmallVector<SourceLocation, 2> Plain; // writes that do not
      llvm::SmallVector<SourceLocation, 2> Calls; // register_module(n, fc)
      bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
        if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2)
          check(OCE->getArg(0), OCE->getArg(1), OCE->getExprLoc());
        return true;
      }
      bool VisitBinaryOperator(BinaryOperator *BO) {
        if (BO->getOpcode() == BO_Assign)
          check(BO->getLHS(), BO->getRHS(), BO->getExprLoc());
        return true;
      }
      // Only a statement of the body itself: one in a branch may not run.
      void topLevelCalls(const Stmt *Body) {
        for (const Stmt *S : Body ? Body->children()
                                  : Stmt::const_child_range(nullptr, nullptr)) {
          const auto *E = dyn_cast_or_null<Expr>(S);
          const auto *MCE =
              E ? dyn_cast<CXXMemberCallExpr>(E->IgnoreImplicit()) : nullptr;
          if (MCE && MCE->getNumArgs() >= 2 &&
              Api.registration(MCE->getMethodDecl()) ==
                  ApiModel::Registration::Module &&
              thisMember(MCE->getArg(1)) == F)
            Calls.push_back(MCE->getExprLoc());
        }
      }

    private:
      void check(const Expr *LHS, const Expr *RHS, SourceLocation Loc) {
        if (thisMember(LHS) != F)
          return;
        if (Registers(RHS))
          Any = true;
        else
          Plain.push_back(Loc);
      }
      const FieldDecl *F;
      const ApiModel &Api;
      llvm::function_ref<bool(const Expr *)> Registers;
    };
    Writes W(F, Api, Registers);
    W.TraverseStmt(Ctor->getBody());
    W.topLevelCalls(Ctor->getBody());
    if (!W.Calls.empty()) {
      const SourceManager &SM = F->getASTContext().getSourceManager();
      SourceLocation Last = W.Calls.back();
      if (llvm::any_of(W.Plain, [&](SourceLocation L) {
            return !SM.isBeforeInTranslationUnit(L, Last);
          }))
        return false;
      continue;
    }
    if (!W.Plain.empty() || Unregistered || (!Set && !W.Any))
      return false;
  }
  return true;
}

// Whether every mention of \p F in its class \p C is `this`'s member,
// assigned (left to the caller to place) or called (`fc(x)`,
// `fc->forward(x)`): in its methods, its constructors' initialisers and its
// members' own initialisers. Anything else may register, move or hand out
// the module: `fc.ptr()`, `fc->parameters()`, `Sequential(fc, ...)`,
// another object's `n->fc` in a static factory.
bool onlyCalledOrAssigned(const CXXRecordDecl *C, const FieldDecl *F,
                          const ApiModel &Api) {
  // Top down (a call is visited before its operands), so that no parent map
  // of the whole translation unit is built: the calls mark the mentions
  // they allow, and any other mention is not allowed.
  class Mentions : public RecursiveASTVisitor<Mentions> {
  public:
    Mentions(const FieldDecl *F, const ApiModel &Api) : F(F), Api(Api) {}
    bool Bad = false;
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      // fc = ..., fc(x).
      if ((Op->getOperator() == OO_Equal || Op->getOperator() == OO_Call) &&
          Op->getNumArgs() > 0)
        allow(Op->getArg(0));
      return true;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
      // fc->forward(x), fc->eval(): through the holder's operator->.
      if (!Api.isModuleForward(MCE->getMethodDecl()) &&
          !Api.isModuleModeMethod(MCE->getMethodDecl()))
        return true;
      const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(
          MCE->getImplicitObjectArgument()->IgnoreParenImpCasts());
      if (Arrow && Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() > 0)
        allow(Arrow->getArg(0));
      return true;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      if (ME->getMemberDecl() == F && !Allowed.contains(ME))
        Bad = true;
      return !Bad;
    }

  private:
    void allow(const Expr *E) {
      const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
      if (ME && ME->getMemberDecl() == F &&
          isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        Allowed.insert(ME);
    }
    const FieldDecl *F;
    const ApiModel &Api;
    llvm::DenseSet<const MemberExpr *> Allowed;
  };
  Mentions M(F, Api);
  for (const Decl *D : C->decls()) {
    if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
      D = FTD->getTemplatedDecl();
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      const FunctionDecl *Def = nullptr;
      if (FD->hasBody(Def) && Def)
        M.TraverseStmt(Def->getBody());
      if (const auto *CD = dyn_cast_or_null<CXXConstructorDecl>(Def))
        for (const CXXCtorInitializer *Init : CD->inits())
          if (Init->isWritten())
            M.TraverseStmt(Init->getInit());
    } else if (const auto *G = dyn_cast<FieldDecl>(D);
               G && G->hasInClassInitializer()) {
      M.TraverseStmt(G->getInClassInitializer());
    }
    if (M.Bad)
      return false;
  }
  return true;
}

// A layer built at \p Built and never registered: on the cpu in float32,
// wherever its module goes. A member of a class that is no module has no
// module to be registered with: it is where it was created, as no code
// moves it.
ModuleFact builtUnregistered(const Expr *Built, const CXXRecordDecl *C,
                             const ApiModel &Api) {
  ModuleFact R = ModuleFact::unknown();
  R.Device = DeviceFact::cpu();
  R.Type = DTypeFact::known(DType::Float32);
  R.DeviceOrigin = R.TypeOrigin = {
      Built->getExprLoc(),
      Api.isModuleClass(C) ? Origin::ModuleUnregistered : Origin::ModuleKept};
  R.FirstLayer = writtenFirstLayer(Built, Api);
  return R;
}

// The forgotten register_module (Members.h). A private member's uses are
// all in its class's methods (a class with friends is not judged); any
// other is judged only when no code outside the class names it, a derived
// class included.
ModuleFact computeUnregisteredModule(Session &S, const FieldDecl *F,
                                     const ApiModel &Api) {
  const auto *C = dyn_cast<CXXRecordDecl>(F->getParent());
  llvm::SmallVector<const CXXConstructorDecl *, 2> Ctors;
  llvm::SmallVector<const FunctionDecl *, 8> Others;
  if (!C || !Api.isModuleHandleType(F->getType()) || C->hasFriends() ||
      (F->getAccess() != AS_private && usedOutsideItsClass(F)) ||
      !allMethods(C, Ctors, Others) || !onlyCalledOrAssigned(C, F, Api))
    return ModuleFact::unknown();
  // onlyCalledOrAssigned leaves no move (`fc->to(...)` is neither a call
  // of forward nor an assignment); allKept adds what it does not see, a
  // capture by reference in a lambda.
  for (const FunctionDecl *M : Others) {
    MemberUses U = uses(F, M, Api);
    if (!allKept(U) || !U.Assigns.empty())
      return ModuleFact::unknown();
  }
  const Expr *Built = nullptr; // the first construction, for the note
  auto Builds = [&](const Expr *E) {
    if (!buildsNewOnCpu(S, E, Api))
      return false;
    if (!Built)
      Built = E;
    return true;
  };
  for (const CXXConstructorDecl *Ctor : Ctors) {
    MemberUses U = uses(F, Ctor, Api);
    if (!allKept(U))
      return ModuleFact::unknown();
    // A delegating constructor that leaves the member alone: the target
    // constructor, among these, builds it.
    if (Ctor->isDelegatingConstructor() && U.All.empty())
      continue;
    // What the member holds before the body: its initialiser here, or the
    // one its declaration gives.
    const Expr *Init = nullptr;
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->getMember() == F)
        Init = I->isWritten() ? I->getInit() : F->getInClassInitializer();
    // The body's assignments replace it, on the paths that run them: each
    // must build one, and what they may leave is an empty holder or a
    // built one.
    if (!U.AssignedValues.empty()) {
      if (!llvm::all_of(U.AssignedValues, Builds) ||
          (Init && !isEmptyHolder(Init) && !Builds(Init)))
        return ModuleFact::unknown();
      continue;
    }
    if (!Init || !Builds(Init))
      return ModuleFact::unknown();
  }
  if (!Built)
    return ModuleFact::unknown();
  return builtUnregistered(Built, C, Api);
}

// `{}`, `()`: a default-constructed (empty) container.
bool constructsEmpty(const Expr *E) {
  E = E ? E->IgnoreImplicit() : nullptr;
  if (const auto *ILE = dyn_cast_or_null<InitListExpr>(E))
    return ILE->getNumInits() == 0;
  const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
  return CE && CE->getNumArgs() == 0;
}

// Whether every mention of the vector member \p F in its class adds a
// freshly built layer in a constructor (`convs.push_back(Conv1d(...))`),
// asks its size, or reaches an element only to call it: `for (auto &c :
// convs) c(x)`, `convs[i](x)`, `convs.at(i)->forward(x)`. Anything else may
// register an element (`register_module("c", convs.back())`), move it or
// hand it out. \p Built: the first layer added, for the note.
bool onlyBuiltAndCalled(Session &S, const FieldDecl *F,
                        llvm::ArrayRef<const CXXConstructorDecl *> Ctors,
                        llvm::ArrayRef<const FunctionDecl *> Others,
                        const ApiModel &Api, const Expr *&Built) {
  // Top down, as in onlyCalledOrAssigned: a call marks the mentions it
  // allows before they are visited.
  class Mentions : public RecursiveASTVisitor<Mentions> {
  public:
    Mentions(Session &S, const FieldDecl *F, const ApiModel &Api)
        : S(S), F(F), Api(Api) {}
    bool Bad = false;
    bool InConstructor = false;
    const Expr *Built = nullptr;

    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
      const CXXMethodDecl *MD = MCE->getMethodDecl();
      const Expr *Obj = MCE->getImplicitObjectArgument();
      if (MD && isThisF(Obj)) {
        if (isStdAnyOf(MD, {"size", "empty", "reserve", "capacity"}))
          allowF(Obj);
        else if (InConstructor &&
                 isStdAnyOf(MD, {"push_back", "emplace_back"}) &&
                 MCE->getNumArgs() == 1 &&
                 buildsNewOnCpu(S, MCE->getArg(0), Api)) {
          allowF(Obj);
          if (!Built)
            Built = MCE->getArg(0);
        }
      }
      // element->forward(x): through the holder's operator->.
      if (Api.isModuleForward(MD))
        if (const auto *Arrow =
                dyn_cast<CXXOperatorCallExpr>(Obj->IgnoreParenImpCasts());
            Arrow && Arrow->getOperator() == OO_Arrow &&
            Arrow->getNumArgs() > 0)
          allowElement(Arrow->getArg(0));
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      if (Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
        allowElement(Op->getArg(0));
      return true;
    }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *FRS) {
      if (FRS->getRangeInit() && isThisF(FRS->getRangeInit())) {
        allowF(FRS->getRangeInit());
        LoopVars.insert(FRS->getLoopVariable());
      }
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (LoopVars.contains(DRE->getDecl()) && !AllowedRefs.contains(DRE))
        Bad = true;
      return !Bad;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      if (ME->getMemberDecl() == F && !Allowed.contains(ME))
        Bad = true;
      return !Bad;
    }

  private:
    const MemberExpr *asThisF(const Expr *E) const {
      const MemberExpr *ME = thisMemberExpr(E);
      return ME && ME->getMemberDecl() == F ? ME : nullptr;
    }
    bool isThisF(const Expr *E) const { return asThisF(E) != nullptr; }
    void allowF(const Expr *E) {
      if (const MemberExpr *ME = asThisF(E))
        Allowed.insert(ME);
    }
    // An element that is called: a loop variable over F, F[i], F.at(i),
    // F.front(), F.back().
    void allowElement(const Expr *E) {
      E = strip(E);
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
        if (LoopVars.contains(DRE->getDecl()))
          AllowedRefs.insert(DRE);
      } else if (const Expr *Vector = elementContainerExpr(E)) {
        allowF(Vector);
      }
    }
    Session &S;
    const FieldDecl *F;
    const ApiModel &Api;
    llvm::DenseSet<const MemberExpr *> Allowed;
    llvm::DenseSet<const ValueDecl *> LoopVars;
    llvm::DenseSet<const DeclRefExpr *> AllowedRefs;
  };
  Mentions M(S, F, Api);
  // Other members' initialisers may name it too (`first_(convs_.front())`).
  for (const FieldDecl *G : F->getParent()->fields())
    if (G != F && G->hasInClassInitializer())
      M.TraverseStmt(G->getInClassInitializer());
  M.InConstructor = true;
  for (const CXXConstructorDecl *Ctor : Ctors) {
    for (const CXXCtorInitializer *I : Ctor->inits()) {
      if (!I->isWritten())
        continue;
      // The vector starts empty: no initialiser gives it elements.
      if (I->getMember() == F && !constructsEmpty(I->getInit()))
        return false;
      M.TraverseStmt(I->getInit());
    }
    M.TraverseStmt(Ctor->getBody());
    if (M.Bad)
      return false;
  }
  M.InConstructor = false;
  for (const FunctionDecl *Fn : Others) {
    M.TraverseStmt(Fn->getBody());
    if (M.Bad)
      return false;
  }
  Built = M.Built;
  return Built != nullptr;
}

// Layers kept in a std::vector member and never registered (Members.h).
ModuleFact computeUnregisteredElements(Session &S, const FieldDecl *F,
                                       const ApiModel &Api) {
  const auto *C = dyn_cast<CXXRecordDecl>(F->getParent());
  llvm::SmallVector<const CXXConstructorDecl *, 2> Ctors;
  llvm::SmallVector<const FunctionDecl *, 8> Others;
  const Expr *Built = nullptr;
  if (!C || !Api.isModuleClass(C) || !Api.isModuleVector(F->getType()) ||
      (F->hasInClassInitializer() &&
       !constructsEmpty(F->getInClassInitializer())) ||
      C->hasFriends() ||
      (F->getAccess() != AS_private && usedOutsideItsClass(F)) ||
      !allMethods(C, Ctors, Others) ||
      !onlyBuiltAndCalled(S, F, Ctors, Others, Api, Built))
    return ModuleFact::unknown();
  return builtUnregistered(Built, C, Api);
}

} // namespace

bool isRegisteredSubmodule(Session &S, const FieldDecl *F,
                           const ApiModel &Api) {
  return cachedFlag(S.Members.Registered, F, Api, computeRegisteredSubmodule);
}

ModuleFact placedModuleMember(Session &S, const FieldDecl *F,
                              const ApiModel &Api) {
  return cached(S, S.Members.Modules, F, Api, computePlacedModule);
}

namespace {

// `{8, 8}` in `torch::randn({8, 8})`: a braced list of sizes with at least
// one element, through the IntArrayRef and initializer_list it becomes.
bool nonEmptySizes(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreImplicit();
    if (const auto *IL = dyn_cast<InitListExpr>(E))
      return IL->getNumInits() > 0;
    if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E)) {
      E = SIL->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
        CE && CE->getNumArgs() >= 1) {
      E = CE->getArg(0);
      continue;
    }
    return false;
  }
  return false;
}

// `register_parameter("w", torch::randn({8, 8}))`: a registration of a
// float32 cpu factory's tensor with at least one dimension.
bool registersTensorWithDimensions(const Expr *E, const ApiModel &Api) {
  const auto *MCE = dyn_cast_or_null<CXXMemberCallExpr>(strip(E));
  if (!MCE || MCE->getNumArgs() < 2 ||
      Api.registration(MCE->getMethodDecl()) == ApiModel::Registration::None ||
      Api.registration(MCE->getMethodDecl()) ==
          ApiModel::Registration::Module ||
      !isa<CXXThisExpr>(strip(MCE->getImplicitObjectArgument())) ||
      !defaultFloatFactory(MCE->getArg(1), Api))
    return false;
  const auto *Factory = dyn_cast<CallExpr>(strip(MCE->getArg(1)));
  return Factory && Factory->getNumArgs() > 0 &&
         nonEmptySizes(Factory->getArg(0));
}

bool computeRegisteredWithDimensions(const FieldDecl *F, const ApiModel &Api) {
  const auto *C = dyn_cast<CXXRecordDecl>(F->getParent());
  llvm::SmallVector<const CXXConstructorDecl *, 2> Ctors;
  llvm::SmallVector<const FunctionDecl *, 8> Others;
  if (!C || !Api.isModuleClass(C) ||
      !Api.isTensorValueType(F->getType().getUnqualifiedType()) ||
      C->hasFriends() ||
      (F->getAccess() != AS_private && usedOutsideItsClass(F)) ||
      !allMethods(C, Ctors, Others))
    return false;
  for (const FunctionDecl *M : Others) {
    MemberUses U = uses(F, M, Api);
    if (!allKept(U) || !U.Assigns.empty())
      return false;
  }
  bool Any = false;
  for (const CXXConstructorDecl *Ctor : Ctors) {
    MemberUses U = uses(F, Ctor, Api);
    if (!allKept(U))
      return false;
    if (Ctor->isDelegatingConstructor() && U.All.empty())
      continue;
    // Every value the constructor gives it is such a registration: its
    // initialiser (written or in-class) and its assignments.
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->getMember() == F) {
        const Expr *Init =
            I->isWritten() ? I->getInit() : F->getInClassInitializer();
        if (Init && !registersTensorWithDimensions(Init, Api))
          return false;
        Any |= Init != nullptr;
      }
    for (const Expr *V : U.AssignedValues)
      if (!registersTensorWithDimensions(V, Api))
        return false;
    Any |= !U.AssignedValues.empty();
  }
  return Any;
}

} // namespace

bool registeredWithDimensions(Session &S, const FieldDecl *F,
                              const ApiModel &Api) {
  return cachedFlag(S.Members.WithDimensions, F, Api,
                    computeRegisteredWithDimensions);
}

ModuleFact unregisteredModuleMember(Session &S, const FieldDecl *F,
                                    const ApiModel &Api) {
  return cached(S, S.Members.Unregistered, F, Api, computeUnregisteredModule);
}

ModuleFact unregisteredModuleElements(Session &S, const FieldDecl *F,
                                      const ApiModel &Api) {
  return cached(S, S.Members.UnregisteredElements, F, Api,
                computeUnregisteredElements);
}

} // namespace clang::tidy::tensor::analysis
