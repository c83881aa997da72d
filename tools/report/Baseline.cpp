#include "Baseline.h"
#include "Paths.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tensor_tidy::report {

namespace json = llvm::json;

static llvm::Error formatError(llvm::StringRef Path, const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Path + ": " + Msg);
}

void Baseline::add(llvm::StringRef Check, llvm::StringRef File, int64_t Line,
                   llvm::StringRef Message, llvm::StringRef Root) {
  if (Check.empty() || File.empty() || Line < 1)
    return;
  Keys.insert({Check.str(), normalisePath(pathFromUri(File), Root),
               static_cast<unsigned>(Line), Message.str()});
}

bool Baseline::contains(const Entry &E) const {
  return Keys.count({E.Check, E.File, E.Line, E.Message}) != 0;
}

llvm::Expected<Baseline> Baseline::load(llvm::StringRef Path,
                                        llvm::StringRef SourceRoot) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return formatError(Path, "cannot read baseline: " + Buf.getError().message());
  llvm::Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V)
    return formatError(Path, "baseline is not JSON: " + llvm::toString(V.takeError()));
  const json::Object *Top = V->getAsObject();
  if (!Top)
    return formatError(Path, "baseline is not a JSON object");

  Baseline B;
  if (const json::Array *Findings = Top->getArray("findings")) {
    // This tool's JSON report.
    std::string Root = SourceRoot.str();
    if (auto R = Top->getString("sourceRoot"); R && !R->empty())
      Root = R->str();
    for (const json::Value &F : *Findings) {
      const json::Object *O = F.getAsObject();
      if (!O)
        continue;
      B.add(O->getString("check").value_or(""), O->getString("file").value_or(""),
            O->getInteger("line").value_or(0), O->getString("message").value_or(""),
            Root);
    }
    return B;
  }
  const json::Array *Runs = Top->getArray("runs");
  if (!Runs)
    return formatError(Path, "baseline is neither a tensor-tidy-report JSON "
                             "report nor a SARIF log");
  for (const json::Value &RunV : *Runs) {
    const json::Object *Run = RunV.getAsObject();
    if (!Run)
      continue;
    const json::Object *Bases = Run->getObject("originalUriBaseIds");
    const json::Array *Results = Run->getArray("results");
    if (!Results)
      continue;
    for (const json::Value &ResV : *Results) {
      const json::Object *Res = ResV.getAsObject();
      if (!Res)
        continue;
      llvm::StringRef Check = Res->getString("ruleId").value_or("");
      llvm::StringRef Message;
      if (const json::Object *M = Res->getObject("message"))
        Message = M->getString("text").value_or("");
      const json::Array *Locs = Res->getArray("locations");
      if (!Locs || Locs->empty() || !(*Locs)[0].getAsObject())
        continue;
      const json::Object *Phys =
          (*Locs)[0].getAsObject()->getObject("physicalLocation");
      if (!Phys)
        continue;
      const json::Object *Art = Phys->getObject("artifactLocation");
      const json::Object *Region = Phys->getObject("region");
      if (!Art || !Region)
        continue;
      std::string Root = SourceRoot.str();
      if (auto Id = Art->getString("uriBaseId"); Id && Bases)
        if (const json::Object *Base = Bases->getObject(*Id))
          if (auto U = Base->getString("uri"))
            Root = pathFromUri(*U);
      B.add(Check, Art->getString("uri").value_or(""),
            Region->getInteger("startLine").value_or(0), Message, Root);
    }
  }
  return B;
}

} // namespace tensor_tidy::report
