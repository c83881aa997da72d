#include "Fingerprint.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"

#include <optional>
#include <vector>

namespace tensor_tidy::report {

namespace {

/// A source file's lines, whitespace removed; empty when it cannot be read.
using Lines = std::vector<std::string>;

std::optional<Lines> readLines(const std::string& Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) return std::nullopt;
  llvm::StringRef Text = (*Buf)->getBuffer();
  if (Text.contains('\0'))  // not source code: hash nothing from it
    return std::nullopt;
  Lines Out;
  llvm::SmallVector<llvm::StringRef, 0> Raw;
  Text.split(Raw, '\n');
  Out.reserve(Raw.size());
  for (llvm::StringRef L : Raw) {
    std::string N;
    for (char C : L)
      if (!llvm::isSpace(C)) N += C;
    Out.push_back(std::move(N));
  }
  return Out;
}

std::string hash(const Entry& E, llvm::StringRef Text) {
  llvm::SHA256 H;
  for (llvm::StringRef Part : {llvm::StringRef(E.Check), llvm::StringRef(E.Message), Text}) {
    H.update(Part);
    H.update(llvm::StringRef("\0", 1));  // parts cannot run into each other
  }
  std::array<uint8_t, 32> Digest = H.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(Digest).take_front(8),
                     /*LowerCase=*/true);
}

}  // namespace

void computeFingerprints(Report& R) {
  llvm::StringMap<std::optional<Lines>> Cache;
  for (Entry& E : R.Entries) {
    E.ContextHash.clear();
    E.LineHash.clear();
    if (E.Line == 0) continue;
    auto It = Cache.find(E.File);
    if (It == Cache.end()) It = Cache.try_emplace(E.File, readLines(E.File)).first;
    const std::optional<Lines>& L = It->second;
    if (!L || E.Line > L->size()) continue;
    size_t At = E.Line - 1;
    const std::string& Own = (*L)[At];
    // The nearest non-blank line on each side: blank lines added or removed
    // around a finding do not change it.
    std::string Before, After;
    for (size_t I = At; I-- > 0;)
      if (!(*L)[I].empty()) {
        Before = (*L)[I];
        break;
      }
    for (size_t I = At + 1; I < L->size(); ++I)
      if (!(*L)[I].empty()) {
        After = (*L)[I];
        break;
      }
    E.LineHash = hash(E, Own);
    E.ContextHash = hash(E, Before + "\n" + Own + "\n" + After);
  }
}

}  // namespace tensor_tidy::report
