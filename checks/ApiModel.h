//===--- ApiModel.h - What the tensor APIs look like to the checks --------===//
//
// The single place that knows which C++ classes are tensors and modules and
// which of their methods are out-of-place conversions, for LibTorch (at::,
// c10::, torch::) and for this project's runtime (tt::). Every check asks the
// model; none hard-codes an API name. Options extend the built-in lists so
// that other tensor libraries can be taught without a rebuild.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_APIMODEL_H
#define TENSOR_TIDY_CHECKS_APIMODEL_H

#include "ClangTidyCheck.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <string>
#include <vector>

namespace clang::tidy::tensor {

/// Knows the tensor APIs: tensor classes, module classes and out-of-place
/// conversion methods.
///
/// Options (read with getLocalOrGlobal, so they can be set once for all
/// `tensor-*` checks as global CheckOptions or per check):
///  - `TensorClasses`: extra fully qualified tensor class names (`;`-separated),
///    added to `::at::TensorBase;::at::Tensor;::tt::Tensor`.
///  - `ModuleClasses`: extra module base classes, added to
///    `::torch::nn::Module;::tt::nn::Module`.
///  - `ConversionMethods`: extra out-of-place conversion method names, added
///    to the built-in set (`to`, `toType`, `type_as`, `cuda`, `cpu`, ...).
/// Names are matched against the canonical declaration, so list the class a
/// typedef names (`::at::Tensor`), not the typedef (`torch::Tensor`).
class ApiModel {
public:
  explicit ApiModel(const ClangTidyCheck::OptionsView &Options);

  /// Writes the user-supplied extensions back, so --dump-config shows them.
  void storeOptions(const ClangTidyCheck::OptionsView &Options,
                    ClangTidyOptions::OptionMap &Map) const;

  /// A class that is, or derives from, a tensor class.
  ast_matchers::internal::Matcher<CXXRecordDecl> tensorClass() const;

  /// A type whose canonical, unqualified form is a tensor class, held by
  /// value (references and pointers do not match).
  ast_matchers::internal::Matcher<QualType> tensorValueType() const;

  /// A class that is, or derives from, a module class.
  ast_matchers::internal::Matcher<CXXRecordDecl> moduleClass() const;

  /// A method of a tensor class that returns a new tensor by value and
  /// leaves its object unchanged: `to`, `cuda`, `contiguous`, ...
  ast_matchers::internal::Matcher<CXXMethodDecl> outOfPlaceConversion() const;

private:
  std::vector<std::string> ExtraTensorClasses;
  std::vector<std::string> ExtraModuleClasses;
  std::vector<std::string> ExtraConversionMethods;
  // Built-in plus extra names, in the form hasAnyName expects.
  std::vector<std::string> TensorClasses;
  std::vector<std::string> ModuleClasses;
  std::vector<std::string> ConversionMethods;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_APIMODEL_H
