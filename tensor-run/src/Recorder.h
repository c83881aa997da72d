// Turns a violation into what the user sees: in raise mode LibTorch's own
// c10::Error with the cuda build's message and the user's file:line; in
// record mode one record of the validation log (tt/validation_log.h), placed
// and classified as the static checks report it (Sites.h), after which the
// op continues.
#pragma once

#include <string>
#include <vector>

#include "Sites.h"

namespace tensor_run {

struct Violation {
  ViolationKind kind = ViolationKind::Device;
  std::string op;                    // the op that saw it, e.g. "addmm", "to"
  std::string message;               // the cuda build's wording
  std::vector<std::string> devices;  // [common, offending] or [from, to]
  std::vector<std::string> dtypes;
  /// A module parameter is one of the mismatched operands: its device or
  /// dtype and the other operand's, for the module note.
  bool parameter_involved = false;
  std::string parameter_side, input_side;
  /// One of the operands was the offender of a violation recorded earlier.
  /// Met again in a backward pass, this is that violation's consequence (the
  /// forward was repaired on the fly, the backward got the saved original)
  /// and is not recorded twice.
  bool seen_before = false;
};

/// What report() did.
enum class Reported { Raised, Recorded, Consequence };

/// Reports a violation the calling thread just met. Raise mode: throws
/// c10::Error. Record mode: appends a record (or, for a consequence, nothing)
/// and returns.
Reported report(const Violation& v);

/// Reports a discarded conversion whose stack was captured at the
/// conversion (it is noticed later, when its storage is freed). Never
/// throws: raise mode warns once per site on stderr instead, as a
/// destructor cannot throw. Silent when the conversion was a library's.
void report_discarded_cast(const Violation& v, const std::vector<void*>& stack) noexcept;

/// How many records could not be written to the log (record mode). The
/// library ends a run that lost any with exit status 2 (Startup.cpp), so a
/// log missing records never passes for a complete one.
unsigned lost_records() noexcept;

/// The message with the user's location appended, as raise mode throws it
/// (exposed for tests): "<message>\n[tensor-run] <check> at <file>:<line>:<col> in <function>"
/// (the function's template arguments shortened, short_function_name), or
/// "... during the backward pass (<autograd node>)" when no frame is the user's.
std::string located_message(const std::string& message, const Placement& where, const std::vector<Frame>& frames);

}  // namespace tensor_run
