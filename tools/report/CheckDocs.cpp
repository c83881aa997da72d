#include "CheckDocs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace tensor_tidy::report {

CheckDoc loadCheckDoc(llvm::StringRef DocsDir, llvm::StringRef Check) {
  CheckDoc Doc;
  Doc.Summary = Check.str();
  if (DocsDir.empty()) return Doc;
  llvm::SmallString<256> Path(DocsDir);
  llvm::sys::path::append(Path, Check + ".md");
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) return Doc;
  Doc.Markdown = (*Buf)->getBuffer().str();

  // The first paragraph that is prose: headings, blank lines and fences end
  // or precede it.
  std::string Para;
  llvm::StringRef Rest = Doc.Markdown;
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    Line = Line.trim();
    if (Line.empty() || Line.starts_with("#") || Line.starts_with("```")) {
      if (!Para.empty()) break;
      continue;
    }
    if (!Para.empty()) Para += ' ';
    Para += Line.str();
  }
  if (!Para.empty()) Doc.Summary = Para;
  return Doc;
}

}  // namespace tensor_tidy::report
