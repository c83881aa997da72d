// tensor-tidy-report: joins the static checks' findings with the runtime's
// validation logs into one report (text, JSON or SARIF), and gives CI an exit
// status. See docs/validation.md.
#include "Baseline.h"
#include "Fingerprint.h"
#include "Join.h"
#include "Paths.h"
#include "Readers.h"
#include "Writers.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;
using namespace tensor_tidy::report;

#ifndef TT_REPORT_DOCS_DIR
#define TT_REPORT_DOCS_DIR ""
#endif
#ifndef TT_REPORT_VERSION
#define TT_REPORT_VERSION "0"
#endif

namespace {

enum class Format { Text, Json, Sarif };
enum class ColorMode { Auto, Always, Never };
enum class FailOn { None, Confirmed, Static, Any };

cl::OptionCategory Category("tensor-tidy-report options");

cl::list<std::string> Inputs(cl::Positional, cl::desc("<input files>"), cl::cat(Category));
cl::list<std::string> TextInputs("text", cl::desc("clang-tidy text output (also '-' for stdin)"),
                                 cl::value_desc("file"), cl::cat(Category));
cl::list<std::string> FixesInputs("fixes", cl::desc("clang-tidy -export-fixes YAML"), cl::value_desc("file"),
                                  cl::cat(Category));
cl::list<std::string> LogInputs("log", cl::desc("runtime validation log (JSONL)"), cl::value_desc("file"),
                                cl::cat(Category));
cl::opt<std::string> CompileDir("compile-dir",
                                cl::desc("directory relative paths in the inputs are relative to "
                                         "(default: the working directory)"),
                                cl::value_desc("dir"), cl::cat(Category));
cl::alias CompileDirShort("p", cl::desc("Alias for --compile-dir"), cl::aliasopt(CompileDir), cl::cat(Category),
                          cl::NotHidden);  // aliases are hidden by default
cl::opt<std::string> SourceRoot("source-root",
                                cl::desc("write paths under this directory relative to it, and hash "
                                         "them for fingerprints (default: the working directory)"),
                                cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> AbsolutePaths("absolute-paths",
                            cl::desc("write every path absolute (file:// URIs in SARIF) instead of "
                                     "relative to the source root"),
                            cl::cat(Category));
cl::opt<Format> OutputFormat("format", cl::desc("output format"), cl::init(Format::Text),
                             cl::values(clEnumValN(Format::Text, "text", "a table per group"),
                                        clEnumValN(Format::Json, "json", "JSON (readable back as --baseline)"),
                                        clEnumValN(Format::Sarif, "sarif", "SARIF 2.1.0")),
                             cl::cat(Category));
cl::opt<std::string> OutputFile("o", cl::desc("write the report to <file>"), cl::value_desc("file"), cl::cat(Category));
cl::opt<FailOn> FailOnOpt("fail-on", cl::desc("exit with status 1 when new findings of this kind exist"),
                          cl::init(FailOn::None),
                          cl::values(clEnumValN(FailOn::None, "none", "never (default)"),
                                     clEnumValN(FailOn::Confirmed, "confirmed", "confirmed findings"),
                                     clEnumValN(FailOn::Static, "static",
                                                "findings of the static checks (confirmed or static-only)"),
                                     clEnumValN(FailOn::Any, "any", "any finding")),
                          cl::cat(Category));
cl::opt<std::string> BaselineFile("baseline",
                                  cl::desc("an earlier JSON or SARIF report: its findings are "
                                           "'unchanged' and do not count for --fail-on"),
                                  cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> DocsDir("docs",
                             cl::desc("the checks' documentation pages, for SARIF rule help (default: "
                                      "share/tensor-tidy/docs/checks of an installed tool, else the "
                                      "source tree it was built from)"),
                             cl::value_desc("dir"), cl::cat(Category));

constexpr int ExitUsage = 2;

int fail(const Twine& Msg) {
  errs() << "tensor-tidy-report: error: " << Msg << "\n";
  return ExitUsage;
}

/// Whether a runtime log was among the inputs read.
bool SawRuntimeLog = false;

const char* kindName(InputKind Kind) {
  switch (Kind) {
    case InputKind::Log: return "a validation log (JSONL)";
    case InputKind::Fixes: return "clang-tidy -export-fixes YAML";
    case InputKind::Text:
    case InputKind::Auto: break;
  }
  return "clang-tidy output";
}

/// Reads one input with the reader for \p Kind; false when it cannot be read
/// or nothing in it is of its kind.
bool readInput(StringRef Name, InputKind Kind, StringRef BaseDir, std::vector<Finding>& Out) {
  auto Buf = MemoryBuffer::getFileOrSTDIN(Name, /*IsText=*/true);
  if (!Buf) {
    // The three-step workflow names the fixes file before it exists:
    // clang-tidy writes no -export-fixes file when it finds nothing. A
    // missing one in a directory that exists is that: no static findings.
    std::error_code EC = Buf.getError();
    bool Fixes = Kind == InputKind::Fixes || (Kind == InputKind::Auto && detectInputKind(Name, "") == InputKind::Fixes);
    StringRef Dir = sys::path::parent_path(Name);
    if (Fixes && EC == std::errc::no_such_file_or_directory &&
        sys::fs::is_directory(Dir.empty() ? StringRef(".") : Dir)) {
      errs() << "tensor-tidy-report: note: '" << Name
             << "' does not exist; taken as no static findings (clang-tidy "
                "writes no -export-fixes file when it finds nothing)\n";
      return true;
    }
    errs() << "tensor-tidy-report: error: cannot read '" << Name << "': " << EC.message() << "\n";
    return false;
  }
  StringRef Text = (*Buf)->getBuffer();
  StringRef Shown = Name == "-" ? StringRef("<stdin>") : Name;
  // Every format the report reads is text. Binary data (an object file, a
  // core dump, an archive passed by mistake: all hold NUL bytes) matches
  // none, and read as clang-tidy text it would give a green "0 findings".
  // Stray invalid UTF-8 in a text input is not binary: its reader reports
  // and skips the malformed part.
  if (Text.contains('\0')) {
    errs() << "tensor-tidy-report: error: '" << Shown
           << "' is not clang-tidy output, an -export-fixes YAML file or a "
              "validation log: it holds binary data\n";
    return false;
  }
  if (Kind == InputKind::Auto) Kind = detectInputKind(Name == "-" ? StringRef() : Name, Text);
  SawRuntimeLog |= Kind == InputKind::Log;
  // Nothing in an input of the wrong kind can be used, and reading it would
  // be a green "0 findings" that --fail-on lets through (a report's own
  // SARIF given as a log: a hundred "invalid JSON" lines, then nothing).
  auto Refuse = [&] {
    errs() << "tensor-tidy-report: error: nothing in '" << Shown << "' can be read as " << kindName(Kind) << ": it is "
           << describeInput(Text) << "\n";
    return false;
  };
  if (Kind != InputKind::Fixes && isJsonDocument(Text)) return Refuse();
  ReadResult Result;
  switch (Kind) {
    case InputKind::Log: Result = readValidationLog(Shown, Text, BaseDir, Out); break;
    case InputKind::Fixes: Result = readExportFixes(Shown, Text, BaseDir, Out); break;
    case InputKind::Text:
    case InputKind::Auto: Result = readClangTidyText(Shown, Text, BaseDir, Out); break;
  }
  finishMalformed();
  // An empty input is an empty result (a clean run's log, clang-tidy's
  // output without findings); text of another kind is an error.
  if (!Result.Recognised && !Text.trim().empty()) return Refuse();
  return true;
}

/// The docs pages an installed report reads (PREFIX/bin/../share/...), else
/// the source tree's.
std::string defaultDocsDir(const char* Argv0) {
  static int Anchor;
  std::string Exe = sys::fs::getMainExecutable(Argv0, &Anchor);
  if (!Exe.empty()) {
    SmallString<256> Installed(sys::path::parent_path(sys::path::parent_path(Exe)));
    sys::path::append(Installed, "share", "tensor-tidy", "docs", "checks");
    if (sys::fs::is_directory(Installed)) return std::string(Installed);
  }
  return TT_REPORT_DOCS_DIR;
}

bool useColor(ColorMode Color) {
  if (Color == ColorMode::Always) return true;
  if (Color == ColorMode::Never || !OutputFile.empty()) return false;
  if (const char* NoColor = std::getenv("NO_COLOR"); NoColor && *NoColor) return false;
  return sys::Process::StandardOutIsDisplayed();
}

}  // namespace

int main(int argc, char** argv) {
  // libLLVM registers a boolean --color of its own (WithColor); the report
  // takes auto|always|never like other tools, so its option replaces it. It
  // is registered here, after the removal, not at static initialisation.
  StringMap<cl::Option*>& Registered = cl::getRegisteredOptions();
  if (auto It = Registered.find("color"); It != Registered.end()) It->second->removeArgument();
  static cl::opt<ColorMode> Color(
      "color", cl::desc("colour in the text format"), cl::init(ColorMode::Auto),
      cl::values(clEnumValN(ColorMode::Auto, "auto", "when stdout is a terminal"),
                 clEnumValN(ColorMode::Always, "always", "always"), clEnumValN(ColorMode::Never, "never", "never")),
      cl::cat(Category));
  cl::HideUnrelatedOptions(Category);
  // Errors go to stderr and return false instead of exiting with status 1,
  // which --fail-on reserves for findings.
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "joins tensor-tidy's static findings with tt's runtime validation "
                                   "logs\n\n"
                                   "Inputs are clang-tidy/tensor-tidy text output, -export-fixes YAML "
                                   "and TT_VALIDATE=record JSONL logs; positional inputs are told apart "
                                   "by extension (.yaml/.yml, .jsonl) or content.\n"
                                   "Exit status: 0, 1 when --fail-on findings exist, 2 on usage or "
                                   "input errors.\n",
                                   &errs()))
    return ExitUsage;

  if (Inputs.empty() && TextInputs.empty() && FixesInputs.empty() && LogInputs.empty())
    return fail(
        "no inputs; pass clang-tidy output, fixes YAML or runtime logs "
        "(see --help)");

  std::string BaseDir = normalisePath(".", CompileDir);
  if (!CompileDir.empty() && !sys::fs::is_directory(BaseDir))
    return fail("--compile-dir '" + CompileDir + "' is not a directory");
  Report R;
  if (AbsolutePaths && !SourceRoot.empty()) return fail("--absolute-paths and --source-root exclude each other");
  if (!AbsolutePaths) {
    R.SourceRoot = normalisePath(SourceRoot.empty() ? std::string(".") : SourceRoot.getValue(), "");
    if (!sys::fs::is_directory(R.SourceRoot)) return fail("--source-root '" + SourceRoot + "' is not a directory");
  }
  if (DocsDir.getNumOccurrences() && !sys::fs::is_directory(DocsDir))
    return fail("--docs '" + DocsDir + "' is not a directory");
  if (!DocsDir.getNumOccurrences()) DocsDir = defaultDocsDir(argv[0]);

  std::vector<Finding> Findings;
  bool InputsOk = true;
  for (const std::string& F : Inputs) InputsOk &= readInput(F, InputKind::Auto, BaseDir, Findings);
  for (const std::string& F : TextInputs) InputsOk &= readInput(F, InputKind::Text, BaseDir, Findings);
  for (const std::string& F : FixesInputs) InputsOk &= readInput(F, InputKind::Fixes, BaseDir, Findings);
  for (const std::string& F : LogInputs) InputsOk &= readInput(F, InputKind::Log, BaseDir, Findings);
  if (!InputsOk) return ExitUsage;
  R.HasRuntimeLog = SawRuntimeLog;

  R.Entries = joinFindings(Findings);
  computeFingerprints(R);

  if (!BaselineFile.empty()) {
    Expected<Baseline> B = Baseline::load(BaselineFile, R.SourceRoot);
    if (!B) return fail(toString(B.takeError()));
    if (size_t Old = B->withoutFingerprints())
      errs() << "tensor-tidy-report: warning: " << Old << " of " << B->size() << " finding(s) in the baseline '"
             << BaselineFile
             << "' have no fingerprint (it was written by an older "
                "tensor-tidy-report, or their sources were not readable); "
                "those match on file and line only, so if lines moved they "
                "count as new. Regenerate the baseline with --format=sarif or "
                "--format=json from the same commit to match findings that "
                "moved\n";
    R.HasBaseline = true;
    B->mark(R);
  }

  std::unique_ptr<raw_fd_ostream> File;
  raw_ostream* OS = &outs();
  if (!OutputFile.empty()) {
    std::error_code EC;
    File = std::make_unique<raw_fd_ostream>(OutputFile, EC, sys::fs::OF_Text);
    if (EC) return fail("cannot write '" + OutputFile + "': " + EC.message());
    OS = File.get();
  }
  switch (OutputFormat) {
    case Format::Text: writeText(*OS, R, useColor(Color)); break;
    case Format::Json: writeJson(*OS, R); break;
    case Format::Sarif: writeSarif(*OS, R, DocsDir, TT_REPORT_VERSION); break;
  }
  OS->flush();
  if (File) {
    File->close();
    if (File->has_error()) {
      std::string Msg = File->error().message();
      File->clear_error();
      return fail("cannot write '" + OutputFile + "': " + Msg);
    }
  }

  bool Failing = false;
  for (const Entry& E : R.Entries) {
    if (E.InBaseline) continue;
    switch (FailOnOpt) {
      case FailOn::None: break;
      case FailOn::Confirmed: Failing |= E.Kind == Group::Confirmed; break;
      case FailOn::Static: Failing |= E.isStatic(); break;
      case FailOn::Any: Failing = true; break;
    }
  }
  return Failing ? 1 : 0;
}
