// Grad mode: tt::NoGradGuard and friends, as torch::NoGradGuard. The
// per-tensor side of autograd (requires_grad, backward, grad, detach) is on
// tt::Tensor; docs/runtime.md, "Autograd", has the rules.
#pragma once

namespace tt {

/// Whether ops record history on this thread (torch::GradMode). On by
/// default in every thread.
struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

/// Sets grad mode for a scope, restoring the previous mode on exit
/// (torch::AutoGradMode).
class AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled) : prev_(GradMode::is_enabled()) { GradMode::set_enabled(enabled); }
  ~AutoGradMode() { GradMode::set_enabled(prev_); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;

 private:
  bool prev_;
};

/// No history is recorded in its scope: results of ops have
/// requires_grad() == false, and in-place updates of parameters are allowed
/// (optimizers, initialisation), as torch::NoGradGuard.
class NoGradGuard : public AutoGradMode {
 public:
  NoGradGuard() : AutoGradMode(false) {}
};

}  // namespace tt
