// clang-tidy's text output, from clang-tidy, tensor-tidy or run-clang-tidy.
#include "Paths.h"
#include "Readers.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

namespace tensor_tidy::report {

namespace {

// Removes ANSI colour sequences (ESC [ ... m), so output captured with
// --use-color or from a terminal parses like plain output.
std::string stripAnsi(llvm::StringRef Line) {
  std::string Out;
  for (size_t I = 0; I < Line.size(); ++I) {
    if (Line[I] == '\x1b' && I + 1 < Line.size() && Line[I + 1] == '[') {
      size_t J = I + 2;
      while (J < Line.size() && !(Line[J] >= '@' && Line[J] <= '~')) ++J;
      I = J;
      continue;
    }
    Out += Line[I];
  }
  return Out;
}

// `-warnings-as-errors` appends `,-warnings-as-errors` to the bracket; the
// check is the first name that is not such a flag.
llvm::StringRef checkFromBracket(llvm::StringRef Bracket) {
  llvm::SmallVector<llvm::StringRef, 2> Parts;
  Bracket.split(Parts, ',');
  for (llvm::StringRef P : Parts)
    if (!P.trim().starts_with("-") && !P.trim().empty()) return P.trim();
  return {};
}

// A line clang-tidy, run-clang-tidy or the compiler writes besides
// diagnostics: output without findings is still clang-tidy's.
bool isClangTidyChatter(llvm::StringRef Line) {
  static const llvm::Regex Known(
      "^(.+:[0-9]+:[0-9]+: (warning|error|note|remark|fatal error): |"
      "[0-9]+ (warning|error)s? (and [0-9]+ errors? )?generated|"
      "Suppressed [0-9]+ warnings|Use -header-filter|Error while processing|"
      "Found compiler errors?|Running clang-tidy|Applying fixes|"
      ".*clang-tidy[^ ]* )");
  return Known.match(Line);
}

}  // namespace

ReadResult readClangTidyText(llvm::StringRef Name, llvm::StringRef Text, llvm::StringRef BaseDir,
                             std::vector<Finding>& Out) {
  // Greedy file part: Windows drive letters and colons in paths still work,
  // because the line and column are the last two numbers before the level.
  static const llvm::Regex Diag("^(.+):([0-9]+):([0-9]+): (warning|error): (.*) \\[([^]]+)\\]$");
  ReadResult Result;
  unsigned LineNo = 0;
  llvm::StringRef Rest = Text;
  while (!Rest.empty()) {
    auto [Raw, Tail] = Rest.split('\n');
    Rest = Tail;
    ++LineNo;
    std::string Line = stripAnsi(Raw.rtrim("\r"));
    llvm::SmallVector<llvm::StringRef, 7> M;
    if (!Diag.match(Line, &M)) {
      // notes, source excerpts, fix-it lines, summaries
      Result.Recognised |= isClangTidyChatter(Line);
      continue;
    }
    Result.Recognised = true;
    unsigned L = 0, C = 0;
    if (M[2].getAsInteger(10, L) || M[3].getAsInteger(10, C) || L == 0) {
      warnMalformed(Name, LineNo, "bad line or column in diagnostic");
      continue;
    }
    llvm::StringRef Check = checkFromBracket(M[6]);
    if (Check.empty()) continue;
    Finding F;
    F.From = Origin::Static;
    F.Check = Check.str();
    F.File = normalisePath(M[1], BaseDir);
    F.Line = L;
    F.Column = C;
    F.Message = M[5].str();
    Out.push_back(std::move(F));
  }
  return Result;
}

}  // namespace tensor_tidy::report
