// The terminal table: one section per group, most important first.
#include "Writers.h"

#include "llvm/Support/Format.h"

#include <algorithm>

namespace tensor_tidy::report {

namespace {

struct Section {
  Group Kind;
  const char *Why;
  llvm::raw_ostream::Colors Colour;
};

const Section Sections[] = {
    {Group::Confirmed, "found by the checks and seen at run time",
     llvm::raw_ostream::RED},
    {Group::StaticOnly, "not reached at run time, or a false positive",
     llvm::raw_ostream::YELLOW},
    {Group::DynamicOnly, "seen at run time, missed by the checks",
     llvm::raw_ostream::MAGENTA},
};

std::string location(const Report &R, const Entry &E) {
  if (E.Line == 0) // a record without a source line: the program's path
    return displayPath(R, E.File);
  std::string L = displayPath(R, E.File) + ":" + std::to_string(E.Line);
  if (E.Column)
    L += ":" + std::to_string(E.Column);
  return L;
}

} // namespace

void writeText(llvm::raw_ostream &OS, const Report &R, bool Color) {
  OS.enable_colors(Color);
  size_t LocW = 8, CheckW = 5;
  for (const Entry &E : R.Entries) {
    LocW = std::max(LocW, location(R, E).size());
    CheckW = std::max(CheckW, E.Check.size());
  }
  Summary S = summarise(R);
  for (const Section &Sec : Sections) {
    unsigned N = Sec.Kind == Group::Confirmed    ? S.Confirmed
                 : Sec.Kind == Group::StaticOnly ? S.StaticOnly
                                                 : S.DynamicOnly;
    OS.changeColor(Sec.Colour, /*Bold=*/true);
    OS << groupName(Sec.Kind) << " (" << N << ")";
    OS.resetColor();
    OS << ": " << Sec.Why << "\n";
    if (N == 0) {
      OS << "  none\n\n";
      continue;
    }
    OS << "  ";
    if (R.HasBaseline)
      OS << llvm::left_justify("BASELINE", 10);
    OS << llvm::left_justify("LOCATION", LocW) << "  "
       << llvm::left_justify("CHECK", CheckW) << "  STATIC  RUNTIME  MESSAGE\n";
    for (const Entry &E : R.Entries) {
      if (E.Kind != Sec.Kind)
        continue;
      OS << "  ";
      if (R.HasBaseline)
        OS << llvm::left_justify(E.InBaseline ? "unchanged" : "new", 10);
      OS << llvm::left_justify(location(R, E), LocW) << "  ";
      OS.changeColor(Sec.Colour);
      OS << llvm::left_justify(E.Check, CheckW);
      OS.resetColor();
      OS << "  " << llvm::right_justify(std::to_string(E.StaticCount), 6) << "  "
         << llvm::right_justify(std::to_string(E.DynamicCount), 7) << "  "
         << E.Message << "\n";
      // The runtime's own words say what actually happened; show them when
      // they add to the static message.
      if (E.Kind == Group::Confirmed && !E.RuntimeMessage.empty() &&
          E.RuntimeMessage != E.Message)
        OS << "      run time: " << E.RuntimeMessage << "\n";
    }
    OS << "\n";
  }
  OS << "summary: " << S.Confirmed << " confirmed, " << S.StaticOnly
     << " static-only, " << S.DynamicOnly << " dynamic-only";
  if (R.HasBaseline)
    OS << "; " << S.New << " new, " << S.Unchanged << " unchanged from the baseline";
  OS << "\n";
}

} // namespace tensor_tidy::report
