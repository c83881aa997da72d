//===--- DeviceDtypeAnalysis.cpp - Where tensors live, what they hold -----===//
//
// The public entry of the analysis and its per-TU, per-thread cache. The
// analysis itself is FunctionAnalyzer (FunctionAnalyzer.h).
//
//===----------------------------------------------------------------------===//

#include "DeviceDtypeAnalysis.h"
#include "FunctionAnalyzer.h"
#include "Members.h"
#include "Modules.h"
#include <map>
#include <memory>

namespace clang::tidy::tensor {
namespace analysis {
namespace {

struct Cache {
  // (function, API configuration, context) -> facts; null while analysed.
  std::map<std::tuple<const FunctionDecl *, std::string, std::string>,
           std::unique_ptr<FunctionFacts>>
      Facts;
  unsigned Depth = 0;    // analyses in progress, nested
  unsigned Contexts = 0; // analyses with a context so far
  bool DefaultFloatKnown = true;
  bool DefaultFloatDecided = false;
};

Cache &cache() {
  thread_local Cache C;
  return C;
}

} // namespace

bool defaultFloatKnown() { return cache().DefaultFloatKnown; }

const FunctionFacts *analyzeIn(const FunctionDecl *Fn, ASTContext &Ctx,
                               const ApiModel &Api, const Env *Seed,
                               const std::string &SeedKey) {
  Cache &C = cache();
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
      FunctionAnalyzer(Fn, Ctx, Api, Seed).run());
  --C.Depth;
  std::unique_ptr<FunctionFacts> &Slot = C.Facts[Key];
  Slot = std::move(Facts);
  return Slot.get();
}

} // namespace analysis

const FunctionFacts &DeviceDtypeAnalysis::analyze(const FunctionDecl *Fn,
                                                  ASTContext &Ctx,
                                                  const ApiModel &Api) {
  // A top-level request never meets a recursion (nothing is in progress).
  static const FunctionFacts Nothing;
  const FunctionFacts *F = analysis::analyzeIn(Fn, Ctx, Api, nullptr, "");
  return F ? *F : Nothing;
}

void DeviceDtypeAnalysis::reset() {
  analysis::Cache &C = analysis::cache();
  C.Facts.clear();
  C.Contexts = 0;
  C.DefaultFloatKnown = true;
  C.DefaultFloatDecided = false;
  analysis::resetEscapes();
  analysis::resetMembers();
  analysis::resetModules();
}

void DeviceDtypeAnalysis::setDefaultFloatKnown(bool Known) {
  analysis::Cache &C = analysis::cache();
  if (C.DefaultFloatKnown != Known)
    C.Facts.clear();
  C.DefaultFloatKnown = Known;
  C.DefaultFloatDecided = true;
}

bool DeviceDtypeAnalysis::defaultFloatDecided() {
  return analysis::cache().DefaultFloatDecided;
}

} // namespace clang::tidy::tensor
