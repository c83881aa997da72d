//===--- DeviceDtypeAnalysis.cpp - Where tensors live, what they hold -----===//
//
// The public entry of the analysis and the Session it owns. The analysis
// itself is FunctionAnalyzer (FunctionAnalyzer.h).
//
//===----------------------------------------------------------------------===//

#include "DeviceDtypeAnalysis.h"
#include "FunctionAnalyzer.h"
#include "Session.h"
#include <map>
#include <memory>
#include <mutex>

namespace clang::tidy::tensor {
namespace analysis {

Session::Session() = default;
Session::~Session() = default;

void Session::reset() {
  Functions.Facts.clear();
  Functions.Contexts = 0;
  Escapes.Changed.clear();
  Escapes.ChangesThis.clear();
  Escapes.Rebound.clear();
  Members.Devices.clear();
  Members.Modules.clear();
  Members.Unregistered.clear();
  Members.UnregisteredElements.clear();
  Members.Tensors.clear();
  Members.Registered.clear();
  Members.WithDimensions.clear();
  Modules.Classes.clear();
  Modules.Feeds.clear();
  DefaultFloatKnown = true;
  DefaultFloatDecided = false;
}

const FunctionFacts *analyzeIn(Session &S, const FunctionDecl *Fn,
                               ASTContext &Ctx, const ApiModel &Api,
                               const Env *Seed, const std::string &SeedKey) {
  FactsState &C = S.Functions;
  auto Key = std::make_tuple(Fn, Api.configurationKey(), SeedKey);
  if (auto It = C.Facts.find(Key); It != C.Facts.end())
    return It->second.get(); // null: recursion
  if (C.Depth > DeviceDtypeAnalysis::MaxCallDepth ||
      (Seed && C.Contexts >= DeviceDtypeAnalysis::MaxContexts))
    return nullptr;
  C.Contexts += Seed != nullptr;
  C.Facts[Key] = nullptr;
  ++C.Depth;
  auto Facts = std::make_unique<FunctionFacts>(
      FunctionAnalyzer(S, Fn, Ctx, Api, Seed).run());
  --C.Depth;
  std::unique_ptr<FunctionFacts> &Slot = C.Facts[Key];
  Slot = std::move(Facts);
  return Slot.get();
}

} // namespace analysis

DeviceDtypeAnalysis::DeviceDtypeAnalysis()
    : State(std::make_unique<analysis::Session>()) {}
DeviceDtypeAnalysis::~DeviceDtypeAnalysis() = default;

std::shared_ptr<DeviceDtypeAnalysis>
DeviceDtypeAnalysis::shared(const void *Owner) {
  // Not a cache: the owners are the checks, and an entry whose checks are
  // gone is dropped. The lock covers clangd's concurrent AST builds.
  static std::mutex Lock;
  static std::map<const void *, std::weak_ptr<DeviceDtypeAnalysis>> Live;
  std::lock_guard<std::mutex> Guard(Lock);
  for (auto It = Live.begin(); It != Live.end();)
    It = It->second.expired() ? Live.erase(It) : std::next(It);
  std::weak_ptr<DeviceDtypeAnalysis> &Slot = Live[Owner];
  if (std::shared_ptr<DeviceDtypeAnalysis> Existing = Slot.lock())
    return Existing;
  auto Made = std::make_shared<DeviceDtypeAnalysis>();
  Slot = Made;
  return Made;
}

const FunctionFacts &DeviceDtypeAnalysis::analyze(const FunctionDecl *Fn,
                                                  ASTContext &Ctx,
                                                  const ApiModel &Api) {
  // A top-level request never meets a recursion (nothing is in progress).
  static const FunctionFacts Nothing;
  const FunctionFacts *F =
      analysis::analyzeIn(*State, Fn, Ctx, Api, nullptr, "");
  return F ? *F : Nothing;
}

void DeviceDtypeAnalysis::reset() { State->reset(); }

void DeviceDtypeAnalysis::setDefaultFloatKnown(bool Known) {
  if (State->DefaultFloatKnown != Known)
    State->Functions.Facts.clear();
  State->DefaultFloatKnown = Known;
  State->DefaultFloatDecided = true;
}

bool DeviceDtypeAnalysis::defaultFloatDecided() const {
  return State->DefaultFloatDecided;
}

} // namespace clang::tidy::tensor
