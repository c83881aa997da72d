// The runtime's validation log: one JSON object per line, written by
// runtime/src/log/validation_log.cpp for tt and tensor-run. Required: check,
// file, line (0: no source line); the rest is kept when present (column,
// message, op, function).
#include "Paths.h"
#include "Readers.h"

#include "llvm/Support/JSON.h"

namespace tensor_tidy::report {

ReadResult readValidationLog(llvm::StringRef Name, llvm::StringRef Text, llvm::StringRef BaseDir,
                             std::vector<Finding>& Out) {
  ReadResult Result;
  unsigned LineNo = 0;
  llvm::StringRef Rest = Text;
  while (!Rest.empty()) {
    auto [Raw, Tail] = Rest.split('\n');
    Rest = Tail;
    ++LineNo;
    llvm::StringRef Line = Raw.trim();
    if (Line.empty()) continue;
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(Line);
    if (!V) {
      warnMalformed(Name, LineNo, "invalid JSON: " + llvm::toString(V.takeError()));
      continue;
    }
    const llvm::json::Object* O = V->getAsObject();
    if (!O) {
      warnMalformed(Name, LineNo, "record is not a JSON object");
      continue;
    }
    auto Check = O->getString("check");
    auto File = O->getString("file");
    // An object with a check is a record, malformed or not: the input is a
    // log.
    Result.Recognised |= Check.has_value();
    auto L = O->getInteger("line");
    if (!Check || Check->empty() || !File || File->empty()) {
      warnMalformed(Name, LineNo, "record lacks a 'check' or 'file' string");
      continue;
    }
    // Line 0: no source line (tensor-run's records of a backward pass, or
    // of code without debug information): kept, located by file alone.
    if (!L || *L < 0 || *L > UINT32_MAX) {
      warnMalformed(Name, LineNo, "record lacks a non-negative integer 'line'");
      continue;
    }
    Finding F;
    F.From = Origin::Dynamic;
    F.Check = Check->str();
    F.File = normalisePath(*File, BaseDir);
    F.Line = static_cast<unsigned>(*L);
    if (auto C = O->getInteger("column"); C && *C > 0 && *C <= UINT32_MAX) F.Column = static_cast<unsigned>(*C);
    if (auto M = O->getString("message")) F.Message = M->str();
    if (auto Op = O->getString("op")) F.Op = Op->str();
    if (auto Fn = O->getString("function")) F.Function = Fn->str();
    Out.push_back(std::move(F));
  }
  return Result;
}

}  // namespace tensor_tidy::report
