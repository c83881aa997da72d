// tensor-run: runs an unmodified LibTorch program on emulated CUDA devices
// and reports the device and dtype bugs a GPU would hit.
//
//   tensor-run [--record FILE] [--devices N] [--] PROGRAM [ARGS...]
//
// The driver checks what it is given, then replaces itself with PROGRAM,
// with libtensor-run.so (tensor-run/) preloaded: the exit status is the
// program's. Bad input is a one-line error and exit status 2, and the
// program is not started half-instrumented: not an ELF executable, not
// dynamically linked against LibTorch, another LibTorch than the one the
// library was built for, an unwritable record file (--record, or
// TT_VALIDATE_LOG in record mode), an empty --record. Records that cannot be
// written while the program runs make its exit status 2 (the library's
// Startup.cpp).
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Config.h"
#include "LibTorchVersion.h"

using namespace llvm;

namespace {

constexpr int ExitUsage = 2;

cl::OptionCategory Category("tensor-run options");
cl::opt<std::string> RecordFile("record", cl::value_desc("file"),
                                cl::desc("append each violation to FILE (the runtime's JSONL validation log) and let "
                                         "the program continue, instead of raising"),
                                cl::cat(Category));
cl::opt<std::string> Devices("devices", cl::value_desc("n"), cl::init("1"),
                             cl::desc("number of emulated CUDA devices, 1 to 16 (default 1)"), cl::cat(Category));
cl::opt<std::string> Program(cl::Positional, cl::Required, cl::desc("PROGRAM [ARGS...]"), cl::cat(Category));

int fail(const Twine& Message) {
  errs() << "tensor-run: " << Message << "\n";
  return ExitUsage;
}

// PROGRAM as execvp would find it: as given when it has a '/', else on PATH.
std::string resolveProgram(const std::string& Name) {
  if (Name.find('/') != std::string::npos) return Name;
  if (ErrorOr<std::string> P = sys::findProgramByName(Name)) return *P;
  return "";
}

// Why PATH is not a dynamically linked x86-64 ELF executable, or "".
std::string checkElf(const std::string& Path) {
  Expected<object::OwningBinary<object::ObjectFile>> Obj = object::ObjectFile::createObjectFile(Path);
  if (!Obj) {
    consumeError(Obj.takeError());
    return "is not an ELF executable (a script? run tensor-run on the LibTorch program it starts)";
  }
  auto* Elf = dyn_cast<object::ELF64LEObjectFile>(Obj->getBinary());
  if (!Elf || Elf->getELFFile().getHeader().e_machine != ELF::EM_X86_64) return "is not an x86-64 ELF executable";
  Expected<ArrayRef<object::ELF64LE::Phdr>> Headers = Elf->getELFFile().program_headers();
  if (!Headers) {
    consumeError(Headers.takeError());
    return "is a malformed ELF file";
  }
  const StringRef File = Elf->getData();
  for (const auto& H : *Headers) {
    if (H.p_type != ELF::PT_INTERP) continue;
    if (H.p_offset > File.size() || H.p_filesz > File.size() - H.p_offset)
      return "is a malformed ELF file (its interpreter lies outside it)";
    // Only glibc's loader lists a program's libraries without running it
    // (LD_TRACE_LOADED_OBJECTS); another would run the program.
    const StringRef Interp = File.substr(H.p_offset, H.p_filesz).split('\0').first;
    if (!sys::path::filename(Interp).starts_with("ld-linux"))
      return ("has the dynamic loader " + Interp + "; tensor-run needs glibc's (ld-linux)").str();
    return "";
  }
  return "is statically linked; tensor-run needs a program dynamically linked against LibTorch";
}

// The libraries the dynamic loader would load for PATH, as "soname path"
// pairs: the loader's trace mode (what ldd runs), which maps the objects and
// exits without running the program.
bool loadedLibraries(const std::string& Path, std::vector<std::pair<std::string, std::string>>& Out,
                     std::string& Error) {
  SmallString<128> Trace;
  if (std::error_code EC = sys::fs::createTemporaryFile("tensor-run-ldd", "txt", Trace)) {
    Error = "cannot create a temporary file: " + EC.message();
    return false;
  }
  std::vector<StringRef> Env;
  std::vector<std::string> Storage;
  for (char** E = environ; *E; ++E) Storage.emplace_back(*E);
  Storage.emplace_back("LD_TRACE_LOADED_OBJECTS=1");
  for (const std::string& S : Storage)
    if (!StringRef(S).starts_with("LD_PRELOAD=")) Env.push_back(S);
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Trace), StringRef("")};
  std::string ExecError;
  const int Rc = sys::ExecuteAndWait(Path, {Path}, ArrayRef(Env), Redirects, /*SecondsToWait=*/60, 0, &ExecError);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Trace);
  sys::fs::remove(Trace);
  if (Rc != 0 || !Text) {
    Error = ExecError.empty() ? "the dynamic loader cannot load it (run ldd on it to see why)" : ExecError;
    return false;
  }
  SmallVector<StringRef> Lines;
  (*Text)->getBuffer().split(Lines, '\n', -1, false);
  for (StringRef L : Lines) {
    L = L.trim();
    auto [Name, Rest] = L.split(" => ");
    if (Rest.empty()) continue;
    StringRef Where = Rest.split(" (").first.trim();
    Out.emplace_back(Name.str(), Where.str());
  }
  return true;
}

std::string realPath(const std::string& P) {
  SmallString<256> Real;
  if (sys::fs::real_path(P, Real)) return P;
  return std::string(Real);
}

}  // namespace

// The driver's own arguments end at PROGRAM: the first argument that is not
// an option, or the one after "--". The rest are the program's, untouched
// (LLVM's parser would expand an @file among them).
int programIndex(int argc, char** argv) {
  for (int I = 1; I < argc; ++I) {
    const StringRef A = argv[I];
    if (A == "--") return I + 1;
    if (!A.starts_with("-") || A == "-") return I;
    if ((A == "--record" || A == "-record" || A == "--devices" || A == "-devices") && I + 1 < argc) ++I;
  }
  return argc;
}

int main(int argc, char** argv) {
  const int ProgramAt = programIndex(argc, argv);
  std::vector<char*> ProgramArgs;
  for (int I = ProgramAt + 1; I < argc; ++I) ProgramArgs.push_back(argv[I]);
  const int DriverArgc = ProgramAt < argc ? ProgramAt + 1 : argc;
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream& OS) {
    OS << "tensor-run " << TT_TENSOR_RUN_VERSION << " (tensor-tidy), for LibTorch " << TT_TORCH_VERSION << "\n";
  });
  if (!cl::ParseCommandLineOptions(
          DriverArgc, argv,
          "runs an unmodified LibTorch program on emulated CUDA devices and reports the device and dtype bugs a GPU "
          "would hit\n\n"
          "Without --record a violation throws LibTorch's own c10::Error with the CUDA build's message and the "
          "program's file:line. TT_VALIDATE=record and TT_VALIDATE_LOG=FILE in the environment do what --record "
          "does.\nExit status: the program's; 2 when tensor-run refuses to start it, and 2 when records could not "
          "be written (the log is incomplete).\n",
          &errs()))
    return ExitUsage;

  const int DeviceCount = tensor_run::parse_device_count(Devices.c_str());
  if (DeviceCount == 0) return fail("--devices=" + Devices + " is not a number of devices from 1 to 16");

  const std::string Path = resolveProgram(Program);
  if (Path.empty()) return fail("'" + Program + "' not found on PATH");
  if (!sys::fs::exists(Path)) return fail("'" + Path + "' does not exist");
  if (sys::fs::is_directory(Path)) return fail("'" + Path + "' is a directory");
  if (!sys::fs::can_execute(Path)) return fail("'" + Path + "' is not executable");
  if (std::string Why = checkElf(Path); !Why.empty()) return fail("'" + Path + "' " + Why);

  std::vector<std::pair<std::string, std::string>> Libraries;
  std::string Error;
  if (!loadedLibraries(Path, Libraries, Error)) return fail("'" + Path + "': " + Error);
  std::string C10;
  for (const auto& [Name, Where] : Libraries)
    if (StringRef(Name).starts_with("libc10.so")) {
      if (Where == "not found")
        return fail("'" + Path + "' needs " + Name + ", which the dynamic loader does not find");
      C10 = Where;
    }
  if (C10.empty())
    return fail("'" + Path +
                "' is not dynamically linked against LibTorch (libc10.so is not among the libraries "
                "it loads); tensor-run instruments LibTorch programs");
  if (realPath(C10) != realPath(TT_TORCH_C10_LIBRARY))
    return fail(tensor_run::other_libtorch_message("'" + Path + "'", C10));

  // The library, at ../lib from this binary (build/bin -> build/lib).
  SmallString<256> Library(sys::path::parent_path(sys::fs::getMainExecutable(argv[0], reinterpret_cast<void*>(&fail))));
  sys::path::remove_filename(Library);
  sys::path::append(Library, "lib", "libtensor-run.so");
  if (!sys::fs::exists(Library)) return fail("its library is missing: " + Library + " (build the tensor_run target)");
  // The loader splits LD_PRELOAD at spaces and colons: such a path would be
  // ignored and the program would run uninstrumented.
  if (StringRef(Library).find_first_of(" :") != StringRef::npos)
    return fail("its library cannot be preloaded from a path with a space or a colon: " + Library);

  // --record '' would otherwise be no --record at all: raise mode, silently.
  if (RecordFile.getNumOccurrences() && RecordFile.empty()) return fail("--record needs a file name");
  const char* Mode = std::getenv("TT_VALIDATE");
  if (RecordFile.empty() && Mode && *Mode && std::strcmp(Mode, "raise") != 0 && std::strcmp(Mode, "record") != 0)
    return fail(std::string("TT_VALIDATE=") + Mode + " is not raise or record");
  // The record file, from --record or from TT_VALIDATE=record with
  // TT_VALIDATE_LOG (default tt-validate.jsonl), must be writable before the
  // program starts: every record of a run that cannot write them is lost.
  std::string Log = RecordFile;
  if (Log.empty() && Mode && std::strcmp(Mode, "record") == 0) {
    const char* EnvLog = std::getenv("TT_VALIDATE_LOG");
    Log = EnvLog && *EnvLog ? EnvLog : tensor_run::Config().log_path;
  }
  if (!Log.empty()) {
    // Appended to, as TT_VALIDATE_LOG is: nothing recorded before is lost.
    SmallString<256> Abs(Log);
    if (std::error_code EC = sys::fs::make_absolute(Abs))
      return fail("cannot resolve the record file " + Log + ": " + EC.message());
    if (sys::fs::is_directory(Abs)) return fail("cannot write the record file " + Abs + ": it is a directory");
    int FD;
    if (std::error_code EC = sys::fs::openFileForWrite(Abs, FD, sys::fs::CD_OpenAlways, sys::fs::OF_Append))
      return fail("cannot write the record file " + Abs + ": " + EC.message());
    ::close(FD);
    setenv("TT_VALIDATE", "record", 1);
    setenv("TT_VALIDATE_LOG", Abs.c_str(), 1);
  }

  std::string Preload = std::string(Library);
  if (const char* Old = std::getenv("LD_PRELOAD"); Old && *Old) Preload += std::string(":") + Old;
  setenv("LD_PRELOAD", Preload.c_str(), 1);
  setenv("TENSOR_RUN_DEVICES", std::to_string(DeviceCount).c_str(), 1);

  std::vector<char*> Argv;
  Argv.push_back(const_cast<char*>(Program.c_str()));
  Argv.insert(Argv.end(), ProgramArgs.begin(), ProgramArgs.end());
  Argv.push_back(nullptr);
  execv(Path.c_str(), Argv.data());
  errs() << "tensor-run: cannot run '" << Path << "': " << std::strerror(errno) << "\n";
  return 127;
}
