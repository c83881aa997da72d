//===--- TensorCheck.cpp - Base of every tensor-* check -------------------===//

#include "TensorCheck.h"

namespace clang::tidy::tensor {

bool TensorCheck::boolOption(StringRef LocalName, bool Default) {
  std::optional<StringRef> Value = Options.get(LocalName);
  if (!Value)
    return Default;
  if (Value->equals_insensitive("true"))
    return true;
  if (Value->equals_insensitive("false"))
    return false;
  long long Number = 0;
  if (!Value->getAsInteger(10, Number))
    return Number != 0;
  configurationDiag("invalid configuration value '%0' for option '%1.%2'; "
                    "expected a bool")
      << *Value << CheckName << LocalName;
  return Default;
}

} // namespace clang::tidy::tensor
