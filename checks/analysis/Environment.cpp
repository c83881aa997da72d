//===--- Environment.cpp - The analysis state at one program point --------===//

#include "Environment.h"

namespace clang::tidy::tensor::analysis {
namespace {

// A key missing on one side has that side's default, which the caller
// cannot know here: treat it as unknown, the safe answer.
template <typename Map, typename Unknown>
void joinMaps(Map &Into, const Map &From, Unknown MakeUnknown) {
  for (auto &[K, V] : Into) {
    auto It = From.find(K);
    V = It == From.end() ? MakeUnknown() : join(V, It->second);
  }
  for (auto &[K, V] : From)
    if (!Into.count(K))
      Into[K] = MakeUnknown();
}

template <typename Map> void overlayMap(Map &Into, const Map &From) {
  for (const auto &[K, V] : From)
    Into[K] = V;
}

} // namespace

OptionsFact join(const OptionsFact &A, const OptionsFact &B) {
  OptionsFact R;
  if (A.Device || B.Device)
    R.Device = join(A.Device.value_or(DeviceFact::unknown()),
                    B.Device.value_or(DeviceFact::unknown()));
  if (A.Type || B.Type)
    R.Type = join(A.Type.value_or(DTypeFact::unknown()),
                  B.Type.value_or(DTypeFact::unknown()));
  R.At = A.At;
  return R;
}

void Env::overlay(const Env &From) {
  overlayMap(Tensors, From.Tensors);
  overlayMap(Modules, From.Modules);
  overlayMap(Devices, From.Devices);
  overlayMap(DTypes, From.DTypes);
  overlayMap(Options, From.Options);
}

void joinInto(Env &Into, const Env &From) {
  if (!From.Reached)
    return;
  if (!Into.Reached) {
    Into = From;
    return;
  }
  joinMaps(Into.Tensors, From.Tensors, [] { return TensorFact::unknown(); });
  joinMaps(Into.Modules, From.Modules, [] { return ModuleFact::unknown(); });
  // A Device variable that paths set differently (`Device d(kCPU); if
  // (cuda::is_available()) d = kCUDA;`) holds one of those values: its
  // own symbolic value from here on, which may be cuda if either path's is.
  for (auto &[Var, D] : Into.Devices) {
    auto It = From.Devices.find(Var);
    if (It == From.Devices.end()) {
      D = DeviceFact::unknown();
      continue;
    }
    const DeviceFact &O = It->second;
    DeviceFact J = join(D, O);
    if (J.Kind == FactKind::Unknown && D.Kind != FactKind::Unknown &&
        O.Kind != FactKind::Unknown) {
      auto MayBeCuda = [&](const DeviceFact &F) {
        return F.isKnown() ? F.IsCuda
                           : F.Kind == FactKind::Symbolic && F.SymbolMayBeCuda;
      };
      // Only the variable's own value, or known devices, name it.
      auto Names = [&](const DeviceFact &F) {
        return F.isKnown() || (F.Kind == FactKind::Symbolic && F.Symbol == Var);
      };
      if (Names(D) && Names(O))
        J = DeviceFact::symbol(Var, MayBeCuda(D) || MayBeCuda(O));
    }
    D = J;
  }
  for (auto &[Var, D] : From.Devices)
    if (!Into.Devices.count(Var))
      Into.Devices[Var] = DeviceFact::unknown();
  joinMaps(Into.DTypes, From.DTypes, [] { return DTypeFact::unknown(); });
  joinMaps(Into.Options, From.Options, [] { return OptionsFact::unknown(); });
}

} // namespace clang::tidy::tensor::analysis
