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

// torch::nn::Module (torch/nn/module.h) and tt::nn::Module: their `to()` moves
// parameters in place, so a discarded result is correct there.
constexpr llvm::StringLiteral BuiltinModuleClasses[] = {"::torch::nn::Module",
                                                        "::tt::nn::Module"};

// Out-of-place conversions of at::Tensor (TensorBody.h) and tt::Tensor: each
// returns a new tensor (or the same storage under a new handle) and never
// modifies its object. In-place variants end in '_' and are not listed.
constexpr llvm::StringLiteral BuiltinConversionMethods[] = {
    "to",         "toType",    "type_as", "half",  "bfloat16",
    "cuda",       "cpu",       "pin_memory", "contiguous",
    "clone",      "detach"};

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
// any declaration whose qualified name ends with it.
bool nameListed(const NamedDecl *D, const std::vector<std::string> &Names) {
  std::string Qualified = "::" + D->getQualifiedNameAsString();
  llvm::StringRef Q(Qualified);
  return llvm::any_of(Names, [&](const std::string &N) {
    llvm::StringRef Name(N);
    if (Name.starts_with("::"))
      return Q == Name;
    return Q.ends_with(Name) && Q.drop_back(Name.size()).ends_with("::");
  });
}

bool sameOrDerivedFromListed(const CXXRecordDecl *RD,
                             const std::vector<std::string> &Names,
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

} // namespace

ApiModel::ApiModel(const ClangTidyCheck::OptionsView &Options)
    : ExtraTensorClasses(parseList(Options.getLocalOrGlobal("TensorClasses", ""))),
      ExtraModuleClasses(parseList(Options.getLocalOrGlobal("ModuleClasses", ""))),
      ExtraConversionMethods(
          parseList(Options.getLocalOrGlobal("ConversionMethods", ""))),
      TensorClasses(concat(BuiltinTensorClasses, ExtraTensorClasses)),
      ModuleClasses(concat(BuiltinModuleClasses, ExtraModuleClasses)),
      ConversionMethods(concat(BuiltinConversionMethods, ExtraConversionMethods)) {}

void ApiModel::storeOptions(const ClangTidyCheck::OptionsView &Options,
                            ClangTidyOptions::OptionMap &Map) const {
  Options.store(Map, "TensorClasses", joinList(ExtraTensorClasses));
  Options.store(Map, "ModuleClasses", joinList(ExtraModuleClasses));
  Options.store(Map, "ConversionMethods", joinList(ExtraConversionMethods));
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

} // namespace clang::tidy::tensor
