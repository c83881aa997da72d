//===--- ApiModel.cpp - What the tensor APIs look like to the checks ------===//

#include "ApiModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

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
    "to",  "toType",     "type_as",    "half",  "bfloat16", "cuda",
    "cpu", "pin_memory", "contiguous", "clone", "detach"};

// Tensor factories of torch::, at:: and tt:: by how they choose a dtype
// (torch/csrc/autograd/generated/variable_factories.h, ATen's defaults).
constexpr llvm::StringLiteral DefaultFloatFactories[] = {
    "randn", "rand",     "zeros",    "ones",      "empty",
    "eye",   "linspace", "logspace", "from_blob", "normal"};
constexpr llvm::StringLiteral LongFactories[] = {"randint", "randperm"};
constexpr llvm::StringLiteral FromValueFactories[] = {
    "tensor", "full", "arange", "scalar_tensor"};
constexpr llvm::StringLiteral LikeFactories[] = {
    "zeros_like", "ones_like",  "empty_like",  "full_like",
    "rand_like",  "randn_like", "randint_like"};

constexpr llvm::StringLiteral ModuleMoveNames[] = {"to", "cuda", "cpu", "half",
                                                   "bfloat16"};
// Module methods that switch its mode or clear its gradients: they neither
// move it nor hand it out.
constexpr llvm::StringLiteral ModuleModeNames[] = {"eval", "train",
                                                   "is_training", "zero_grad"};

// Module and holder methods that hand the module out to code that may move
// it: the holder's ptr() and get(), Module::apply(fn).
constexpr llvm::StringLiteral ModuleSharingNames[] = {"ptr", "get", "apply"};

// Tensor methods that view its memory as an array of a C++ element type;
// the first, the host accessor (isHostAccessor).
constexpr llvm::StringLiteral AccessorNames[] = {
    "accessor", "packed_accessor32", "packed_accessor64",
    "generic_packed_accessor"};

// Module methods that return the module's own tensors (the same
// TensorImpls, so set_data on one rebinds the module's parameter).
constexpr llvm::StringLiteral ModuleTensorNames[] = {
    "parameters", "named_parameters", "buffers", "named_buffers"};

// tt's operators as the ATen ops they are (ATen/TensorOperators.h and
// TensorBody.h define LibTorch's the same way, which the semantics table
// reads from their bodies).
llvm::StringRef operatorOp(OverloadedOperatorKind K) {
  switch (K) {
  case OO_Plus:
    return "add";
  case OO_Minus:
    return "sub";
  case OO_Star:
    return "mul";
  case OO_Slash:
    return "div";
  case OO_PlusEqual:
    return "add_";
  case OO_MinusEqual:
    return "sub_";
  case OO_StarEqual:
    return "mul_";
  case OO_SlashEqual:
    return "div_";
  case OO_EqualEqual:
    return "eq";
  case OO_ExclaimEqual:
    return "ne";
  case OO_Less:
    return "lt";
  case OO_LessEqual:
    return "le";
  case OO_Greater:
    return "gt";
  case OO_GreaterEqual:
    return "ge";
  case OO_Subscript:
    return "select";
  default:
    return "";
  }
}

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

// The C++ API's namespaces that mirror Python's torch.linalg, torch.fft and
// torch.special: `torch::linalg::eigh` calls ATen's `linalg_eigh`
// (torch/linalg.h, torch/fft.h, torch/special.h), through a detail::
// function of the same name.
constexpr llvm::StringLiteral SubmoduleNamespaces[] = {"linalg", "fft",
                                                       "special"};

// The ATen op a function of such a namespace calls: its name with the
// namespace's as a prefix (`linalg_` + `eigh`); empty for other functions.
std::string submoduleOp(const FunctionDecl *FD) {
  if (!FD->getIdentifier())
    return {};
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(DC);
    if (!NS || !NS->getIdentifier())
      return {};
    if (NS->getName() == "detail")
      continue;
    const auto *Parent = dyn_cast<NamespaceDecl>(NS->getDeclContext());
    if (!listed(SubmoduleNamespaces, NS->getName()) || !Parent ||
        !Parent->getIdentifier() || Parent->getName() != "torch")
      return {};
    return (NS->getName() + "_" + FD->getName()).str();
  }
  return {};
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
  return sameOrDerivedFromListed<std::initializer_list<llvm::StringRef>>(RD,
                                                                         Names);
}

} // namespace

ApiModel::ApiModel(const ClangTidyCheck::OptionsView &Options)
    : ApiModel([&](llvm::StringRef Name) {
        return Options.getLocalOrGlobal(Name, "").str();
      }) {}

ApiModel::ApiModel()
    : ApiModel([](llvm::StringRef) { return std::string(); }) {}

ApiModel::ApiModel(llvm::function_ref<std::string(llvm::StringRef)> Get)
    : ExtraTensorClasses(parseList(Get("TensorClasses"))),
      ExtraModuleClasses(parseList(Get("ModuleClasses"))),
      ExtraConversionMethods(parseList(Get("ConversionMethods"))),
      TensorClasses(concat(BuiltinTensorClasses, ExtraTensorClasses)),
      ModuleClasses(concat(BuiltinModuleClasses, ExtraModuleClasses)),
      ConversionMethods(
          concat(BuiltinConversionMethods, ExtraConversionMethods)),
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

bool ApiModel::isTypeMetaClass(const CXXRecordDecl *RD) const {
  return RD && nameListed(RD, {"::caffe2::TypeMeta"});
}

bool ApiModel::isTensorOptionsClass(const CXXRecordDecl *RD) const {
  return RD && nameListed(RD, {"::c10::TensorOptions", "::tt::TensorOptions"});
}

bool ApiModel::isScriptModule(const CXXRecordDecl *RD) const {
  return RD && nameListed(RD, {"::torch::jit::Module"});
}

bool ApiModel::isScriptLoad(const FunctionDecl *FD) const {
  return FD && nameListed(FD, {"::torch::jit::load"});
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

bool ApiModel::isModuleVector(QualType T) const {
  if (T.isNull())
    return false;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  if (!Spec || !nameListed(Spec, {"::std::vector"}) ||
      Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return false;
  return isModuleHandleType(Spec->getTemplateArgs()[0].getAsType());
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
    "GroupNormImpl", "EmbeddingImpl", "EmbeddingBagImpl", "LSTMImpl", "GRUImpl",
    "RNNImpl", "LSTMCellImpl", "GRUCellImpl", "RNNCellImpl",
    "MultiheadAttentionImpl", "PReLUImpl", "TransformerImpl",
    "TransformerEncoderLayerImpl", "TransformerDecoderLayerImpl",
    // tt
    "Linear"};

bool ApiModel::isParameterizedBuiltinModule(const CXXRecordDecl *RD) const {
  return isBuiltinModule(RD) && RD->getIdentifier() &&
         listed(ParameterizedModules, RD->getName());
}

bool ApiModel::takesParameterDtypeInput(const CXXRecordDecl *RD) const {
  return isParameterizedBuiltinModule(RD) && !looksUpIndices(RD);
}

bool ApiModel::looksUpIndices(const CXXRecordDecl *RD) const {
  return isParameterizedBuiltinModule(RD) &&
         (RD->getName() == "EmbeddingImpl" ||
          RD->getName() == "EmbeddingBagImpl");
}

bool ApiModel::isLossModule(const CXXRecordDecl *RD) const {
  if (!isBuiltinModule(RD) || !RD->getIdentifier())
    return false;
  llvm::StringRef N = RD->getName();
  N.consume_back("Impl");
  return N.ends_with("Loss") && N != "CTCLoss";
}

ApiModel::ClassIndexTarget
ApiModel::lossTargetKind(const CXXRecordDecl *RD) const {
  if (!isLossModule(RD))
    return ClassIndexTarget::None;
  llvm::StringRef N = RD->getName();
  N.consume_back("Impl");
  if (N == "CrossEntropyLoss")
    return ClassIndexTarget::UnlessSameShape;
  if (N == "NLLLoss" || N == "MultiMarginLoss" || N == "MultiLabelMarginLoss")
    return ClassIndexTarget::Always;
  return ClassIndexTarget::None;
}

bool ApiModel::isBatchClass(const CXXRecordDecl *RD) const {
  return RD && nameListed(RD, BatchClasses);
}

bool ApiModel::isApiFunction(const FunctionDecl *FD) const {
  return FD && inApiNamespace(FD);
}

bool ApiModel::isApiClass(const CXXRecordDecl *RD) const {
  return RD && inApiNamespace(RD);
}

bool ApiModel::isFunctional(const FunctionDecl *FD) const {
  const auto *NS = FD ? dyn_cast<NamespaceDecl>(FD->getDeclContext()) : nullptr;
  return NS && NS->getIdentifier() && NS->getName() == "functional" &&
         inApiNamespace(FD);
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

bool ApiModel::isFromBlob(const FunctionDecl *FD) const {
  return FD && !isa<CXXMethodDecl>(FD) && FD->getIdentifier() &&
         FD->getName() == "from_blob" && isApiFunction(FD);
}

bool ApiModel::isDataPointerMethod(const CXXMethodDecl *MD) const {
  return MD && MD->getIdentifier() && isTensorClass(MD->getParent()) &&
         llvm::is_contained({llvm::StringRef("data_ptr"),
                             llvm::StringRef("data"),
                             llvm::StringRef("mutable_data_ptr"),
                             llvm::StringRef("const_data_ptr")},
                            MD->getName());
}

QualType ApiModel::typedElementAccess(const CXXMethodDecl *MD) const {
  // The data pointer methods, and the accessors built on them.
  if (!isDataPointerMethod(MD) &&
      !(MD && MD->getIdentifier() && isTensorClass(MD->getParent()) &&
        listed(AccessorNames, MD->getName())))
    return QualType();
  const TemplateArgumentList *Args = MD->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Type)
    return QualType();
  return Args->get(0).getAsType();
}

bool ApiModel::isHostAccessor(const CXXMethodDecl *MD) const {
  return MD && MD->getIdentifier() && isTensorClass(MD->getParent()) &&
         MD->getName() == AccessorNames[0];
}

std::optional<DType>
ApiModel::dtypeOfAccessedElement(QualType T, const ASTContext &Ctx) const {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isSpecificBuiltinType(BuiltinType::UChar))
    return DType::UInt8;
  if (T->isSpecificBuiltinType(BuiltinType::SChar))
    return DType::Int8;
  return dtypeOfElementType(T, Ctx);
}

// A class template's specialization as its template's record (cv::Mat_<float>
// as cv::Mat_), any other class as itself.
static const CXXRecordDecl *templateRecord(const CXXRecordDecl *RD) {
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD))
    return Spec->getSpecializedTemplate()->getTemplatedDecl();
  return RD;
}

bool ApiModel::isHostImageClass(const CXXRecordDecl *RD) const {
  RD = templateRecord(RD);
  return RD && nameListed(RD, {"::cv::Mat", "::cv::Mat_"});
}

bool ApiModel::isHostImagePixels(const NamedDecl *D) const {
  if (!D || !D->getIdentifier())
    return false;
  if (const auto *FD = dyn_cast<FieldDecl>(D))
    return FD->getName() == "data" &&
           isHostImageClass(dyn_cast<CXXRecordDecl>(FD->getParent()));
  if (const auto *MD = dyn_cast<CXXMethodDecl>(D))
    return MD->getName() == "ptr" && isHostImageClass(MD->getParent());
  return false;
}

ApiModel::ImageCall ApiModel::imageCall(const FunctionDecl *FD) const {
  if (!FD)
    return ImageCall::None;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    const CXXRecordDecl *RD = MD->getParent();
    if (nameListed(RD, {"::cv::VideoCapture"}))
      return MD->getOverloadedOperator() == OO_GreaterGreater ||
                     (MD->getIdentifier() && MD->getName() == "read")
                 ? ImageCall::Grab
                 : ImageCall::None;
    if (!isHostImageClass(RD))
      return ImageCall::None;
    if (MD->getOverloadedOperator() == OO_Call)
      return ImageCall::Header; // image(roi)
    if (!MD->getIdentifier())
      return ImageCall::None;
    return llvm::StringSwitch<ImageCall>(MD->getName())
        .Case("convertTo", ImageCall::Convert)
        .Case("copyTo", ImageCall::Copy)
        .Case("create", ImageCall::Create)
        .Cases("clone", "rowRange", "colRange", "row", "col", "reshape",
               ImageCall::Header)
        .Cases("at", "ptr", "setTo", "begin", "end", ImageCall::Pixels)
        .Default(ImageCall::None);
  }
  if (nameListed(FD, {"::cv::imread"}))
    return ImageCall::Read;
  if (nameListed(FD, {"::cv::cvtColor", "::cv::resize", "::cv::flip",
                      "::cv::GaussianBlur", "::cv::blur", "::cv::medianBlur",
                      "::cv::warpAffine", "::cv::warpPerspective",
                      "::cv::copyMakeBorder"}))
    return ImageCall::Keep;
  return ImageCall::None;
}

int ApiModel::imageTypeParameter(const FunctionDecl *FD) const {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (!MD || !isHostImageClass(MD->getParent()))
    return -1;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const IdentifierInfo *II = FD->getParamDecl(I)->getIdentifier();
    if (II && (II->getName() == "type" || II->getName() == "_type" ||
               II->getName() == "rtype"))
      return static_cast<int>(I);
  }
  return -1;
}

ApiModel::ImageArgument ApiModel::imageArgument(const CXXRecordDecl *RD) const {
  if (!RD || !RD->getIdentifier())
    return ImageArgument::None;
  if (nameListed(RD, {"::cv::_InputArray"}))
    return ImageArgument::Input;
  if (nameListed(RD, {"::cv::_OutputArray", "::cv::_InputOutputArray"}))
    return ImageArgument::Output;
  return ImageArgument::None;
}

bool ApiModel::imageOverCallerMemory(const CXXConstructorDecl *Ctor) const {
  if (!Ctor || !isHostImageClass(Ctor->getParent()))
    return false;
  return llvm::any_of(Ctor->parameters(), [](const ParmVarDecl *P) {
    return P->getType()->isPointerType() && P->getIdentifier() &&
           P->getName() == "data";
  });
}

bool ApiModel::isHostRegistration(const FunctionDecl *FD) const {
  return FD && FD->getIdentifier() && FD->getName() == "cudaHostRegister";
}

bool ApiModel::isImageScalar(const CXXRecordDecl *RD) const {
  RD = templateRecord(RD);
  return RD && nameListed(RD, {"::cv::Scalar_"});
}

std::optional<DType> ApiModel::dtypeOfImageDepth(int64_t Depth) const {
  // By CV_MAT_DEPTH: CV_8U, CV_8S, CV_16U (no dtype here), CV_16S, CV_32S,
  // CV_32F, CV_64F, CV_16F.
  static constexpr std::optional<DType> ByDepth[8] = {
      DType::UInt8, DType::Int8,    std::nullopt,   DType::Int16,
      DType::Int32, DType::Float32, DType::Float64, DType::Float16};
  return ByDepth[Depth & 7];
}

std::optional<DType> ApiModel::dtypeOfElementType(QualType T,
                                                  const ASTContext &Ctx) const {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return DType::Float32;
  if (T->isSpecificBuiltinType(BuiltinType::Double))
    return DType::Float64;
  if (T->isBooleanType())
    return DType::Bool;
  if (T->isIntegerType() && !T->isAnyCharacterType() &&
      !T->isSpecificBuiltinType(BuiltinType::SChar) &&
      !T->isSpecificBuiltinType(BuiltinType::UChar) &&
      T->isSignedIntegerType() && !T->isEnumeralType()) {
    switch (Ctx.getTypeSize(T)) {
    case 16:
      return DType::Int16;
    case 32:
      return DType::Int32;
    case 64:
      return DType::Int64;
    default:
      return std::nullopt;
    }
  }
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
      RD && RD->getIdentifier() && inApiNamespace(RD)) {
    if (RD->getName() == "Half")
      return DType::Float16;
    if (RD->getName() == "BFloat16")
      return DType::BFloat16;
  }
  return std::nullopt;
}

bool ApiModel::isLoadFunction(const FunctionDecl *FD) const {
  return FD && FD->getIdentifier() && FD->getName() == "load" &&
         isApiFunction(FD);
}

bool ApiModel::isRebindingMethod(const CXXMethodDecl *MD) const {
  return MD && MD->getIdentifier() && isTensorClass(MD->getParent()) &&
         llvm::is_contained({llvm::StringRef("set_"),
                             llvm::StringRef("set_data"),
                             llvm::StringRef("swap")},
                            MD->getName());
}

bool ApiModel::isTensorOrListType(QualType T) const {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (isTensorClass(T->getAsCXXRecordDecl()))
    return true;
  // TensorList (c10::ArrayRef<Tensor>), ITensorListRef (c10::IListRef<Tensor>,
  // 2.x's cat), std::vector<Tensor>, std::initializer_list<Tensor>.
  // A wrapper a tensor converts to implicitly (tt's LocatedTensor, which
  // carries the caller's source location along).
  if (const auto *RD = T->getAsCXXRecordDecl(); RD && RD->hasDefinition())
    for (const CXXConstructorDecl *C : RD->ctors())
      if (!C->isExplicit() && !C->isCopyOrMoveConstructor() &&
          C->getNumParams() >= 1 && C->getMinRequiredArguments() <= 1 &&
          isTensorClass(C->getParamDecl(0)
                            ->getType()
                            .getNonReferenceType()
                            .getCanonicalType()
                            ->getAsCXXRecordDecl()))
        return true;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec ||
      !nameListed(Spec, {"::c10::ArrayRef", "::c10::IListRef", "::std::vector",
                         "::std::initializer_list", "::tt::ArrayRef"}))
    return false;
  const CXXRecordDecl *Element = onlyTypeArgument(Spec);
  return Element && isTensorClass(Element);
}

void ApiModel::startTranslationUnit() const {
  if (Semantics)
    Semantics->reset();
}

const CallSemantics *ApiModel::callSemantics(const FunctionDecl *FD) const {
  if (!FD)
    return nullptr;
  if (!Semantics)
    Semantics = std::make_unique<AtenSemantics>();
  auto IsTensor = [this](QualType T) { return isTensorOrListType(T); };
  // CombiningFunctions: every tensor argument on one device, results
  // promoted, as for an element-wise op.
  if (nameListed(FD, ExtraCombiningFunctions)) {
    CallSemantics S;
    S.Roles.resize(1 + FD->getNumParams());
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && !MD->isStatic() && isTensorClass(MD->getParent()))
      S.Roles[0].K = ArgumentRole::Device;
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (IsTensor(FD->getParamDecl(I)->getType()))
        S.Roles[1 + I].K = ArgumentRole::Device;
    S.DTypeRule = ResultDType::Promoted;
    return Semantics->remember(FD, std::move(S));
  }
  if (!inApiNamespace(FD))
    return nullptr;
  if (const CallSemantics *S = Semantics->of(FD, IsTensor))
    return S;
  // Code without LibTorch's headers (tt's API): ATen's op of that name.
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  const bool IsMethod = MD && !MD->isStatic() && isTensorClass(MD->getParent());
  // x[i]: select(0, i), whose schema takes the dimension too.
  if (IsMethod && FD->getOverloadedOperator() == OO_Subscript &&
      FD->getNumParams() == 1 &&
      FD->getParamDecl(0)->getType()->isIntegerType())
    if (const OpSchema *Select =
            AtenSemantics::builtinSchema("select", {true, false, false})) {
      llvm::SmallVector<ArgumentRole, 6> Roles(2);
      Roles[0].K = ArgumentRole::Device;
      Roles[0].Name = "self";
      return Semantics->remember(FD, AtenSemantics::withOverlay(Select, Roles));
    }
  llvm::StringRef Op;
  if (FD->isOverloadedOperator())
    Op = operatorOp(FD->getOverloadedOperator());
  else if (FD->getIdentifier())
    Op = FD->getName();
  if (Op.empty())
    return nullptr;
  // Functions named otherwise than the op they call, when their bodies are
  // not there to follow (tt's API, clangd's preamble):
  // nn::functional::cross_entropy calls cross_entropy_loss.
  if (Op == "cross_entropy")
    Op = "cross_entropy_loss";
  // torch::linalg::eigh calls linalg_eigh.
  const std::string Prefixed = submoduleOp(FD);
  llvm::SmallVector<llvm::StringRef, 2> Ops;
  if (!Prefixed.empty())
    Ops.push_back(Prefixed);
  Ops.push_back(Op);
  return Semantics->byName(FD, Ops, IsMethod, IsTensor);
}

bool ApiModel::isModuleMove(const CXXMethodDecl *MD) const {
  return MD && MD->getIdentifier() && listed(ModuleMoveNames, MD->getName()) &&
         isModuleClass(MD->getParent());
}

bool ApiModel::isModuleModeMethod(const CXXMethodDecl *MD) const {
  return MD && MD->getIdentifier() && listed(ModuleModeNames, MD->getName()) &&
         isModuleClass(MD->getParent());
}

bool ApiModel::isModuleSharingMethod(const CXXMethodDecl *MD) const {
  return MD && MD->getIdentifier() &&
         listed(ModuleSharingNames, MD->getName()) &&
         (isModuleClass(MD->getParent()) || isModuleHolder(MD->getParent()));
}

bool ApiModel::isModuleTensorAccessor(const CXXMethodDecl *MD) const {
  return MD && MD->getIdentifier() &&
         listed(ModuleTensorNames, MD->getName()) &&
         isModuleClass(MD->getParent());
}

std::optional<ApiModel::DeviceKind>
ApiModel::deviceKindOf(const EnumConstantDecl *EC) const {
  if (!EC || !isDeviceTypeEnum(dyn_cast<EnumDecl>(EC->getDeclContext())))
    return std::nullopt;
  llvm::StringRef N = EC->getName();
  if (N == "CPU")
    return DeviceKind::Cpu;
  if (N == "CUDA")
    return DeviceKind::Cuda;
  return std::nullopt;
}

std::optional<DType> ApiModel::dtypeOf(const EnumConstantDecl *EC) const {
  if (!EC || !isScalarTypeEnum(dyn_cast<EnumDecl>(EC->getDeclContext())))
    return std::nullopt;
  return llvm::StringSwitch<std::optional<DType>>(EC->getName())
      .Case("Bool", DType::Bool)
      .Case("Byte", DType::UInt8)
      .Case("Char", DType::Int8)
      .Case("Short", DType::Int16)
      .Case("Int", DType::Int32)
      .Case("Long", DType::Int64)
      .Case("Half", DType::Float16)
      .Case("BFloat16", DType::BFloat16)
      .Case("Float", DType::Float32)
      .Case("Double", DType::Float64)
      .Default(std::nullopt);
}

ApiModel::TensorProperty
ApiModel::tensorProperty(const CXXMethodDecl *MD) const {
  if (!MD || !MD->getIdentifier() || !isTensorClass(MD->getParent()))
    return TensorProperty::None;
  llvm::StringRef N = MD->getName();
  if (N == "device")
    return TensorProperty::Device;
  if (N == "scalar_type" || N == "dtype")
    return TensorProperty::DType;
  if (N == "options")
    return TensorProperty::Options;
  return TensorProperty::None;
}

ApiModel::OptionsSetter ApiModel::optionsSetter(const FunctionDecl *FD) const {
  if (!FD || !FD->getIdentifier())
    return OptionsSetter::Other;
  // A method of TensorOptions, or a free function that returns one.
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  const bool Member = MD && isTensorOptionsClass(MD->getParent());
  const bool Helper =
      !MD && isTensorOptionsClass(FD->getReturnType()->getAsCXXRecordDecl());
  if (!Member && !Helper)
    return OptionsSetter::Other;
  llvm::StringRef N = FD->getName();
  if (N == "device")
    return OptionsSetter::Device;
  if (N == "dtype")
    return OptionsSetter::DType;
  // c10's free helpers build a TensorOptions with that one field set:
  // torch::requires_grad() leaves the device and dtype at their defaults.
  if (N == "requires_grad" || N == "pinned_memory" || N == "layout" ||
      N == "memory_format")
    return OptionsSetter::Neutral;
  return OptionsSetter::Other;
}

std::optional<ApiModel::DeviceName>
ApiModel::parseDeviceString(llvm::StringRef S) const {
  DeviceName D;
  if (S == "cpu")
    return D;
  D.Cuda = true;
  if (S == "cuda")
    return D;
  int Index;
  if (S.consume_front("cuda:") && !S.getAsInteger(10, Index) && Index >= 0) {
    D.Index = Index;
    return D;
  }
  return std::nullopt;
}

ApiModel::Conversion ApiModel::conversionKind(const CXXMethodDecl *MD) const {
  llvm::StringRef N = MD && MD->getIdentifier() ? MD->getName() : "";
  if (N == "to")
    return Conversion::To;
  if (N == "cuda")
    return Conversion::Cuda;
  if (N == "cpu")
    return Conversion::Cpu;
  if (N == "half")
    return Conversion::Half;
  if (N == "bfloat16")
    return Conversion::BFloat16;
  if (N == "toType")
    return Conversion::ToType;
  if (N == "type_as")
    return Conversion::TypeAs;
  return Conversion::Keeps;
}

ApiModel::ModuleMove ApiModel::moduleMoveKind(const CXXMethodDecl *MD) const {
  llvm::StringRef N = MD && MD->getIdentifier() ? MD->getName() : "";
  if (N == "cuda")
    return ModuleMove::Cuda;
  if (N == "cpu")
    return ModuleMove::Cpu;
  if (N == "half")
    return ModuleMove::Half;
  if (N == "bfloat16")
    return ModuleMove::BFloat16;
  return ModuleMove::To;
}

ApiModel::Registration ApiModel::registration(const CXXMethodDecl *MD) const {
  if (!MD || !MD->getIdentifier() || !isModuleClass(MD->getParent()))
    return Registration::None;
  llvm::StringRef N = MD->getName();
  if (N == "register_module")
    return Registration::Module;
  if (N == "register_parameter")
    return Registration::Parameter;
  if (N == "register_buffer")
    return Registration::Buffer;
  return Registration::None;
}

bool ApiModel::isContainerModule(const CXXRecordDecl *RD) const {
  if (!isBuiltinModule(RD) || !RD->getIdentifier())
    return false;
  llvm::StringRef N = RD->getName();
  N.consume_back("Impl");
  return N == "Sequential" || N == "ModuleList" || N == "ModuleDict";
}

bool ApiModel::isOptionalClass(const CXXRecordDecl *RD) const {
  return RD && nameListed(RD, {"::c10::optional", "::std::optional"});
}

bool ApiModel::isIValueToTensor(const CXXMethodDecl *MD) const {
  return MD && MD->getIdentifier() && MD->getName() == "toTensor" &&
         isIValueClass(MD->getParent());
}

ApiModel::FactoryShape ApiModel::factoryShape(const FunctionDecl *FD) const {
  llvm::StringRef N = FD && FD->getIdentifier() ? FD->getName() : "";
  if (N == "tensor")
    return FactoryShape::Values;
  if (N == "scalar_tensor")
    return FactoryShape::Scalar;
  if (N == "arange" || N == "linspace" || N == "logspace" || N == "randperm")
    return FactoryShape::Vector;
  if (N == "eye")
    return FactoryShape::Matrix;
  return FactoryShape::Sizes;
}

bool ApiModel::isSetDefaultDtype(const FunctionDecl *FD) const {
  return FD && FD->getIdentifier() && FD->getName() == "set_default_dtype" &&
         isApiFunction(FD);
}

std::string ApiModel::inPlaceTwinName(llvm::StringRef Name) const {
  return (Name + "_").str();
}

bool ApiModel::isInPlaceName(llvm::StringRef Name) const {
  return Name.ends_with("_");
}

ApiModel::ValueElement
ApiModel::valueElement(const CXXConstructorDecl *Ctor,
                       std::optional<DType> &Element) const {
  Element.reset();
  if (!Ctor || Ctor->getNumParams() != 1 ||
      !nameListed(Ctor->getParent(), {"::torch::detail::TensorDataContainer"}))
    return ValueElement::None;
  QualType T = Ctor->getParamDecl(0)->getType().getNonReferenceType();
  const ASTContext &Ctx = Ctor->getASTContext();
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl())) {
    if (Spec->getTemplateArgs().size() < 1 ||
        Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
      return ValueElement::None;
    QualType Arg = Spec->getTemplateArgs()[0].getAsType();
    if (nameListed(Spec, {"::std::initializer_list"}))
      return ValueElement::List;
    if (!isArrayRefClass(Spec) && !nameListed(Spec, {"::std::vector"}))
      return ValueElement::None;
    T = Arg;
  } else if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
             RD && RD == Ctor->getParent()) {
    return ValueElement::None; // a copy or a move: what it holds is not seen
  }
  Element = dtypeOfAccessedElement(T, Ctx);
  return ValueElement::Values;
}

bool ApiModel::isArrayRefClass(const CXXRecordDecl *RD) const {
  return RD && nameListed(RD, {"::c10::ArrayRef", "::tt::IntArrayRef"});
}

llvm::SmallVector<const CXXMethodDecl *, 2>
ApiModel::forwardMethods(const CXXRecordDecl *Module) const {
  llvm::SmallVector<const CXXMethodDecl *, 2> Out;
  if (!Module || !Module->hasDefinition())
    return Out;
  ASTContext &Ctx = Module->getASTContext();
  for (const NamedDecl *ND : Module->lookup(&Ctx.Idents.get("forward")))
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(ND->getAsFunction()))
      Out.push_back(MD);
  return Out;
}

} // namespace clang::tidy::tensor
