//===--- Environment.h - The analysis state at one program point ----------===//
//
// What the device/dtype analysis knows at a program point: a fact per
// tracked tensor location, module, Device, ScalarType and TensorOptions
// variable. Joins are exact (Lattice.h): a location that one path does not
// know is unknown after the join.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_ENVIRONMENT_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_ENVIRONMENT_H

#include "Lattice.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include <optional>

namespace clang::tidy::tensor::analysis {

/// A tracked tensor location: a variable, one member of a variable
/// (`batch.data`), or one element of a std::tuple or std::pair variable
/// (`std::get<1>(state)`). A std::vector of tensors is one location whose
/// fact holds for every element.
struct Key {
  const ValueDecl *Var = nullptr;
  const FieldDecl *Field = nullptr;
  int Element = -1;
  Key() = default;
  Key(const ValueDecl *Var, const FieldDecl *Field = nullptr, int Element = -1)
      : Var(Var), Field(Field), Element(Element) {}
  bool operator==(const Key &O) const {
    return Var == O.Var && Field == O.Field && Element == O.Element;
  }
};

} // namespace clang::tidy::tensor::analysis

namespace llvm {
template <> struct DenseMapInfo<clang::tidy::tensor::analysis::Key> {
  using Key = clang::tidy::tensor::analysis::Key;
  static Key getEmptyKey() {
    return {DenseMapInfo<const clang::ValueDecl *>::getEmptyKey()};
  }
  static Key getTombstoneKey() {
    return {DenseMapInfo<const clang::ValueDecl *>::getTombstoneKey()};
  }
  static unsigned getHashValue(const Key &K) {
    return static_cast<unsigned>(hash_combine(K.Var, K.Field, K.Element));
  }
  static bool isEqual(const Key &A, const Key &B) { return A == B; }
};
} // namespace llvm

namespace clang::tidy::tensor::analysis {

/// What a TensorOptions value specifies: a device and a dtype, each absent
/// when the options leave it to the default.
struct OptionsFact {
  std::optional<DeviceFact> Device;
  std::optional<DTypeFact> Type;
  Origin At;
  bool operator==(const OptionsFact &O) const {
    return Device == O.Device && Type == O.Type;
  }
  bool operator!=(const OptionsFact &O) const { return !(*this == O); }
  static OptionsFact unknown() {
    return {DeviceFact::unknown(), DTypeFact::unknown(), {}};
  }
};

OptionsFact join(const OptionsFact &A, const OptionsFact &B);

struct Env {
  bool Reached = false;
  llvm::DenseMap<Key, TensorFact> Tensors;
  llvm::DenseMap<const ValueDecl *, ModuleFact> Modules;
  llvm::DenseMap<const ValueDecl *, DeviceFact> Devices;
  llvm::DenseMap<const ValueDecl *, DTypeFact> DTypes;
  llvm::DenseMap<const ValueDecl *, OptionsFact> Options;
  /// For a method of a module analysed in a caller's context: the module it
  /// is called on (its registered submodules are where it is). Constant
  /// over the body, so not part of equality or joins.
  ModuleFact This;
  /// This is a module's forward() followed from the caller's call of the
  /// module, whose site judges the input against the module already: the
  /// calls of its registered layers would only say it again.
  bool ThisJudged = false;
  /// For a method analysed in a caller's context: the exact class of the
  /// object it is called on, when the caller's code fixes it (a local
  /// object, `rb.update(x)`), so that its virtual calls on `this` are
  /// followed to that class's overriders. Constant over the body too.
  const CXXRecordDecl *ExactThis = nullptr;

  bool operator==(const Env &O) const {
    return Reached == O.Reached && Tensors == O.Tensors &&
           Modules == O.Modules && Devices == O.Devices && DTypes == O.DTypes &&
           Options == O.Options;
  }
  /// Entries held: the cost of copying or joining this environment.
  size_t size() const {
    return Tensors.size() + Modules.size() + Devices.size() + DTypes.size() +
           Options.size();
  }
  /// Copies every entry of \p From over this one's.
  void overlay(const Env &From);
};

/// Joins \p From into \p Into (an unreached side is the identity).
void joinInto(Env &Into, const Env &From);

} // namespace clang::tidy::tensor::analysis

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_ENVIRONMENT_H
