// libFuzzer harnesses for every reader of tensor-tidy-report: built four
// times, TT_FUZZ_READER choosing the reader (log: the runtime's JSONL
// validation log; text: clang-tidy's output; fixes: -export-fixes YAML;
// baseline: an earlier JSON or SARIF report), plus the input-kind sniffing
// every unlabelled input goes through. Malformed input is reported and
// skipped by the readers; a crash or sanitizer report is a finding.
#include "Baseline.h"
#include "Readers.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "FuzzInput.h"

using namespace tensor_tidy::report;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const llvm::StringRef text(reinterpret_cast<const char*>(data), size);
  std::vector<Finding> out;
  (void)detectInputKind("input", text);
#if TT_FUZZ_READER == 0
  readValidationLog("run.jsonl", text, "/src/proj", out);
#elif TT_FUZZ_READER == 1
  readClangTidyText("tidy.txt", text, "/src/proj", out);
#elif TT_FUZZ_READER == 2
  readExportFixes("fixes.yaml", text, "/src/proj", out);
#else
  llvm::Expected<Baseline> b = Baseline::load(tt_fuzz::as_file(data, size), "/src/proj");
  if (b) {
    // Match the loaded findings against a report, the way --baseline does:
    // with and without fingerprints, under the root and outside it.
    Report r;
    r.SourceRoot = "/src/proj";
    Entry hashed;
    hashed.Check = "tensor-discarded-cast";
    hashed.File = "/src/proj/a.cpp";
    hashed.Line = 3;
    hashed.ContextHash = "0123456789abcdef";
    hashed.LineHash = "fedcba9876543210";
    Entry bare;
    bare.Check = "tensor-mixed-device";
    bare.File = "/elsewhere/b.cpp";
    r.Entries = {hashed, bare};
    b->mark(r);
    (void)b->withoutFingerprints();
  } else {
    llvm::consumeError(b.takeError());
  }
#endif
  return 0;
}
