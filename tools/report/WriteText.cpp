// The terminal table: one section per group, most important first.
#include "Writers.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace tensor_tidy::report {

namespace {

struct Section {
  Group Kind;
  const char* Why;
  llvm::raw_ostream::Colors Colour;
};

const Section Sections[] = {
    {Group::Confirmed, "found by the checks and seen at run time", llvm::raw_ostream::RED},
    {Group::StaticOnly, "not reached at run time, or a false positive", llvm::raw_ostream::YELLOW},
    {Group::DynamicOnly, "seen at run time, missed by the checks", llvm::raw_ostream::MAGENTA},
};

/// Whether \p C is a code point a terminal acts on instead of showing:
/// C0 and C1 controls, DEL, and the bidirectional formatting characters that
/// reorder what follows them on the line (U+202E turns "gpu" into "upg").
bool isControl(llvm::UTF32 C) {
  return C < 0x20 || (C >= 0x7f && C <= 0x9f) || C == 0x061c || C == 0x200e || C == 0x200f ||
         (C >= 0x202a && C <= 0x202e) || (C >= 0x2066 && C <= 0x2069);
}

}  // namespace

std::string printable(llvm::StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  const auto* P = reinterpret_cast<const llvm::UTF8*>(S.begin());
  const auto* End = reinterpret_cast<const llvm::UTF8*>(S.end());
  while (P < End) {
    llvm::UTF32 C;
    const llvm::UTF8* Start = P;
    if (llvm::convertUTF8Sequence(&P, End, &C, llvm::strictConversion) != llvm::conversionOK) {
      // Not UTF-8: the byte, escaped, so no terminal decodes it as a control.
      Out += llvm::formatv("\\x{0:x-2}", unsigned(*Start)).str();
      P = Start + 1;
      continue;
    }
    if (!isControl(C))
      Out.append(reinterpret_cast<const char*>(Start), P - Start);
    else if (C <= 0xff)
      Out += llvm::formatv("\\x{0:x-2}", unsigned(C)).str();
    else
      Out += llvm::formatv("\\u{0:x-4}", unsigned(C)).str();
  }
  return Out;
}

namespace {

std::string location(const Report& R, const Entry& E) {
  std::string L = printable(displayPath(R, E.File));
  if (E.Line == 0)  // a record without a source line: the program's path
    return L;
  L += ":" + std::to_string(E.Line);
  if (E.Column) L += ":" + std::to_string(E.Column);
  return L;
}

}  // namespace

void writeText(llvm::raw_ostream& OS, const Report& R, bool Color) {
  OS.enable_colors(Color);
  size_t LocW = 8, CheckW = 5;
  for (const Entry& E : R.Entries) {
    LocW = std::max(LocW, location(R, E).size());
    CheckW = std::max(CheckW, printable(E.Check).size());
  }
  Summary S = summarise(R);
  // Without a run-time log nothing was confirmed or refuted: the static
  // findings are all there is, not "static-only" (which says the run missed
  // them, or that they are false positives).
  const Section StaticAlone[] = {{Group::StaticOnly, "no run-time log given", llvm::raw_ostream::YELLOW}};
  llvm::ArrayRef<Section> Shown = R.HasRuntimeLog ? llvm::ArrayRef<Section>(Sections) : StaticAlone;
  for (const Section& Sec : Shown) {
    unsigned N = Sec.Kind == Group::Confirmed    ? S.Confirmed
                 : Sec.Kind == Group::StaticOnly ? S.StaticOnly
                                                 : S.DynamicOnly;
    OS.changeColor(Sec.Colour, /*Bold=*/true);
    OS << (R.HasRuntimeLog ? groupName(Sec.Kind) : "static") << " (" << N << ")";
    OS.resetColor();
    OS << ": " << Sec.Why << "\n";
    if (N == 0) {
      OS << "  none\n\n";
      continue;
    }
    OS << "  ";
    if (R.HasBaseline) OS << llvm::left_justify("BASELINE", 10);
    OS << llvm::left_justify("LOCATION", LocW) << "  " << llvm::left_justify("CHECK", CheckW)
       << "  STATIC  RUNTIME  MESSAGE\n";
    for (const Entry& E : R.Entries) {
      if (E.Kind != Sec.Kind) continue;
      OS << "  ";
      if (R.HasBaseline) OS << llvm::left_justify(E.InBaseline ? "unchanged" : "new", 10);
      OS << llvm::left_justify(location(R, E), LocW) << "  ";
      OS.changeColor(Sec.Colour);
      OS << llvm::left_justify(printable(E.Check), CheckW);
      OS.resetColor();
      OS << "  " << llvm::right_justify(std::to_string(E.StaticCount), 6) << "  "
         << llvm::right_justify(std::to_string(E.DynamicCount), 7) << "  " << printable(E.Message) << "\n";
      // The runtime's own words say what actually happened; show them when
      // they add to the static message.
      if (E.Kind == Group::Confirmed && !E.RuntimeMessage.empty() && E.RuntimeMessage != E.Message)
        OS << "      run time: " << printable(E.RuntimeMessage) << "\n";
    }
    OS << "\n";
  }
  if (R.HasRuntimeLog)
    OS << "summary: " << S.Confirmed << " confirmed, " << S.StaticOnly << " static-only, " << S.DynamicOnly
       << " dynamic-only";
  else
    OS << "summary: " << S.StaticOnly << " static (no run-time log given: --log confirms them)";
  if (R.HasBaseline) OS << "; " << S.New << " new, " << S.Unchanged << " unchanged from the baseline";
  OS << "\n";
}

}  // namespace tensor_tidy::report
