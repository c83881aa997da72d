// clang-tidy -export-fixes YAML, parsed with LLVM's YAML parser. The format
// (clang/Tooling/DiagnosticsYaml.h):
//   MainSourceFile: ...
//   Diagnostics:
//     - DiagnosticName: tensor-mixed-device
//       DiagnosticMessage: { Message: ..., FilePath: ..., FileOffset: N, ... }
//       Notes: [...]
//       BuildDirectory: ...
// Diagnostics give byte offsets, not lines, so each source file is read once
// to map offsets to lines and columns.
#include "Paths.h"
#include "Readers.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <algorithm>
#include <optional>

namespace tensor_tidy::report {

namespace {

namespace yaml = llvm::yaml;

/// Line start offsets of a source file, or the reason it could not be read.
struct LineTable {
  std::vector<size_t> Starts;
  size_t Size = 0;
  std::string Error;
};

const LineTable& lineTable(const std::string& Path) {
  static llvm::StringMap<LineTable> Cache;
  auto [It, Inserted] = Cache.try_emplace(Path);
  LineTable& T = It->second;
  if (!Inserted) return T;
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf) {
    T.Error = Buf.getError().message();
    return T;
  }
  llvm::StringRef Text = (*Buf)->getBuffer();
  T.Size = Text.size();
  T.Starts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n') T.Starts.push_back(I + 1);
  return T;
}

/// One YAML document of the input, with the input line it starts on.
struct Chunk {
  llvm::StringRef Text;
  unsigned FirstLine;
};

// Splits at `---` document markers. YAML's parser stops at the first error
// for the rest of the stream; parsing documents separately lets a broken
// document be skipped without losing the ones after it (run-clang-tidy
// concatenates one document per translation unit).
std::vector<Chunk> splitDocuments(llvm::StringRef Text) {
  std::vector<Chunk> Chunks;
  size_t Begin = 0;
  unsigned BeginLine = 1, Line = 1;
  for (size_t Pos = 0; Pos < Text.size();) {
    size_t End = Text.find('\n', Pos);
    if (End == llvm::StringRef::npos) End = Text.size();
    llvm::StringRef L = Text.slice(Pos, End).rtrim("\r");
    bool Marker = L == "---" || L.starts_with("--- ");
    if (Marker && Pos > Begin) {
      Chunks.push_back({Text.slice(Begin, Pos), BeginLine});
      Begin = Pos;
      BeginLine = Line;
    }
    Pos = End + 1;
    ++Line;
  }
  if (Begin < Text.size()) Chunks.push_back({Text.substr(Begin), BeginLine});
  return Chunks;
}

/// Reads one document; reports problems with their input line.
class DocumentReader {
 public:
  DocumentReader(llvm::StringRef Name, const Chunk& C, llvm::StringRef BaseDir, std::vector<Finding>& Out)
      : Name(Name), C(C), BaseDir(BaseDir), Out(Out) {}

  void read() {
    SM.setDiagHandler(
        [](const llvm::SMDiagnostic& D, void* Ctx) {
          auto* Self = static_cast<DocumentReader*>(Ctx);
          warnMalformed(Self->Name, Self->C.FirstLine + D.getLineNo() - 1, "invalid YAML: " + D.getMessage());
        },
        this);
    yaml::Stream S(llvm::MemoryBufferRef(C.Text, Name), SM,
                   /*ShowColors=*/false);
    for (yaml::Document& D : S) {
      yaml::Node* Root = D.getRoot();
      if (!Root || S.failed()) return;
      if (llvm::isa<yaml::NullNode>(Root)) continue;  // an empty document (a file holding only `---`)
      auto* Map = llvm::dyn_cast<yaml::MappingNode>(Root);
      if (!Map) {
        warn(Root, "not a clang-tidy fixes document (expected a mapping)");
        continue;
      }
      for (yaml::KeyValueNode& KV : *Map) {
        std::string Key = scalar(KV.getKey());
        yaml::Node* Value = KV.getValue();
        if (S.failed()) return;
        // clang-tidy's keys: a fixes document, even without diagnostics.
        Recognised |= Key == "MainSourceFile" || Key == "Diagnostics";
        if (Key != "Diagnostics") continue;
        if (!Value) return;
        if (llvm::isa<yaml::NullNode>(Value)) continue;  // `Diagnostics: []` may be written as empty
        auto* Seq = llvm::dyn_cast<yaml::SequenceNode>(Value);
        if (!Seq) {
          warn(Value, "'Diagnostics' is not a list");
          continue;
        }
        for (yaml::Node& Diag : *Seq) {
          if (S.failed()) return;
          readDiagnostic(&Diag);
        }
      }
    }
  }

 private:
  unsigned lineOf(yaml::Node* N) {
    if (!N) return C.FirstLine;
    // A node the parser made after an error may have no location in the
    // buffer (getLineAndColumn would index no buffer).
    const llvm::SMLoc Start = N->getSourceRange().Start;
    if (!Start.isValid() || SM.FindBufferContainingLoc(Start) == 0) return C.FirstLine;
    auto [Line, Col] = SM.getLineAndColumn(Start);
    return C.FirstLine + Line - 1;
  }

  void warn(yaml::Node* N, const llvm::Twine& Msg) { warnMalformed(Name, lineOf(N), Msg); }

  std::string scalar(yaml::Node* N) {
    auto* S = llvm::dyn_cast_or_null<yaml::ScalarNode>(N);
    if (!S) return {};
    llvm::SmallString<128> Storage;
    return S->getValue(Storage).str();
  }

  // Fills Message, FilePath and FileOffset from a DiagnosticMessage mapping
  // (or, for clang-tidy before 9, from the diagnostic itself).
  void readMessageFields(llvm::StringRef Key, yaml::Node* Value, std::string& Message, std::string& FilePath,
                         std::optional<unsigned long long>& Offset, yaml::Node*& OffsetNode) {
    if (Key == "Message") {
      Message = scalar(Value);
    } else if (Key == "FilePath") {
      FilePath = scalar(Value);
    } else if (Key == "FileOffset") {
      unsigned long long N;
      OffsetNode = Value;
      if (!llvm::StringRef(scalar(Value)).getAsInteger(10, N)) Offset = N;
    }
  }

  void readDiagnostic(yaml::Node* N) {
    auto* Map = llvm::dyn_cast<yaml::MappingNode>(N);
    if (!Map) {
      warn(N, "diagnostic is not a mapping");
      return;
    }
    std::string Check, Message, FilePath, BuildDir;
    std::optional<unsigned long long> Offset;
    yaml::Node* OffsetNode = nullptr;
    for (yaml::KeyValueNode& KV : *Map) {
      std::string Key = scalar(KV.getKey());
      yaml::Node* Value = KV.getValue();
      // A null value: the parser stopped inside this diagnostic (its
      // diagnostic handler has reported "invalid YAML").
      if (!Value) return;
      if (Key == "DiagnosticName") {
        Check = scalar(Value);
      } else if (Key == "BuildDirectory") {
        BuildDir = scalar(Value);
      } else if (Key == "DiagnosticMessage") {
        auto* Msg = llvm::dyn_cast<yaml::MappingNode>(Value);
        if (!Msg) {
          warn(Value, "'DiagnosticMessage' is not a mapping");
          continue;
        }
        for (yaml::KeyValueNode& MKV : *Msg) {
          std::string MKey = scalar(MKV.getKey());
          yaml::Node* MValue = MKV.getValue();
          if (!MValue) return;
          readMessageFields(MKey, MValue, Message, FilePath, Offset, OffsetNode);
        }
      } else {
        readMessageFields(Key, Value, Message, FilePath, Offset, OffsetNode);
      }
    }
    if (Check.empty()) {
      warn(N, "diagnostic without 'DiagnosticName'");
      return;
    }
    if (FilePath.empty()) return;  // diagnostics without a location (command-line problems)
    if (!Offset) {
      warn(OffsetNode ? OffsetNode : N, "diagnostic without a valid 'FileOffset'");
      return;
    }
    Finding F;
    F.From = Origin::Static;
    F.Check = Check;
    F.Message = Message;
    F.File = normalisePath(FilePath, BuildDir.empty() ? BaseDir : llvm::StringRef(BuildDir));
    const LineTable& T = lineTable(F.File);
    if (!T.Error.empty()) {
      warn(OffsetNode, "cannot read '" + F.File + "' to locate offset " + llvm::Twine(*Offset) + ": " + T.Error);
      return;
    }
    if (*Offset > T.Size) {
      warn(OffsetNode, "offset " + llvm::Twine(*Offset) + " is past the end of '" + F.File + "'");
      return;
    }
    auto It = std::upper_bound(T.Starts.begin(), T.Starts.end(), static_cast<size_t>(*Offset));
    F.Line = static_cast<unsigned>(It - T.Starts.begin());
    F.Column = static_cast<unsigned>(*Offset - T.Starts[F.Line - 1] + 1);
    Out.push_back(std::move(F));
  }

 public:
  /// A document with clang-tidy's keys was met.
  bool Recognised = false;

 private:
  llvm::StringRef Name;
  const Chunk& C;
  llvm::StringRef BaseDir;
  std::vector<Finding>& Out;
  llvm::SourceMgr SM;
};

}  // namespace

ReadResult readExportFixes(llvm::StringRef Name, llvm::StringRef Text, llvm::StringRef BaseDir,
                           std::vector<Finding>& Out) {
  ReadResult Result;
  for (const Chunk& C : splitDocuments(Text)) {
    DocumentReader Reader(Name, C, BaseDir, Out);
    Reader.read();
    Result.Recognised |= Reader.Recognised;
  }
  return Result;
}

}  // namespace tensor_tidy::report
