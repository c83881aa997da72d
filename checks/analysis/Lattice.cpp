//===--- Lattice.cpp - Abstract devices, dtypes and tensors ---------------===//

#include "Lattice.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::tensor {

llvm::StringRef dtypeName(DType T) {
  switch (T) {
  case DType::Bool: return "bool";
  case DType::UInt8: return "uint8";
  case DType::Int8: return "int8";
  case DType::Int16: return "int16";
  case DType::Int32: return "int32";
  case DType::Int64: return "int64";
  case DType::Float16: return "float16";
  case DType::BFloat16: return "bfloat16";
  case DType::Float32: return "float32";
  case DType::Float64: return "float64";
  }
  return "unknown";
}

bool isFloating(DType T) {
  return T == DType::Float16 || T == DType::BFloat16 || T == DType::Float32 ||
         T == DType::Float64;
}

bool isIntegral(DType T) { return T != DType::Bool && !isFloating(T); }

DeviceFact deviceFromKind(std::optional<ApiModel::DeviceKind> K) {
  if (!K)
    return DeviceFact::unknown();
  return *K == ApiModel::DeviceKind::Cpu ? DeviceFact::cpu() : DeviceFact::cuda();
}

namespace {
int floatRank(DType T) {
  switch (T) {
  case DType::Float16:
  case DType::BFloat16: return 1;
  case DType::Float32: return 2;
  default: return 3;
  }
}
int intBits(DType T) {
  switch (T) {
  case DType::UInt8:
  case DType::Int8: return 8;
  case DType::Int16: return 16;
  case DType::Int32: return 32;
  default: return 64;
  }
}
} // namespace

// c10::promoteTypes restricted to these dtypes: bool < integral < floating;
// within floating the wider wins and float16 with bfloat16 is float32;
// within integral the wider wins and uint8 with int8 is int16.
DType promoteTypes(DType A, DType B) {
  if (A == B)
    return A;
  if (A == DType::Bool)
    return B;
  if (B == DType::Bool)
    return A;
  if (isFloating(A) != isFloating(B))
    return isFloating(A) ? A : B;
  if (isFloating(A)) {
    if (floatRank(A) == 1 && floatRank(B) == 1)
      return DType::Float32;
    return floatRank(A) >= floatRank(B) ? A : B;
  }
  if ((A == DType::UInt8 && B == DType::Int8) ||
      (A == DType::Int8 && B == DType::UInt8))
    return DType::Int16;
  return intBits(A) >= intBits(B) ? A : B;
}

std::string DeviceFact::describe() const {
  switch (Kind) {
  case FactKind::Unreached: return "unreached";
  case FactKind::Unknown: return "unknown";
  case FactKind::Symbolic: return "'" + Symbol->getNameAsString() + "'";
  case FactKind::Known:
    if (!IsCuda)
      return "cpu";
    return Index >= 0 ? "cuda:" + std::to_string(Index) : "cuda";
  }
  return "unknown";
}

std::string DTypeFact::describe() const {
  switch (Kind) {
  case FactKind::Known: return dtypeName(Type).str();
  case FactKind::Symbolic: return "'" + Symbol->getNameAsString() + "'";
  default: return "unknown";
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
