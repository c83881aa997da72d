// Which reader an input needs, for inputs given without --log/--fixes/--text.
#include "Readers.h"

#include "llvm/Support/Path.h"

namespace tensor_tidy::report {

InputKind detectInputKind(llvm::StringRef Name, llvm::StringRef Text) {
  llvm::StringRef Ext = llvm::sys::path::extension(Name);
  if (Ext == ".jsonl" || Ext == ".ndjson")
    return InputKind::Log;
  if (Ext == ".yaml" || Ext == ".yml")
    return InputKind::Fixes;
  // By content: logs start with an object, fixes with a document marker or
  // the MainSourceFile key clang-tidy writes first.
  llvm::StringRef Head = Text.ltrim();
  if (Head.starts_with("{"))
    return InputKind::Log;
  if (Head.starts_with("---") || Head.starts_with("MainSourceFile:"))
    return InputKind::Fixes;
  return InputKind::Text;
}

} // namespace tensor_tidy::report
