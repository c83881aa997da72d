//===--- Lattice.h - Abstract devices, dtypes and tensors -----------------===//
//
// The values the device/dtype analysis computes, after c10's Device and
// ScalarType: a fact is either unreached (bottom), known, symbolic (equal to
// a named Device or ScalarType variable whose value the analysis does not
// know), or unknown (top). Joins are exact: two paths that disagree give
// unknown, because a finding must hold on every path.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_LATTICE_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_LATTICE_H

#include "ApiModel.h"
#include "ScalarTypes.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang::tidy::tensor {

/// The dtype's name as PyTorch prints it: "float16", "int64", ...
llvm::StringRef dtypeName(DType T);
bool isFloating(DType T);
bool isIntegral(DType T); // Bool excluded
/// PyTorch's promote_types for two dtypes (c10/core/ScalarType.h).
DType promoteTypes(DType A, DType B);
/// PyTorch's canCast (c10/core/ScalarType.h): whether an op may write a
/// result of dtype \p From into a tensor of dtype \p To, as in-place and
/// out= ops do. Not a floating result into an integer tensor, nor a
/// non-bool one into a bool tensor.
bool canCast(DType From, DType To);

enum class FactKind : uint8_t { Unreached, Known, Symbolic, Unknown };

/// Where a fact comes from, for the notes of a diagnostic.
struct Origin {
  SourceLocation Loc;
  enum Why : uint8_t {
    None,
    Created,
    Moved,
    Converted,
    Batch,
    ModuleMoved,
    ModuleCreated,
    ModuleLoaded,
    ModuleUnregistered, // built, never registered: its module's moves skip it
    ModuleKept, // a member of a class that is no module, which never moves it
    Result
  } How = None;
  bool valid() const { return Loc.isValid() && How != None; }
};

/// A device: cpu, cuda (index -1 when it is the current or some cuda
/// device), symbolic (a Device variable) or unknown.
struct DeviceFact {
  FactKind Kind = FactKind::Unreached;
  bool IsCuda = false;
  int Index = -1;
  const ValueDecl *Symbol = nullptr;
  // For a symbol: may the variable hold a cuda device? A Device variable of
  // unknown value may; one initialised only from cpu constants may not.
  bool SymbolMayBeCuda = true;
  /// For a symbol: the variable to name in messages, when the user wrote
  /// another than Symbol (`torch::Device device(device_type);` then
  /// `model.to(device)` is on Symbol `device_type`, shown as 'device').
  /// Not part of the fact: equality and joins ignore it.
  const ValueDecl *Shown = nullptr;

  static DeviceFact unknown() { return {FactKind::Unknown}; }
  static DeviceFact cpu() { return {FactKind::Known, false, -1}; }
  static DeviceFact cuda(int Index = -1) {
    return {FactKind::Known, true, Index};
  }
  static DeviceFact symbol(const ValueDecl *D, bool MayBeCuda) {
    return {FactKind::Symbolic, false, -1, D, MayBeCuda};
  }
  bool isKnown() const { return Kind == FactKind::Known; }
  bool isCpu() const { return isKnown() && !IsCuda; }
  bool operator==(const DeviceFact &O) const {
    return Kind == O.Kind && IsCuda == O.IsCuda && Index == O.Index &&
           Symbol == O.Symbol;
  }
  bool operator!=(const DeviceFact &O) const { return !(*this == O); }
  /// "cpu", "cuda", "cuda:1", "'device'", "unknown".
  std::string describe() const;
};

/// The fact an enumerator of c10::DeviceType gives (ApiModel::deviceKindOf):
/// cpu, cuda, or unknown for the others.
DeviceFact deviceFromKind(std::optional<ApiModel::DeviceKind> K);
/// The fact a device string gives (ApiModel::parseDeviceString): "cpu",
/// "cuda", "cuda:1"; unknown for the others and for a malformed one.
DeviceFact deviceFromName(std::optional<ApiModel::DeviceName> N);

DeviceFact join(const DeviceFact &A, const DeviceFact &B);

/// Do two devices differ on some run of the program that reaches here, in
/// the way that makes ATen throw? cpu vs cuda, cuda:0 vs cuda:1, and a
/// symbolic device that may be cuda vs cpu: the seeds' bug, which fails on
/// every GPU machine.
bool provablyDifferent(const DeviceFact &A, const DeviceFact &B);

/// A dtype: known, symbolic (a ScalarType variable) or unknown.
struct DTypeFact {
  FactKind Kind = FactKind::Unreached;
  DType Type = DType::Float32;
  const ValueDecl *Symbol = nullptr;

  static DTypeFact unknown() { return {FactKind::Unknown}; }
  static DTypeFact known(DType T) { return {FactKind::Known, T}; }
  static DTypeFact symbol(const ValueDecl *D) {
    return {FactKind::Symbolic, DType::Float32, D};
  }
  bool isKnown() const { return Kind == FactKind::Known; }
  bool operator==(const DTypeFact &O) const {
    return Kind == O.Kind && (Kind != FactKind::Known || Type == O.Type) &&
           Symbol == O.Symbol;
  }
  bool operator!=(const DTypeFact &O) const { return !(*this == O); }
  std::string describe() const;
};

DTypeFact join(const DTypeFact &A, const DTypeFact &B);

/// What the analysis knows of a tensor value. Dim is the number of
/// dimensions when known (0 for a 0-dim tensor), -1 otherwise: ATen lets a
/// 0-dim cpu tensor mix with tensors on any device.
struct TensorFact {
  DeviceFact Device;
  DTypeFact Type;
  int Dim = -1;
  Origin DeviceOrigin, TypeOrigin;

  static TensorFact unknown() {
    return {DeviceFact::unknown(), DTypeFact::unknown(), -1, {}, {}};
  }
  bool reached() const { return Device.Kind != FactKind::Unreached; }
  /// Could this be a 0-dim cpu tensor? ATen's TensorIterator lets such an
  /// operand (a cpu scalar) mix with tensors on any device and moves it to
  /// theirs, so it never conflicts with another device.
  bool mayBeCpuScalar() const {
    return Device.isCpu() && (Dim == -1 || Dim == 0);
  }
  // Origins are explanations, not facts: they do not take part in equality.
  bool operator==(const TensorFact &O) const {
    return Device == O.Device && Type == O.Type && Dim == O.Dim;
  }
  bool operator!=(const TensorFact &O) const { return !(*this == O); }
};

TensorFact join(const TensorFact &A, const TensorFact &B);

/// The facts of a tuple's elements or a struct's tensor fields, in order.
using ElementFacts = llvm::SmallVector<TensorFact, 4>;

/// Element-wise join of two such lists (the branches of `c ? a : b`, two
/// returns): nullopt when either is not known or their sizes differ.
std::optional<ElementFacts> joinElements(const std::optional<ElementFacts> &A,
                                         const std::optional<ElementFacts> &B);

/// What the analysis knows of a module: where its parameters are, and the
/// floating dtype they were cast to.
struct ModuleFact {
  DeviceFact Device;
  DTypeFact Type;
  Origin DeviceOrigin, TypeOrigin;
  const Expr *MoveDeviceArg = nullptr; // the `device` of its last to(device)
  /// For a container made here from built-in layers (a Sequential): the
  /// class of its first layer, which gets its input.
  const CXXRecordDecl *FirstLayer = nullptr;

  static ModuleFact unknown() {
    return {
        DeviceFact::unknown(), DTypeFact::unknown(), {}, {}, nullptr, nullptr};
  }
  bool operator==(const ModuleFact &O) const {
    return Device == O.Device && Type == O.Type && FirstLayer == O.FirstLayer;
  }
  bool operator!=(const ModuleFact &O) const { return !(*this == O); }
};

ModuleFact join(const ModuleFact &A, const ModuleFact &B);

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_LATTICE_H
