//===--- UserCode.h - The functions of a translation unit's own code ------===//
//
// The checks look at the code the user wrote, not at <torch/torch.h>: they
// walk the translation unit's declarations and skip system headers
// wholesale. Matching every statement or declaration with AST matchers
// instead costs a matcher call per node of LibTorch's headers, most of the
// checks' time on a TU that includes them.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_USERCODE_H
#define TENSOR_TIDY_CHECKS_USERCODE_H

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include <vector>

namespace clang::tidy::tensor {

/// The function definitions written outside system headers, in declaration
/// order: functions and methods, the lambdas and local classes' methods
/// inside them, and the instantiations of templates (concrete code); with
/// \p Patterns, the templates' own (dependent) bodies too. A function may
/// appear more than once (a lambda inside an instantiation).
std::vector<const FunctionDecl *> userFunctions(const TranslationUnitDecl *TU,
                                                const SourceManager &SM,
                                                bool Patterns);

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_USERCODE_H
