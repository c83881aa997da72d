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
  joinMaps(Into.Devices, From.Devices, [] { return DeviceFact::unknown(); });
  joinMaps(Into.DTypes, From.DTypes, [] { return DTypeFact::unknown(); });
  joinMaps(Into.Options, From.Options, [] { return OptionsFact::unknown(); });
}

} // namespace clang::tidy::tensor::analysis
