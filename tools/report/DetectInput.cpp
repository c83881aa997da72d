// Which reader an input needs, for inputs given without --log/--fixes/--text,
// and what an input no reader could use looks like.
#include "Readers.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <optional>

namespace tensor_tidy::report {

InputKind detectInputKind(llvm::StringRef Name, llvm::StringRef Text) {
  llvm::StringRef Ext = llvm::sys::path::extension(Name);
  if (Ext == ".jsonl" || Ext == ".ndjson") return InputKind::Log;
  if (Ext == ".yaml" || Ext == ".yml") return InputKind::Fixes;
  // By content: logs start with an object, fixes with a document marker or
  // the MainSourceFile key clang-tidy writes first.
  llvm::StringRef Head = Text.ltrim();
  if (Head.starts_with("{")) return InputKind::Log;
  if (Head.starts_with("---") || Head.starts_with("MainSourceFile:")) return InputKind::Fixes;
  return InputKind::Text;
}

namespace {

/// The object \p Text holds when it is one JSON document, else null.
std::optional<llvm::json::Value> wholeJson(llvm::StringRef Text) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  return std::move(*V);
}

/// The top-level keys of \p Text when it is one YAML mapping (a config
/// file, a CI workflow), else empty.
std::string yamlMappingKeys(llvm::StringRef Text) {
  llvm::SourceMgr SM;
  SM.setDiagHandler([](const llvm::SMDiagnostic&, void*) {}, nullptr);
  llvm::yaml::Stream S(Text, SM);
  auto Doc = S.begin();
  if (Doc == S.end()) return "";
  auto* Map = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(Doc->getRoot());
  if (!Map || S.failed()) return "";
  std::string Keys;
  unsigned N = 0;
  for (llvm::yaml::KeyValueNode& KV : *Map) {
    if (S.failed()) return "";
    auto* K = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(KV.getKey());
    if (!K) continue;
    llvm::SmallString<32> Storage;
    if (N++ < 4)
      Keys += (Keys.empty() ? "'" : ", '") + K->getValue(Storage).str() + "'";
    else if (N == 5)
      Keys += ", ...";
    KV.skip();
  }
  return S.failed() ? "" : Keys;
}

}  // namespace

bool isJsonDocument(llvm::StringRef Text) {
  std::optional<llvm::json::Value> V = wholeJson(Text);
  if (!V) return false;
  // One record on one line is a log of one violation.
  const llvm::json::Object* O = V->getAsObject();
  return !(O && O->getString("check") && !Text.trim().contains('\n'));
}

std::string describeInput(llvm::StringRef Text) {
  if (std::optional<llvm::json::Value> V = wholeJson(Text)) {
    const llvm::json::Object* O = V->getAsObject();
    if (O && O->getArray("runs")) return "a SARIF log (an earlier report: pass it with --baseline)";
    if (O && O->getArray("findings") && O->getObject("summary"))
      return "a tensor-tidy-report JSON report (an earlier report: pass it "
             "with --baseline)";
    return "one JSON document, not a validation log (one record per line: "
           "{\"check\": ..., \"file\": ..., \"line\": ...})";
  }
  if (Text.ltrim().starts_with("{"))
    return "JSON lines, none of them a validation record (an object with "
           "'check', 'file' and 'line')";
  if (std::string Keys = yamlMappingKeys(Text); !Keys.empty())
    return "YAML with the keys " + Keys +
           ", not clang-tidy -export-fixes output (MainSourceFile, "
           "Diagnostics)";
  // Text: its first line, so the user sees which file it was.
  llvm::StringRef First = Text.ltrim().split('\n').first.rtrim();
  std::string Shown;
  for (char C : First.take_front(60)) Shown += (C >= 0x20 && C < 0x7f) ? C : '?';
  if (First.size() > 60) Shown += "...";
  return "text without a clang-tidy diagnostic (file:line:col: warning: "
         "message [check]), starting \"" +
         Shown + "\"";
}

}  // namespace tensor_tidy::report
