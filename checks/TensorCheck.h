//===--- TensorCheck.h - Base of every tensor-* check ---------------------===//
//
// What all tensor-* checks share: the ApiModel built from the options, its
// options round-tripped through storeOptions, and C++-only activation.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_TENSORCHECK_H
#define TENSOR_TIDY_CHECKS_TENSORCHECK_H

#include "ApiModel.h"
#include "ClangTidyCheck.h"

namespace clang::tidy::tensor {

/// Base class of the tensor-* checks. Subclasses that add options call
/// TensorCheck::storeOptions from their own.
class TensorCheck : public ClangTidyCheck {
public:
  TensorCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context), Api(Options), TidyContext(Context),
        CheckName(Name) {}

  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    Api.storeOptions(Options, Opts);
  }

protected:
  /// Reads a boolean option as OptionsView::get<bool> does (true/false or an
  /// integer), reporting a bad value. That template is defined in
  /// libclangTidy, but GCC and Clang mangle its declaration differently, so
  /// checks built with GCC cannot link to it.
  bool boolOption(StringRef LocalName, bool Default);
  void storeBool(ClangTidyOptions::OptionMap &Opts, StringRef LocalName,
                 bool Value) const {
    Options.store(Opts, LocalName, Value ? "true" : "false");
  }

  /// Whether another check runs on the current file (its finding may own a
  /// fix-it this one would otherwise offer too).
  bool isCheckEnabled(StringRef Name) const {
    return TidyContext->isCheckEnabled(Name);
  }

  const ApiModel Api;

private:
  ClangTidyContext *TidyContext;
  const std::string CheckName;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_TENSORCHECK_H
