//===--- Lattice.cpp - Abstract devices, dtypes and tensors ---------------===//

#include "Lattice.h"
#include "tt/promotion_table.h"
#include "llvm/ADT/StringSwitch.h"
#include <iterator>

namespace clang::tidy::tensor {

llvm::StringRef dtypeName(DType T) {
  switch (T) {
  case DType::Bool:
    return "bool";
  case DType::UInt8:
    return "uint8";
  case DType::Int8:
    return "int8";
  case DType::Int16:
    return "int16";
  case DType::Int32:
    return "int32";
  case DType::Int64:
    return "int64";
  case DType::Float16:
    return "float16";
  case DType::BFloat16:
    return "bfloat16";
  case DType::Float32:
    return "float32";
  case DType::Float64:
    return "float64";
  }
  return "unknown";
}

bool isFloating(DType T) {
  return T == DType::Float16 || T == DType::BFloat16 || T == DType::Float32 ||
         T == DType::Float64;
}

bool isIntegral(DType T) { return T != DType::Bool && !isFloating(T); }

bool canCast(DType From, DType To) {
  if (isFloating(From) && isIntegral(To))
    return false;
  return From == DType::Bool || To != DType::Bool;
}

DeviceFact deviceFromKind(std::optional<ApiModel::DeviceKind> K) {
  if (!K)
    return DeviceFact::unknown();
  return *K == ApiModel::DeviceKind::Cpu ? DeviceFact::cpu()
                                         : DeviceFact::cuda();
}

DeviceFact deviceFromName(std::optional<ApiModel::DeviceName> N) {
  if (!N)
    return DeviceFact::unknown();
  return N->Cuda ? DeviceFact::cuda(N->Index) : DeviceFact::cpu();
}

// c10::promoteTypes over these dtypes: the table the runtime uses too.
DType promoteTypes(DType A, DType B) {
  using namespace tt::promotion;
  static constexpr Index ToTable[] = {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8};
  static constexpr DType FromTable[] = {
      DType::UInt8,   DType::Int8,    DType::Int16,    DType::Int32,
      DType::Int64,   DType::Float16, DType::BFloat16, DType::Float32,
      DType::Float64, DType::Bool};
  static_assert(std::size(ToTable) == kCount && std::size(FromTable) == kCount);
  return FromTable[promote(ToTable[static_cast<int>(A)],
                           ToTable[static_cast<int>(B)])];
}

std::string DeviceFact::describe() const {
  switch (Kind) {
  case FactKind::Unreached:
    return "unreached";
  case FactKind::Unknown:
    return "unknown";
  case FactKind::Symbolic:
    return "'" + (Shown ? Shown : Symbol)->getNameAsString() + "'";
  case FactKind::Known:
    if (!IsCuda)
      return "cpu";
    return Index >= 0 ? "cuda:" + std::to_string(Index) : "cuda";
  }
  return "unknown";
}

std::string DTypeFact::describe() const {
  switch (Kind) {
  case FactKind::Known:
    return dtypeName(Type).str();
  case FactKind::Symbolic:
    return "'" + Symbol->getNameAsString() + "'";
  default:
    return "unknown";
  }
}

DeviceFact join(const DeviceFact &A, const DeviceFact &B) {
  if (A.Kind == FactKind::Unreached)
    return B;
  if (B.Kind == FactKind::Unreached || A == B)
    return A;
  // Two different cuda devices: still some cuda device.
  if (A.isKnown() && B.isKnown() && A.IsCuda && B.IsCuda)
    return DeviceFact::cuda(-1);
  return DeviceFact::unknown();
}

bool provablyDifferent(const DeviceFact &A, const DeviceFact &B) {
  if (A.isKnown() && B.isKnown()) {
    if (A.IsCuda != B.IsCuda)
      return true;
    return A.IsCuda && A.Index >= 0 && B.Index >= 0 && A.Index != B.Index;
  }
  auto SymbolVsCpu = [](const DeviceFact &S, const DeviceFact &C) {
    return S.Kind == FactKind::Symbolic && S.SymbolMayBeCuda && C.isCpu();
  };
  return SymbolVsCpu(A, B) || SymbolVsCpu(B, A);
}

DTypeFact join(const DTypeFact &A, const DTypeFact &B) {
  if (A.Kind == FactKind::Unreached)
    return B;
  if (B.Kind == FactKind::Unreached || A == B)
    return A;
  return DTypeFact::unknown();
}

TensorFact join(const TensorFact &A, const TensorFact &B) {
  if (!A.reached())
    return B;
  if (!B.reached())
    return A;
  TensorFact R;
  R.Device = join(A.Device, B.Device);
  R.Type = join(A.Type, B.Type);
  R.Dim = A.Dim == B.Dim ? A.Dim : -1;
  R.DeviceOrigin = A.DeviceOrigin.valid() ? A.DeviceOrigin : B.DeviceOrigin;
  R.TypeOrigin = A.TypeOrigin.valid() ? A.TypeOrigin : B.TypeOrigin;
  return R;
}

std::optional<ElementFacts> joinElements(const std::optional<ElementFacts> &A,
                                         const std::optional<ElementFacts> &B) {
  if (!A || !B || A->size() != B->size())
    return std::nullopt;
  ElementFacts Out;
  for (unsigned I = 0; I < A->size(); ++I)
    Out.push_back(join((*A)[I], (*B)[I]));
  return Out;
}

ModuleFact join(const ModuleFact &A, const ModuleFact &B) {
  if (A.Device.Kind == FactKind::Unreached)
    return B;
  if (B.Device.Kind == FactKind::Unreached)
    return A;
  ModuleFact R;
  R.Device = join(A.Device, B.Device);
  R.Type = join(A.Type, B.Type);
  R.DeviceOrigin = A.DeviceOrigin.valid() ? A.DeviceOrigin : B.DeviceOrigin;
  R.TypeOrigin = A.TypeOrigin.valid() ? A.TypeOrigin : B.TypeOrigin;
  R.MoveDeviceArg =
      A.MoveDeviceArg == B.MoveDeviceArg ? A.MoveDeviceArg : nullptr;
  R.FirstLayer = A.FirstLayer == B.FirstLayer ? A.FirstLayer : nullptr;
  return R;
}

} // namespace clang::tidy::tensor
