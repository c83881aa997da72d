// SARIF 2.1.0 (OASIS): one run of the "tensor-tidy" tool whose rules are the
// checks that have results, with descriptions from docs/checks. Paths under
// the source root (--source-root, default the working directory) are written
// relative to the SRCROOT base id, which code scanning services map to the
// repository root. Fingerprints (Fingerprint.h) are partialFingerprints.
#include "CheckDocs.h"
#include "Fingerprint.h"
#include "Paths.h"
#include "Writers.h"

#include <map>

namespace tensor_tidy::report {

namespace {

const char SrcRootId[] = "SRCROOT";

std::string fileUri(llvm::StringRef AbsPath) { return "file://" + uriEscape(AbsPath); }

}  // namespace

void writeSarif(llvm::raw_ostream& OS, const Report& R, llvm::StringRef DocsDir, llvm::StringRef Version) {
  // Rules in name order; results refer to them by index too.
  std::map<std::string, unsigned> RuleIndex;
  for (const Entry& E : R.Entries) RuleIndex.try_emplace(E.Check, 0);
  unsigned I = 0;
  for (auto& [Name, Index] : RuleIndex) Index = I++;

  llvm::json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    J.attribute("version", "2.1.0");
    J.attributeArray("runs", [&] {
      J.object([&] {
        J.attributeObject("tool", [&] {
          J.attributeObject("driver", [&] {
            J.attribute("name", SarifDriverName);
            J.attribute("version", Version);
            J.attributeArray("rules", [&] {
              for (auto& [Name, Index] : RuleIndex) {
                CheckDoc Doc = loadCheckDoc(DocsDir, Name);
                J.object([&] {
                  J.attribute("id", jsonString(Name));
                  J.attributeObject("shortDescription", [&] { J.attribute("text", jsonString(Doc.Summary)); });
                  J.attributeObject("help", [&] {
                    J.attribute("text", jsonString(Doc.Summary));
                    if (!Doc.Markdown.empty()) J.attribute("markdown", jsonString(Doc.Markdown));
                  });
                  J.attributeObject("defaultConfiguration", [&] { J.attribute("level", "warning"); });
                });
              }
            });
          });
        });
        if (!R.SourceRoot.empty()) {
          J.attributeObject("originalUriBaseIds", [&] {
            J.attributeObject(SrcRootId, [&] {
              // A base URI must end in a slash to resolve relative URIs.
              J.attribute("uri", jsonString(fileUri(R.SourceRoot + "/")));
            });
          });
        }
        J.attributeArray("results", [&] {
          for (const Entry& E : R.Entries) {
            J.object([&] {
              J.attribute("ruleId", jsonString(E.Check));
              J.attribute("ruleIndex", RuleIndex[E.Check]);
              J.attribute("level", "warning");
              J.attributeObject("message", [&] { J.attribute("text", jsonString(E.Message)); });
              J.attributeArray("locations", [&] {
                J.object([&] {
                  J.attributeObject("physicalLocation", [&] {
                    J.attributeObject("artifactLocation", [&] {
                      std::string Rel = relativeTo(E.File, R.SourceRoot);
                      if (!R.SourceRoot.empty() && Rel != E.File) {
                        J.attribute("uri", jsonString(uriEscape(Rel)));
                        J.attribute("uriBaseId", SrcRootId);
                      } else {
                        J.attribute("uri", jsonString(fileUri(E.File)));
                      }
                    });
                    // SARIF regions start at line 1; a record without a
                    // source line has none.
                    if (E.Line > 0)
                      J.attributeObject("region", [&] {
                        J.attribute("startLine", E.Line);
                        if (E.Column) J.attribute("startColumn", E.Column);
                      });
                  });
                });
              });
              if (!E.ContextHash.empty())
                J.attributeObject("partialFingerprints", [&] {
                  J.attribute(ContextHashKey, E.ContextHash);
                  J.attribute(LineHashKey, E.LineHash);
                });
              if (R.HasBaseline) J.attribute("baselineState", E.InBaseline ? "unchanged" : "new");
              J.attributeObject("properties", [&] {
                J.attribute("group", groupName(E.Kind));
                J.attribute("confirmed", E.Kind == Group::Confirmed);
                J.attribute("dynamic", E.isDynamic());
                // Occurrences folded into this result: runtime records when
                // it was seen at run time, else reports from several TUs.
                J.attribute("count", E.isDynamic() ? E.DynamicCount : E.StaticCount);
                J.attribute("staticCount", E.StaticCount);
                J.attribute("dynamicCount", E.DynamicCount);
                if (E.isDynamic() && E.RuntimeMessage != E.Message)
                  J.attribute("runtimeMessage", jsonString(E.RuntimeMessage));
              });
            });
          }
        });
      });
    });
  });
  OS << "\n";
}

}  // namespace tensor_tidy::report
