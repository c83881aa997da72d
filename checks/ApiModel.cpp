//===--- ApiModel.cpp - What the tensor APIs look like to the checks ------===//

#include "ApiModel.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::tensor {
namespace {

// LibTorch: torch::Tensor is an alias of at::Tensor, which derives from
// at::TensorBase (ATen/core/TensorBase.h). tt mirrors the at:: names.
constexpr llvm::StringLiteral BuiltinTensorClasses[] = {
    "::at::TensorBase", "::at::Tensor", "::tt::Tensor"};

// torch::nn::Module (torch/nn/module.h), TorchScript's torch::jit::Module
// (torch/csrc/jit/api/module.h, also spelled torch::jit::script::Module) and
// tt::nn::Module: their `to()` moves parameters in place, so a discarded
// result is correct there.
constexpr llvm::StringLiteral BuiltinModuleClasses[] = {
    "::torch::nn::Module", "::torch::jit::Module", "::tt::nn::Module"};

// Data-loader batches: LibTorch's torch::data::Example and tt's, whose
// `data` and `target` come back on the cpu, as in PyTorch.
constexpr llvm::StringLiteral BuiltinBatchClasses[] = {"::torch::data::Example",
                                                       "::tt::data::Example"};

// Out-of-place conversions of at::Tensor (TensorBody.h) and tt::Tensor: each
// returns a new tensor (or the same storage under a new handle) and never
// modifies its object. In-place variants end in '_' and are not listed.
constexpr llvm::StringLiteral BuiltinConversionMethods[] = {
    "to",         "toType",    "type_as", "half",  "bfloat16",
    "cuda",       "cpu",       "pin_memory", "contiguous",
    "clone",      "detach"};

// Tensor factories of torch::, at:: and tt:: by how they choose a dtype
// (torch/csrc/autograd/generated/variable_factories.h, ATen's defaults).
constexpr llvm::StringLiteral DefaultFloatFactories[] = {
    "randn", "rand", "zeros", "ones", "empty", "eye", "linspace", "logspace",
    "from_blob", "normal"};
constexpr llvm::StringLiteral LongFactories[] = {"randint", "randperm"};
constexpr llvm::StringLiteral FromValueFactories[] = {"tensor", "full",
                                                      "arange", "scalar_tensor"};
constexpr llvm::StringLiteral LikeFactories[] = {
    "zeros_like", "ones_like", "empty_like", "full_like", "rand_like",
    "randn_like", "randint_like"};

// Functions and tensor methods that combine tensors element-wise or by
// contraction, so ATen requires one device (TensorIterator's common device).
constexpr llvm::StringLiteral CombiningNames[] = {
    "add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder",
    "pow", "atan2", "maximum", "minimum", "fmod", "eq", "ne", "lt", "le", "gt",
    "ge", "logical_and", "logical_or", "logical_xor", "where", "matmul", "mm",
    "bmm", "addmm", "linear", "cat", "stack", "dot", "mse_loss", "l1_loss",
    "cross_entropy", "nll_loss", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "smooth_l1_loss", "kl_div",
    "add_", "sub_", "mul_", "div_",
    // The index or mask must share the tensor's device (ATen's CUDA kernels
    // check it; `x[idx]` and index_put_ do not, their indices may stay on
    // the cpu), and the fused products need one device like mm.
    "masked_fill", "masked_fill_", "index_select", "gather", "scatter",
    "scatter_", "scatter_add", "scatter_add_", "index_add", "index_add_",
    "baddbmm", "addbmm", "addmv", "mv", "einsum"};
constexpr llvm::StringLiteral MatmulNames[] = {"matmul", "mm", "bmm", "linear"};
constexpr llvm::StringLiteral ModuleMoveNames[] = {"to", "cuda", "cpu", "half",
                                                   "bfloat16"};

// ATen's tensor methods and functions by what they keep (names as in
// TensorBody.h and tt::Tensor).
constexpr llvm::StringLiteral KeepsDTypeNames[] = {
    "view", "reshape", "transpose", "t", "permute", "squeeze", "unsqueeze",
    "flatten", "relu", "sigmoid", "tanh", "exp", "log", "neg", "abs", "sqrt",
    "softmax", "log_softmax", "clamp", "slice", "narrow", "select",
    "index_select", "expand", "expand_as", "repeat", "contiguous", "clone",
    "detach", "pin_memory", "sin", "cos", "exp_", "mul_", "add_", "sub_",
    "div_", "zero_", "fill_", "copy_", "requires_grad_", "view_as",
    "reshape_as", "flip", "roll", "index", "gather", "masked_fill",
    "dropout", "gelu", "silu", "leaky_relu", "sum", "mean", "max", "min"};
constexpr llvm::StringLiteral ElementwiseNames[] = {
    "relu", "sigmoid", "tanh", "exp", "log", "neg", "abs", "sqrt", "clamp",
    "softmax", "log_softmax", "sin", "cos", "gelu", "silu", "leaky_relu",
    "dropout", "masked_fill", "fill_", "zero_", "requires_grad_", "exp_",
    "relu_", "clamp_", "sigmoid_", "tanh_"};
// Methods and functions whose result has their operand's number of
// dimensions without being element-wise (a permutation, a copy).
constexpr llvm::StringLiteral RankKeepingNames[] = {
    "permute", "transpose", "contiguous", "clone", "detach", "flip",
    "narrow", "index_select", "roll", "slice", "t", "pin_memory"};
constexpr llvm::StringLiteral ValuesAndIndicesNames[] = {
    "max", "min", "sort", "topk", "kthvalue", "median", "nanmedian", "mode",
    "cummax", "cummin"};
constexpr llvm::StringLiteral ReductionNames[] = {"sum", "mean", "max",
                                                  "min", "prod", "norm"};

bool inApiNamespace(const Decl *D) {
  const DeclContext *DC = D->getDeclContext();
  const NamespaceDecl *Outer = nullptr;
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outer = NS;
  if (!Outer || !Outer->getIdentifier())
    return false;
  llvm::StringRef N = Outer->getName();
  return N == "torch" || N == "at" || N == "c10" || N == "tt";
}

template <size_t N>
bool listed(const llvm::StringLiteral (&Names)[N], llvm::StringRef Name) {
  return llvm::is_contained(Names, Name);
}

std::vector<std::string> parseList(llvm::StringRef Value) {
  std::vector<std::string> Result;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Value.split(Parts, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts)
    if (!Part.trim().empty())
      Result.push_back(Part.trim().str());
  return Result;
}

std::string joinList(const std::vector<std::string> &Items) {
  return llvm::join(Items, ";");
}

template <size_t N>
std::vector<std::string> concat(const llvm::StringLiteral (&Builtin)[N],
                                const std::vector<std::string> &Extra) {
  std::vector<std::string> All(std::begin(Builtin), std::end(Builtin));
  All.insert(All.end(), Extra.begin(), Extra.end());
  return All;
}

// hasAnyName's rule: "::a::B" names exactly that declaration, "B" or "a::B"
// any declaration whose qualified name ends with it. Names is any range of
// strings: the configured lists, or a braced list of literals, which then
// costs no allocation (these run for many expressions of a TU).
template <typename Range>
bool nameListed(const NamedDecl *D, const Range &Names) {
  std::string Qualified = "::" + D->getQualifiedNameAsString();
  llvm::StringRef Q(Qualified);
  return llvm::any_of(Names, [&](const auto &N) {
    llvm::StringRef Name(N);
    if (Name.starts_with("::"))
      return Q == Name;
    return Q.ends_with(Name) && Q.drop_back(Name.size()).ends_with("::");
  });
}
bool nameListed(const NamedDecl *D,
                std::initializer_list<llvm::StringRef> Names) {
  return nameListed<std::initializer_list<llvm::StringRef>>(D, Names);
}

template <typename Range>
bool sameOrDerivedFromListed(const CXXRecordDecl *RD, const Range &Names,
                             unsigned Depth = 0) {
  if (!RD || Depth > 16)
    return false;
  if (nameListed(RD, Names))
    return true;
  RD = RD->getDefinition();
  if (!RD)
    return false;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (sameOrDerivedFromListed(Base.getType()->getAsCXXRecordDecl(), Names,
                                Depth + 1))
      return true;
  return false;
}
bool sameOrDerivedFromListed(const CXXRecordDecl *RD,
                             std::initializer_list<llvm::StringRef> Names) {
  return sameOrDerivedFromListed<std::initializer_list<llvm::StringRef>>(
      RD, Names);
}

} // namespace

ApiModel::ApiModel(const ClangTidyCheck::OptionsView &Options)
    : ApiModel([&](llvm::StringRef Name) {
        return Options.getLocalOrGlobal(Name, "").str();
      }) {}

ApiModel::ApiModel() : ApiModel([](llvm::StringRef) { return std::string(); }) {}

ApiModel::ApiModel(llvm::function_ref<std::string(llvm::StringRef)> Get)
    : ExtraTensorClasses(parseList(Get("TensorClasses"))),
      ExtraModuleClasses(parseList(Get("ModuleClasses"))),
      ExtraConversionMethods(parseList(Get("ConversionMethods"))),
      TensorClasses(concat(BuiltinTensorClasses, ExtraTensorClasses)),
      ModuleClasses(concat(BuiltinModuleClasses, ExtraModuleClasses)),
      ConversionMethods(concat(BuiltinConversionMethods, ExtraConversionMethods)),
      ExtraCombiningFunctions(parseList(Get("CombiningFunctions"))),
      ExtraBatchClasses(parseList(Get("BatchClasses"))),
      BatchClasses(concat(BuiltinBatchClasses, ExtraBatchClasses)) {
  for (const auto *List : {&TensorClasses, &ModuleClasses, &ConversionMethods,
                           &ExtraCombiningFunctions, &BatchClasses})
    Key += joinList(*List) + "|";
}

void ApiModel::storeOptions(const ClangTidyCheck::OptionsView &Options,
                            ClangTidyOptions::OptionMap &Map) const {
  Options.store(Map, "TensorClasses", joinList(ExtraTensorClasses));
  Options.store(Map, "ModuleClasses", joinList(ExtraModuleClasses));
  Options.store(Map, "ConversionMethods", joinList(ExtraConversionMethods));
  Options.store(Map, "CombiningFunctions", joinList(ExtraCombiningFunctions));
  Options.store(Map, "BatchClasses", joinList(ExtraBatchClasses));
}

bool ApiModel::isTensorClass(const CXXRecordDecl *RD) const {
  return sameOrDerivedFromListed(RD, TensorClasses);
}

bool ApiModel::isModuleClass(const CXXRecordDecl *RD) const {
  return sameOrDerivedFromListed(RD, ModuleClasses);
}

bool ApiModel::isTensorValueType(QualType T) const {
  if (T.isNull() || T->isReferenceType() || T->isPointerType())
    return false;
  return isTensorClass(T.getCanonicalType()->getAsCXXRecordDecl());
}

bool ApiModel::isOutOfPlaceConversion(const CXXMethodDecl *MD) const {
  return MD && MD->getDeclName().isIdentifier() &&
         llvm::is_contained(ConversionMethods, MD->getName()) &&
         isTensorClass(MD->getParent()) &&
         isTensorValueType(MD->getReturnType());
}

bool ApiModel::isDeviceClass(const CXXRecordDecl *RD) const {
  return RD && nameListed(RD, {"::c10::Device", "::tt::Device"});
}

bool ApiModel::isDeviceTypeEnum(const EnumDecl *ED) const {
  return ED && nameListed(ED, {"::c10::DeviceType", "::tt::DeviceType"});
}

bool ApiModel::isScalarTypeEnum(const EnumDecl *ED) const {
  return ED && nameListed(ED, {"::c10::ScalarType", "::tt::ScalarType"});
}

bool ApiModel::isTensorOptionsClass(const CXXRecordDecl *RD) const {
  return RD && nameListed(RD, {"::c10::TensorOptions", "::tt::TensorOptions"});
}

bool ApiModel::isScriptModule(const CXXRecordDecl *RD) const {
  return RD && nameListed(RD, {"::torch::jit::Module"});
}

bool ApiModel::isIValueClass(const CXXRecordDecl *RD) const {
  return RD && nameListed(RD, {"::c10::IValue"});
}


bool ApiModel::isModuleHolder(const CXXRecordDecl *RD) const {
  return sameOrDerivedFromListed(RD, {"::torch::nn::ModuleHolder"});
}

namespace {
// The single template type argument of a specialization, if any.
const CXXRecordDecl *onlyTypeArgument(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
}
} // namespace

bool ApiModel::isInputVector(QualType T) const {
  if (T.isNull() || T->isReferenceType())
    return false;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getCanonicalType()->getAsCXXRecordDecl());
  if (!Spec || !nameListed(Spec, {"::std::vector"}))
    return false;
  const CXXRecordDecl *Element = onlyTypeArgument(Spec);
  return Element && (isIValueClass(Element) || isTensorClass(Element));
}

const CXXRecordDecl *ApiModel::moduleBehind(QualType T) const {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return nullptr;
  if (isModuleClass(RD))
    return RD;
  if (isModuleHolder(RD)) {
    // TORCH_MODULE(Linear) derives Linear from ModuleHolder<LinearImpl>.
    if (const CXXRecordDecl *Contained = onlyTypeArgument(RD))
      return Contained;
    if (RD->hasDefinition())
      for (const CXXBaseSpecifier &B : RD->bases())
        if (const CXXRecordDecl *Contained =
                onlyTypeArgument(B.getType()->getAsCXXRecordDecl()))
          return Contained;
    return nullptr;
  }
  if (nameListed(RD, {"::std::shared_ptr"}))
    if (const CXXRecordDecl *Pointee = onlyTypeArgument(RD))
      return isModuleClass(Pointee) ? Pointee : nullptr;
  return nullptr;
}

bool ApiModel::isModuleHandleType(QualType T) const {
  if (T.isNull())
    return false;
  const CXXRecordDecl *RD =
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  return moduleBehind(T) || (RD && isModuleHolder(RD));
}

bool ApiModel::isBuiltinModule(const CXXRecordDecl *RD) const {
  if (!RD)
    return false;
  const auto *NN = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  if (!NN || !NN->getIdentifier() || NN->getName() != "nn")
    return false;
  const auto *Top = dyn_cast<NamespaceDecl>(NN->getParent());
  return Top && Top->getIdentifier() &&
         (Top->getName() == "torch" || Top->getName() == "tt");
}

// The built-in layers that own parameters (torch/nn/modules/*.h, tt's
// nn/modules.h). The others (losses, activations, pooling, dropout) hold no
// tensor and run on whatever device their input is on; containers hold
// whatever they were given.
constexpr llvm::StringLiteral ParameterizedModules[] = {
    "LinearImpl", "BilinearImpl", "Conv1dImpl", "Conv2dImpl", "Conv3dImpl",
    "ConvTranspose1dImpl", "ConvTranspose2dImpl", "ConvTranspose3dImpl",
    "BatchNorm1dImpl", "BatchNorm2dImpl", "BatchNorm3dImpl", "LayerNormImpl",
    "GroupNormImpl", "EmbeddingImpl", "EmbeddingBagImpl", "LSTMImpl",
    "GRUImpl", "RNNImpl", "LSTMCellImpl", "GRUCellImpl", "RNNCellImpl",
    "MultiheadAttentionImpl", "PReLUImpl", "TransformerImpl",
    "TransformerEncoderLayerImpl", "TransformerDecoderLayerImpl",
    // tt
    "Linear"};

bool ApiModel::isParameterizedBuiltinModule(const CXXRecordDecl *RD) const {
  return isBuiltinModule(RD) && RD->getIdentifier() &&
         listed(ParameterizedModules, RD->getName());
}

bool ApiModel::takesParameterDtypeInput(const CXXRecordDecl *RD) const {
  return isParameterizedBuiltinModule(RD) && RD->getName() != "EmbeddingImpl" &&
         RD->getName() != "EmbeddingBagImpl";
}

bool ApiModel::isLossModule(const CXXRecordDecl *RD) const {
  if (!isBuiltinModule(RD) || !RD->getIdentifier())
    return false;
  llvm::StringRef N = RD->getName();
  N.consume_back("Impl");
  return N.ends_with("Loss") && N != "CTCLoss";
}

bool ApiModel::isBatchClass(const CXXRecordDecl *RD) const {
  return RD && nameListed(RD, BatchClasses);
}

bool ApiModel::isApiFunction(const FunctionDecl *FD) const {
  return FD && inApiNamespace(FD);
}

bool ApiModel::isModuleForward(const CXXMethodDecl *MD) const {
  return MD && MD->getIdentifier() && MD->getName() == "forward" &&
         isModuleClass(MD->getParent());
}

bool ApiModel::isBatchTensorField(const FieldDecl *FD) const {
  return FD && FD->getIdentifier() &&
         (FD->getName() == "data" || FD->getName() == "target") &&
         isBatchClass(dyn_cast<CXXRecordDecl>(FD->getParent()));
}

bool ApiModel::keepsDType(llvm::StringRef Name) const {
  return listed(KeepsDTypeNames, Name);
}
bool ApiModel::keepsRank(llvm::StringRef Name) const {
  return listed(ElementwiseNames, Name) || listed(RankKeepingNames, Name);
}
bool ApiModel::returnsValuesAndIndices(llvm::StringRef Name) const {
  return listed(ValuesAndIndicesNames, Name);
}
bool ApiModel::isReduction(llvm::StringRef Name) const {
  return listed(ReductionNames, Name);
}

bool ApiModel::isDataLoaderType(QualType T) const {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isPointerType())
    T = T->getPointeeType().getCanonicalType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD))
    if (nameListed(Spec, {"::std::unique_ptr", "::std::shared_ptr"}) &&
        Spec->getTemplateArgs().size() >= 1 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      RD = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  return sameOrDerivedFromListed(
      RD, {"::torch::data::DataLoaderBase", "::tt::data::DataLoader"});
}

ApiModel::FactoryKind ApiModel::factoryKind(const FunctionDecl *FD) const {
  if (!FD || isa<CXXMethodDecl>(FD) || !FD->getIdentifier() ||
      !inApiNamespace(FD))
    return FactoryKind::None;
  llvm::StringRef N = FD->getName();
  if (listed(DefaultFloatFactories, N))
    return FactoryKind::DefaultFloat;
  if (listed(LongFactories, N))
    return FactoryKind::Long;
  if (listed(FromValueFactories, N))
    return FactoryKind::FromValue;
  if (listed(LikeFactories, N))
    return FactoryKind::Like;
  return FactoryKind::None;
}

int ApiModel::combinedRank(const FunctionDecl *FD, int Dim) const {
  llvm::StringRef N = FD && FD->getIdentifier() ? FD->getName() : "";
  // stack adds a dimension; cat keeps its inputs' (0-dim inputs throw).
  // Either way the result has at least one.
  if (N == "stack")
    return Dim >= 0 ? Dim + 1 : -2;
  if (N == "cat")
    return Dim >= 1 ? Dim : -2;
  if (N.ends_with("loss") || N == "kl_div" ||
      N == "cross_entropy" || N.starts_with("binary_cross_entropy"))
    return -1;
  return Dim;
}

bool ApiModel::isLoadFunction(const FunctionDecl *FD) const {
  return FD && FD->getIdentifier() && FD->getName() == "load" &&
         isApiFunction(FD);
}

bool ApiModel::isRebindingMethod(const CXXMethodDecl *MD) const {
  return MD && MD->getIdentifier() && isTensorClass(MD->getParent()) &&
         llvm::is_contained({llvm::StringRef("set_"), llvm::StringRef("set_data"),
                             llvm::StringRef("swap")},
                            MD->getName());
}

bool ApiModel::isCombining(const FunctionDecl *FD) const {
  if (!FD)
    return false;
  if (nameListed(FD, ExtraCombiningFunctions))
    return true;
  if (FD->isOverloadedOperator()) {
    switch (FD->getOverloadedOperator()) {
    case OO_Plus: case OO_Minus: case OO_Star: case OO_Slash:
    case OO_PlusEqual: case OO_MinusEqual: case OO_StarEqual:
    case OO_SlashEqual: case OO_EqualEqual: case OO_ExclaimEqual:
    case OO_Less: case OO_LessEqual: case OO_Greater: case OO_GreaterEqual:
      return true;
    default:
      return false;
    }
  }
  if (!FD->getIdentifier() || !listed(CombiningNames, FD->getName()))
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return isTensorClass(MD->getParent());
  return inApiNamespace(FD);
}

bool ApiModel::isNonPromotingMatmul(const FunctionDecl *FD) const {
  if (!FD || !FD->getIdentifier() || !listed(MatmulNames, FD->getName()))
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return isTensorClass(MD->getParent());
  return inApiNamespace(FD);
}

bool ApiModel::isModuleMove(const CXXMethodDecl *MD) const {
  return MD && MD->getIdentifier() && listed(ModuleMoveNames, MD->getName()) &&
         isModuleClass(MD->getParent());
}

} // namespace clang::tidy::tensor
