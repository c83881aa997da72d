#include "Recorder.h"

#include <c10/util/Backtrace.h>
#include <c10/util/Exception.h>

#include <unistd.h>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <sstream>

#include "Config.h"
#include "Frames.h"
#include "TorchVersion.h"
#include "tt/validation_log.h"

namespace tensor_run {

namespace {

constexpr std::size_t npos = static_cast<std::size_t>(-1);

std::string hex(std::uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%zx", static_cast<std::size_t>(v));
  return buf;
}

// The frame a record without a user frame of its own is filed under: the
// innermost frame of the program, or the innermost frame at all.
const Frame* fallback_frame(const std::vector<Frame>& frames) {
  for (const Frame& f : frames)
    if (f.kind == ObjectKind::Program) return &f;
  return frames.empty() ? nullptr : &frames.front();
}

// The autograd node running when the engine's thread, which has no user
// frame, meets a violation: "AccumulateGrad", "AddmmBackward0".
std::string backward_node(const std::vector<Frame>& frames) {
  for (const Frame& f : frames) {
    const std::string name = qualified_name(f.function);
    if (name.rfind("torch::autograd::", 0) != 0 || name.rfind("torch::autograd::Engine::", 0) == 0) continue;
    const std::string node = name.substr(0, name.rfind("::"));
    return node.substr(node.rfind("::") + 2);
  }
  return "";
}

bool in_backward(const std::vector<Frame>& frames) {
  for (const Frame& f : frames)
    if (qualified_name(f.function).rfind("torch::autograd::Engine::", 0) == 0) return true;
  return false;
}

// A string that lives until exit, for c10::SourceLocation's char pointers.
const char* intern(const std::string& s) {
  static std::mutex mu;
  static auto* strings = new std::set<std::string>;  // leaked: errors may outlive everything
  std::lock_guard<std::mutex> lock(mu);
  return strings->insert(s).first->c_str();
}

std::string program_path() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("(program)");
}

std::string module_note(const Violation& v, const Placement& where) {
  if (!v.parameter_involved || where.check != "tensor-unmoved-input") return "";
  const std::string layer = where.module.empty() ? "module" : "module " + where.module;
  return " (" + layer + "'s parameters are on " + v.parameter_side + ", its input is on " + v.input_side + ")";
}

tt::ValidationRecord to_record(const Violation& v, const Placement& where, const std::vector<Frame>& frames) {
  tt::ValidationRecord r;
  r.check = where.check;
  r.op = v.op;
  r.message = v.message + module_note(v, where);
  r.devices = v.devices;
  r.dtypes = v.dtypes;
  if (where.frame == npos && in_backward(frames)) {
    // The engine's thread: no frame of the user's. The record names the
    // program and the autograd node, without a line.
    r.file = program_path();
    r.function = "backward pass (" + backward_node(frames) + ")";
    return r;
  }
  const Frame* f = where.frame != npos ? &frames[where.frame] : fallback_frame(frames);
  if (f) {
    if (!f->file.empty() && f->line > 0) {
      r.file = f->file;
      r.line = f->line;
      r.column = f->column;
      r.function = short_function_name(f->function);
    } else {
      // No debug info: the object and the function with its offset
      // (docs/tensor-run.md, "Source locations").
      r.file = f->object;
      r.function =
          (f->function.empty() ? std::string("?") : short_function_name(f->function)) + " at " + hex(f->offset);
    }
  }
  if (r.file.empty()) r.file = "(unknown)";
  return r;
}

// Records that could not be written (a full disk, /dev/full, a log removed
// under the program): counted, so the run cannot end as if it were complete.
std::atomic<unsigned> g_lost_records{0};

void write(const tt::ValidationRecord& r) noexcept {
  std::string error;
  if (!tt::append_validation_record(config().log_path, r, &error)) {
    ++g_lost_records;
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true)) std::fprintf(stderr, "tensor-run: validation log: %s\n", error.c_str());
  }
}

// Where a violation without a line of the user's was raised, for c10's
// "Exception raised from ..." line: the program and the autograd node, or
// the function and object of the fallback frame. Never a file of
// tensor-run's own source tree, which does not exist where it is installed.
std::string raised_from(const Placement& where, const std::vector<Frame>& frames) {
  if (where.frame == npos && in_backward(frames))
    return "the backward pass (" + backward_node(frames) + ") of " + program_path();
  const Frame* f = where.frame != npos ? &frames[where.frame] : fallback_frame(frames);
  if (!f) return program_path();
  if (!f->file.empty() && f->line > 0)
    return short_function_name(f->function) + " at " + f->file + ":" + std::to_string(f->line);
  return (f->function.empty() ? std::string("?") : short_function_name(f->function)) + " at " + f->object + " " +
         hex(f->offset);
}

}  // namespace

std::string located_message(const std::string& message, const Placement& where, const std::vector<Frame>& frames) {
  std::ostringstream s;
  s << message << "\n[tensor-run] " << where.check;
  if (where.frame == npos && in_backward(frames)) {
    s << " during the backward pass (" << backward_node(frames) << ")";
    return s.str();
  }
  const Frame* f = where.frame != npos ? &frames[where.frame] : fallback_frame(frames);
  if (f) {
    if (!f->file.empty() && f->line > 0) {
      s << " at " << f->file << ':' << f->line;
      if (f->column) s << ':' << f->column;
    } else {
      s << " at " << f->object << " " << hex(f->offset);
    }
    if (!f->function.empty()) s << " in " << short_function_name(f->function);
  }
  return s.str();
}

// TENSOR_RUN_DEBUG_FRAMES=1: every violation's frames and where it was placed, on stderr.
static void dump_frames(const std::vector<Frame>& frames, const Placement& where) {
  static const bool enabled = std::getenv("TENSOR_RUN_DEBUG_FRAMES") != nullptr;
  if (!enabled) return;
  static const char* kinds[] = {"program", "libtorch", "system", "self"};
  std::fprintf(stderr, "[tensor-run] %s, placed at frame %zd:\n", where.check.c_str(),
               where.frame == npos ? -1 : static_cast<std::ptrdiff_t>(where.frame));
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Frame& f = frames[i];
    std::fprintf(stderr, "  #%zu %s%s %s %s:%u:%u %s+%s\n", i, kinds[static_cast<int>(f.kind)],
                 is_user_frame(f) ? " user" : "", f.function.c_str(), f.file.c_str(), f.line, f.column,
                 f.object.c_str(), hex(f.offset).c_str());
  }
}

Reported report(const Violation& v) {
  const std::vector<Frame> frames = symbolize(capture_stack());
  const Placement where = place(v.kind, v.parameter_involved, frames);
  dump_frames(frames, where);
  if (config().mode == Mode::Raise) {
    const std::string msg = located_message(v.message + module_note(v, where), where, frames);
    // c10::Error names where it was raised: the user's line, not this file
    // (TORCH_CHECK would name Recorder.cpp of tensor-run's build tree).
    const Frame* f = where.frame != npos ? &frames[where.frame] : nullptr;
    if (f && !f->file.empty() && f->line > 0)
      throw c10::Error(c10::SourceLocation{intern(short_function_name(f->function)), intern(f->file), f->line}, msg);
    std::string backtrace = "Exception raised from " + raised_from(where, frames) + " (most recent call first):\n" +
                            c10::get_backtrace(/*frames_to_skip=*/1);
#if TENSOR_RUN_TORCH_LAZY_BACKTRACE
    throw c10::Error(msg, std::make_shared<c10::PrecomputedLazyValue<std::string>>(std::move(backtrace)));
#else
    throw c10::Error(msg, std::move(backtrace));
#endif
  }
  if (v.seen_before && in_backward(frames)) return Reported::Consequence;
  write(to_record(v, where, frames));
  return Reported::Recorded;
}

unsigned lost_records() noexcept { return g_lost_records.load(); }

void report_discarded_cast(const Violation& v, const std::vector<void*>& stack) noexcept {
  try {
    const std::vector<Frame> frames = symbolize(stack);
    const Placement where = place(ViolationKind::DiscardedCast, false, frames);
    dump_frames(frames, where);
    if (where.frame == npos) return;  // a library's conversion
    // Kept in a variable and only its shape read (`auto batch = b.to(d);
    // if (batch.size(0) < n) continue;`): no op reads its memory, but it is
    // destroyed at its scope's end, not at its statement's. A temporary dies
    // on the line of the call that made it, in the same function.
    const std::vector<Frame> freed = symbolize(capture_stack());
    const Placement end = place(ViolationKind::DiscardedCast, false, freed);
    if (end.frame != npos) {
      const Frame &made = frames[where.frame], &died = freed[end.frame];
      if (died.file == made.file && died.function == made.function && died.line != 0 && died.line != made.line) return;
    }
    const tt::ValidationRecord r = to_record(v, where, frames);
    if (config().mode == Mode::Record) {
      write(r);
      return;
    }
    static std::mutex mu;
    static auto* warned = new std::set<std::pair<std::string, unsigned>>;  // leaked: may run at exit
    std::lock_guard<std::mutex> lock(mu);
    if (warned->insert({r.file, r.line}).second)
      std::fprintf(stderr, "[tensor-run] warning: %s:%u:%u: %s [tensor-discarded-cast]\n", r.file.c_str(), r.line,
                   r.column, r.message.c_str());
  } catch (...) {
    // A destructor's report must not throw; losing it is the lesser harm.
  }
}

}  // namespace tensor_run
