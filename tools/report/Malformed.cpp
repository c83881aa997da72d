// The one place that words and counts complaints about malformed inputs.
// A garbage input would otherwise print a line for each of its thousands of
// lines: past MaxMalformedShown per input they are counted, and summed up in
// one line when the input ends.
#include "Readers.h"

#include "llvm/Support/raw_ostream.h"

namespace tensor_tidy::report {

static unsigned NumMalformed = 0;
static std::string CurrentFile;
static unsigned ShownInFile = 0, HiddenInFile = 0;

void warnMalformed(llvm::StringRef File, unsigned Line, const llvm::Twine& Msg) {
  ++NumMalformed;
  if (File != CurrentFile) {
    finishMalformed();
    CurrentFile = File.str();
  }
  if (ShownInFile == MaxMalformedShown) {
    ++HiddenInFile;
    return;
  }
  ++ShownInFile;
  llvm::errs() << File << ":" << Line << ": " << Msg << "; skipped\n";
}

void finishMalformed() {
  if (HiddenInFile)
    llvm::errs() << CurrentFile << ": " << HiddenInFile << " more malformed part(s) skipped, not shown (the first "
                 << MaxMalformedShown << " are above)\n";
  CurrentFile.clear();
  ShownInFile = HiddenInFile = 0;
}

unsigned malformedCount() { return NumMalformed; }

}  // namespace tensor_tidy::report
