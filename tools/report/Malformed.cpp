// The one place that words and counts complaints about malformed inputs.
#include "Readers.h"

#include "llvm/Support/raw_ostream.h"

namespace tensor_tidy::report {

static unsigned NumMalformed = 0;

void warnMalformed(llvm::StringRef File, unsigned Line, const llvm::Twine &Msg) {
  ++NumMalformed;
  llvm::errs() << File << ":" << Line << ": " << Msg << "; skipped\n";
}

unsigned malformedCount() { return NumMalformed; }

} // namespace tensor_tidy::report
