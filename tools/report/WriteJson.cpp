// The JSON report: stable field names, read back by --baseline and by
// scripts (tools/demo, CI).
#include "Fingerprint.h"
#include "Writers.h"

#include "llvm/Support/JSON.h"

namespace tensor_tidy::report {

void writeJson(llvm::raw_ostream& OS, const Report& R) {
  Summary S = summarise(R);
  llvm::json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("tool", "tensor-tidy-report");
    J.attribute("version", 1);
    if (R.SourceRoot.empty())
      J.attribute("sourceRoot", nullptr);
    else
      J.attribute("sourceRoot", jsonString(R.SourceRoot));
    J.attributeObject("summary", [&] {
      J.attribute("confirmed", S.Confirmed);
      J.attribute("static-only", S.StaticOnly);
      J.attribute("dynamic-only", S.DynamicOnly);
      J.attribute("new", S.New);
      J.attribute("unchanged", S.Unchanged);
    });
    J.attributeArray("findings", [&] {
      for (const Entry& E : R.Entries) {
        J.object([&] {
          J.attribute("group", groupName(E.Kind));
          J.attribute("check", jsonString(E.Check));
          J.attribute("file", jsonString(displayPath(R, E.File)));
          J.attribute("line", E.Line);
          J.attribute("column", E.Column);
          J.attribute("message", jsonString(E.Message));
          J.attribute("static", E.isStatic());
          J.attribute("dynamic", E.isDynamic());
          J.attribute("staticCount", E.StaticCount);
          J.attribute("dynamicCount", E.DynamicCount);
          if (E.isDynamic()) {
            J.attribute("runtimeMessage", jsonString(E.RuntimeMessage));
            J.attribute("op", jsonString(E.Op));
          }
          if (!E.ContextHash.empty())
            J.attributeObject("fingerprints", [&] {
              J.attribute(ContextHashKey, E.ContextHash);
              J.attribute(LineHashKey, E.LineHash);
            });
          if (R.HasBaseline) J.attribute("baseline", E.InBaseline ? "unchanged" : "new");
        });
      }
    });
  });
  OS << "\n";
}

}  // namespace tensor_tidy::report
