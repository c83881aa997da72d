#include "Baseline.h"
#include "Fingerprint.h"
#include "Paths.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>

namespace tensor_tidy::report {

namespace json = llvm::json;

namespace {

llvm::Error formatError(llvm::StringRef Path, const llvm::Twine& Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Path + ": " + Msg);
}

std::string str(const json::Object* O, llvm::StringRef Key) {
  if (!O) return "";
  return O->getString(Key).value_or("").str();
}

std::string join(std::initializer_list<llvm::StringRef> Parts) {
  std::string Out;
  for (llvm::StringRef P : Parts) {
    Out += P;
    Out += '\0';
  }
  return Out;
}

/// Whether two paths, each relative to its report's source root or
/// absolute, name the same file: equal, or the longer one ends in the
/// shorter, relative one (a report written with another source root, or
/// none).
bool samePath(llvm::StringRef A, llvm::StringRef B) {
  if (A == B) return true;
  // The shorter one must be relative, and end the longer at a component
  // boundary: `src/a.cpp` and `/ci/repo/src/a.cpp`, or `a.cpp` written from
  // src/ and `src/a.cpp` written from the repository root.
  llvm::StringRef Long = A.size() > B.size() ? A : B;
  llvm::StringRef Short = A.size() > B.size() ? B : A;
  return !Short.starts_with("/") && Long.ends_with(Short) && Long[Long.size() - Short.size() - 1] == '/';
}

}  // namespace

size_t Baseline::withoutFingerprints() const {
  // Runtime records without a line never have one; they are not what a
  // regenerated baseline would change.
  return std::count_if(Items.begin(), Items.end(),
                       [](const Item& I) { return I.Line > 0 && I.ContextHash.empty() && I.LineHash.empty(); });
}

void Baseline::mark(Report& R) const {
  for (Entry& E : R.Entries) E.InBaseline = false;
  // Earlier findings are taken in source order, so when a finding was
  // duplicated the first copy is the unchanged one.
  std::vector<size_t> Order(R.Entries.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    const Entry &X = R.Entries[A], &Y = R.Entries[B];
    return std::tie(X.File, X.Line, X.Column, X.Check) < std::tie(Y.File, Y.Line, Y.Column, Y.Check);
  });
  std::vector<bool> Used(Items.size());

  // One tier: an entry matches an unused earlier finding of the same file
  // with the same key, where \p Eligible allows the pair.
  auto Tier = [&](std::function<std::string(const Item&)> ItemKey, std::function<std::string(const Entry&)> EntryKey,
                  std::function<bool(const Item&, const Entry&)> Eligible) {
    std::multimap<std::string, size_t> Free;
    for (size_t I = 0; I < Items.size(); ++I)
      if (!Used[I])
        if (std::string K = ItemKey(Items[I]); !K.empty()) Free.emplace(std::move(K), I);
    for (size_t Idx : Order) {
      Entry& E = R.Entries[Idx];
      if (E.InBaseline) continue;
      std::string K = EntryKey(E);
      if (K.empty()) continue;
      std::string Path = relativeTo(E.File, R.SourceRoot);
      auto [Lo, Hi] = Free.equal_range(K);
      for (auto It = Lo; It != Hi; ++It) {
        const Item& I = Items[It->second];
        if (!samePath(I.Path, Path) || !Eligible(I, E)) continue;
        Used[It->second] = true;
        E.InBaseline = true;
        Free.erase(It);
        break;
      }
    }
  };
  auto Hashed = [](llvm::StringRef Check, llvm::StringRef Hash) {
    return Hash.empty() ? std::string() : join({Check, Hash});
  };
  auto Always = [](const Item&, const Entry&) { return true; };
  Tier([&](const Item& I) { return Hashed(I.Check, I.ContextHash); },
       [&](const Entry& E) { return Hashed(E.Check, E.ContextHash); }, Always);
  // The line alone only where the earlier report had that line once: with
  // the same bug in several places, a copy fixed in one place and added in
  // another would otherwise stay "unchanged".
  std::map<std::string, unsigned> OldLines;
  for (const Item& I : Items) ++OldLines[Hashed(I.Check, I.LineHash)];
  Tier(
      [&](const Item& I) {
        std::string K = Hashed(I.Check, I.LineHash);
        return OldLines[K] == 1 ? K : std::string();
      },
      [&](const Entry& E) { return Hashed(E.Check, E.LineHash); }, Always);
  // File:line only where fingerprints cannot decide: a finding whose
  // fingerprints differ from every earlier one changed, even on the same line.
  auto Exact = [](llvm::StringRef Check, unsigned Line, llvm::StringRef Message) {
    return join({Check, std::to_string(Line), Message});
  };
  Tier([&](const Item& I) { return Exact(I.Check, I.Line, I.Message); },
       [&](const Entry& E) { return Exact(E.Check, E.Line, E.Message); },
       [](const Item& I, const Entry& E) { return I.LineHash.empty() || E.LineHash.empty(); });
}

llvm::Expected<Baseline> Baseline::load(llvm::StringRef Path, llvm::StringRef SourceRoot) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) return formatError(Path, "cannot read baseline: " + Buf.getError().message());
  llvm::Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V) return formatError(Path, "baseline is not JSON: " + llvm::toString(V.takeError()));
  const json::Object* Top = V->getAsObject();
  if (!Top) return formatError(Path, "baseline is not a JSON object");

  Baseline B;
  // Paths as the earlier report wrote them: relative to its root, or
  // absolute; an absolute one under a root is made relative to it.
  auto Add = [&](Item I, llvm::StringRef Root) {
    if (I.Check.empty() || I.Path.empty()) return;
    I.Path = relativeTo(relativeTo(I.Path, Root), SourceRoot);
    B.Items.push_back(std::move(I));
  };

  // Every finding of the earlier report must be usable: one dropped in
  // silence would come back as "new" and fail the gate, or, worse, a wrong
  // file would make a whole baseline match nothing.
  if (const json::Array* Findings = Top->getArray("findings")) {
    // This tool's JSON report.
    std::string Root;
    if (auto R = Top->getString("sourceRoot")) Root = R->str();
    for (size_t N = 0; N < Findings->size(); ++N) {
      const json::Object* O = (*Findings)[N].getAsObject();
      Item I;
      I.Check = str(O, "check");
      I.Path = str(O, "file");
      if (I.Check.empty() || I.Path.empty())
        return formatError(Path, "finding " + llvm::Twine(N + 1) +
                                     " has no 'check' or 'file' string; the "
                                     "baseline cannot be used");
      I.Message = str(O, "message");
      I.Line = static_cast<unsigned>(std::clamp<int64_t>(O->getInteger("line").value_or(0), 0, UINT32_MAX));
      const json::Object* FP = O->getObject("fingerprints");
      I.ContextHash = str(FP, ContextHashKey);
      I.LineHash = str(FP, LineHashKey);
      Add(std::move(I), Root);
    }
    return B;
  }
  const json::Array* Runs = Top->getArray("runs");
  if (!Runs)
    return formatError(Path,
                       "baseline is neither a tensor-tidy-report JSON "
                       "report nor a SARIF log");
  for (size_t RunN = 0; RunN < Runs->size(); ++RunN) {
    const json::Object* Run = (*Runs)[RunN].getAsObject();
    const json::Object* Tool = Run ? Run->getObject("tool") : nullptr;
    std::string Driver = str(Tool ? Tool->getObject("driver") : nullptr, "name");
    // Another tool's results (clang's -fdiagnostics-format=sarif, a code
    // scanner's) name other rules and files: nothing would match, and every
    // finding would count as new.
    if (Driver != SarifDriverName)
      return formatError(Path, "run " + llvm::Twine(RunN + 1) + " of the SARIF log is " +
                                   (Driver.empty() ? std::string("from no named tool") : "from '" + Driver + "'") +
                                   ", not tensor-tidy-report's (tool.driver.name '" + SarifDriverName +
                                   "'); give a baseline written by tensor-tidy-report "
                                   "--format=sarif or --format=json");
    const json::Object* Bases = Run->getObject("originalUriBaseIds");
    const json::Array* Results = Run->getArray("results");
    if (!Results) continue;
    for (size_t ResN = 0; ResN < Results->size(); ++ResN) {
      auto Bad = [&](const llvm::Twine& What) {
        return formatError(Path, "result " + llvm::Twine(ResN + 1) + " of run " + llvm::Twine(RunN + 1) + " " + What +
                                     "; the baseline cannot be used");
      };
      const json::Object* Res = (*Results)[ResN].getAsObject();
      if (!Res) return Bad("is not a JSON object");
      const json::Array* Locs = Res->getArray("locations");
      const json::Object* Loc = Locs && !Locs->empty() ? (*Locs)[0].getAsObject() : nullptr;
      const json::Object* Phys = Loc ? Loc->getObject("physicalLocation") : nullptr;
      const json::Object* Art = Phys ? Phys->getObject("artifactLocation") : nullptr;
      if (!Art || str(Art, "uri").empty()) return Bad("has no 'locations[0].physicalLocation.artifactLocation.uri'");
      const json::Object* Region = Phys->getObject("region");
      // No region: a record without a source line (line 0).
      int64_t StartLine = 0;
      if (Region) {
        StartLine = Region->getInteger("startLine").value_or(0);
        if (StartLine < 1 || StartLine > UINT32_MAX) return Bad("has a region without a positive integer 'startLine'");
      }
      Item I;
      I.Check = str(Res, "ruleId");
      if (I.Check.empty()) return Bad("has no 'ruleId'");
      I.Message = str(Res->getObject("message"), "text");
      I.Path = pathFromUri(str(Art, "uri"));
      I.Line = static_cast<unsigned>(StartLine);
      const json::Object* FP = Res->getObject("partialFingerprints");
      I.ContextHash = str(FP, ContextHashKey);
      I.LineHash = str(FP, LineHashKey);
      std::string Root;
      if (auto Id = Art->getString("uriBaseId"); Id && Bases)
        if (const json::Object* Base = Bases->getObject(*Id))
          if (auto U = Base->getString("uri")) Root = pathFromUri(*U);
      Add(std::move(I), Root);
    }
  }
  return B;
}

}  // namespace tensor_tidy::report
