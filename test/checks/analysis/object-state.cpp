// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-mixed-dtype %t -- -- %libtorch

// An object of a class of the user's that holds tensors (not a module) is
// followed across the calls of its methods: a method starts from what its
// fields hold at the call, and leaves them as its body does (fit() then
// transform(), reset() then step()). A method whose writes the analysis
// cannot see (it hands out `this`, a lambda captures it, a virtual call
// on `this`), an object that escapes (its address taken, passed by
// reference), a global, and paths that disagree leave the fields unknown.
#include <torch/torch.h>

// fit() keeps float64 components; transform() multiplies float32 by them.
class Pca {
public:
  explicit Pca(int64_t k) : k_(k) {}
  void fit(const torch::Tensor &x) {
    mean_ = x.mean(0, /*keepdim=*/true);
    auto centered = (x - mean_).to(torch::kDouble);
    components_ = centered.t().mm(centered).narrow(1, 0, k_);
  }
  torch::Tensor transform(const torch::Tensor &x) const {
    return (x - mean_).mm(components_);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'mm' does not promote dtypes: 'x - mean_' is float32 and 'components_' is float64 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: 'x - mean_' is float32: computed here
  // CHECK-MESSAGES: :[[@LINE-6]]:32: note: 'components_' is float64: computed here
  // CHECK-MESSAGES: :[[@LINE+11]]:22: note: in the call to 'transform' here
  }

private:
  int64_t k_;
  torch::Tensor mean_, components_;
};

void pca_in_float64_applied_to_float32() {
  Pca pca(4);
  pca.fit(torch::randn({100, 16}));
  auto reduced = pca.transform(torch::randn({8, 16}));
}

// An exponential moving average whose state reset() builds on the cpu.
class Smoother {
public:
  void reset(int64_t n) { state_ = torch::zeros({n}); }
  void to(torch::Device device) { state_ = state_.to(device); }
  torch::Tensor step(const torch::Tensor &x) {
    state_ = 0.9 * state_ + 0.1 * x;
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'operator+' combines tensors on different devices: '0.9 * state_' is on cpu and '0.1 * x' is on cuda [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-2]]:18: note: '0.9 * state_' is on cpu: computed here
    // CHECK-MESSAGES: :[[@LINE-3]]:33: note: '0.1 * x' is on cuda: computed here
    // CHECK-MESSAGES: :[[@LINE+13]]:21: note: in the call to 'step' here
    return state_;
  }
  torch::Tensor get() const { return state_; }

private:
  torch::Tensor state_;
};

void state_reset_on_cpu_then_stepped_on_cuda() {
  torch::Device device(torch::kCUDA);
  Smoother smoother;
  smoother.reset(4);
  auto y = smoother.step(torch::ones({4}, device));
}

void state_read_back_through_a_getter() {
  Smoother smoother;
  smoother.reset(4);
  auto z = smoother.get() + torch::ones({4}, torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'operator+' combines tensors on different devices: 'smoother.get()' is on cpu and 'torch::ones({4}, torch::kCUDA)' is on cuda [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-28]]:36: note: 'smoother.get()' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE-3]]:29: note: 'torch::ones({4}, torch::kCUDA)' is on cuda: created here
}

// The constructor calls reset(), which builds the total on the cpu.
class Tracker {
public:
  Tracker() { reset(); }
  void reset() { total_ = torch::zeros({3}); }
  void add(const torch::Tensor &x) { total_ += x; }
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: 'operator+=' combines tensors on different devices: 'total_' is on cpu and 'x' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:27: note: 'total_' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+9]]:15: note: 'x' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE+8]]:11: note: in the call to 'add' here

private:
  torch::Tensor total_;
};

void total_built_by_the_constructor_on_cpu() {
  Tracker tracker;
  tracker.add(torch::ones({3}, torch::kCUDA));
}

// --- Clean: the same classes used right, and what is not followed. ---

void pca_fitted_and_applied_in_float64() {
  Pca pca(4);
  pca.fit(torch::randn({100, 16}, torch::kDouble));
  auto reduced = pca.transform(torch::randn({8, 16}, torch::kDouble));
}

void state_moved_before_the_step() {
  Smoother smoother;
  smoother.reset(4);
  smoother.to(torch::kCUDA);
  auto y = smoother.step(torch::ones({4}, torch::kCUDA));
  auto z = smoother.get() + torch::ones({4}, torch::kCUDA);
}

void state_stepped_on_cpu() {
  Smoother smoother;
  smoother.reset(4);
  for (int i = 0; i < 3; ++i)
    auto y = smoother.step(torch::ones({4}));
}

void state_moved_on_one_path(bool use_cuda) {
  Smoother smoother;
  smoother.reset(4);
  if (use_cuda)
    smoother.to(torch::kCUDA);
  auto y = smoother.step(torch::ones({4}, torch::kCUDA));
}

void state_moved_through_a_pointer() {
  Smoother smoother;
  smoother.reset(4);
  Smoother *p = &smoother;
  p->to(torch::kCUDA);
  auto y = smoother.step(torch::ones({4}, torch::kCUDA));
}

void move_to_cuda(Smoother &smoother) { smoother.to(torch::kCUDA); }

void state_moved_by_a_callee() {
  Smoother smoother;
  smoother.reset(4);
  move_to_cuda(smoother);
  auto y = smoother.step(torch::ones({4}, torch::kCUDA));
}

void state_moved_by_a_lambda() {
  Smoother smoother;
  smoother.reset(4);
  auto move = [&] { smoother.to(torch::kCUDA); };
  move();
  auto y = smoother.step(torch::ones({4}, torch::kCUDA));
}

void copy_moved() {
  Smoother smoother;
  smoother.reset(4);
  Smoother copy = smoother;
  copy.to(torch::kCUDA);
  auto y = copy.step(torch::ones({4}, torch::kCUDA));
}

Smoother shared_smoother;
void move_shared() { shared_smoother.to(torch::kCUDA); }

void global_object_moved_elsewhere() {
  shared_smoother.reset(4);
  move_shared();
  auto y = shared_smoother.step(torch::ones({4}, torch::kCUDA));
}

void object_of_the_caller(Smoother &smoother) {
  auto y = smoother.step(torch::ones({4}, torch::kCUDA));
}

void tracker_on_cpu() {
  Tracker tracker;
  tracker.add(torch::ones({3}));
}

// A method that hands out `this`: what the receiver does is not seen.
class Registered;
void enroll(Registered *r);
class Registered {
public:
  void reset() {
    state_ = torch::zeros({2});
    enroll(this);
  }
  torch::Tensor use(const torch::Tensor &x) { return state_ + x; }

private:
  torch::Tensor state_;
};

void this_handed_out() {
  Registered r;
  r.reset();
  auto y = r.use(torch::ones({2}, torch::kCUDA));
}

// A lambda that captures `this` writes the state where it runs.
class Lazy {
public:
  void reset() {
    auto to_cuda = [this] { state_ = state_.cuda(); };
    state_ = torch::zeros({2});
    to_cuda();
  }
  torch::Tensor use(const torch::Tensor &x) { return state_ + x; }

private:
  torch::Tensor state_;
};

void written_by_a_lambda_of_the_method() {
  Lazy lazy;
  lazy.reset();
  auto y = lazy.use(torch::ones({2}, torch::kCUDA));
}

// init() calls a virtual method that the derived class overrides.
struct Stage {
  virtual ~Stage() = default;
  void init() { setup(); }
  virtual void setup() {}
};
struct CudaStage : Stage {
  void setup() override { weight_ = weight_.to(torch::kCUDA); }
  void build() { weight_ = torch::zeros({2}); }
  torch::Tensor apply(const torch::Tensor &x) { return weight_ + x; }
  torch::Tensor weight_;
};

void virtual_call_in_a_base_method() {
  CudaStage stage;
  stage.build();
  stage.init();
  auto y = stage.apply(torch::ones({2}, torch::kCUDA));
}

// A member placed on the constructor's device parameter, which also sets a
// Device member (reduced from a reinforcement-learning rollout storage):
// the caller saw the cpu given to the constructor, the method reads
// `device` as the member's symbol. Both are one value: no finding.
struct Rollouts {
  Rollouts(int64_t n, torch::Device device) : device(device) {
    masks = torch::ones({n, 1}, torch::TensorOptions(device));
  }
  void returns(float gamma) {
    torch::Tensor gae = torch::zeros({1}, torch::TensorOptions(device));
    for (int step = 2; step >= 0; --step)
      gae = gamma * masks[step + 1] * gae;
  }
  torch::Tensor masks;
  torch::Device device;
};

void rollouts_on_the_cpu() {
  Rollouts storage(4, torch::kCPU);
  storage.returns(0.5);
}

// The same class built on cuda, mixed with a cpu tensor in a method: the
// member is on 'device', which is cuda here.
struct CudaRollouts {
  CudaRollouts(int64_t n, torch::Device device) : device(device) {
    masks = torch::ones({n, 1}, torch::TensorOptions(device));
  }
  torch::Tensor discounted(float gamma) {
    return masks * torch::full({1}, gamma);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'operator*' combines tensors on different devices: 'masks' is on 'device' and 'torch::full({1}, gamma)' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:13: note: 'masks' is on 'device': created here
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'torch::full({1}, gamma)' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+8]]:20: note: in the call to 'discounted' here
  }
  torch::Tensor masks;
  torch::Device device;
};

void rollouts_on_cuda() {
  CudaRollouts storage(4, torch::kCUDA);
  auto d = storage.discounted(0.5);
  auto first = storage.discounted(0.9);
}

// A member the constructor puts on the cpu whatever its device parameter:
// the caller's cpu stays, and meets the Device member's cuda.
struct Normaliser {
  explicit Normaliser(torch::Device device) : device(device) {
    mean = torch::zeros({3});
  }
  torch::Tensor apply(const torch::Tensor &x) { return x.to(device) - mean; }
  // CHECK-MESSAGES: :[[@LINE-1]]:69: warning: 'operator-' combines tensors on different devices: 'x.to(device)' is on 'device' and 'mean' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:58: note: 'x.to(device)' is on 'device': moved here
  // CHECK-MESSAGES: :[[@LINE-5]]:12: note: 'mean' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+7]]:14: note: in the call to 'apply' here
  torch::Tensor mean;
  torch::Device device;
};

void normaliser_on_cuda() {
  Normaliser n(torch::kCUDA);
  auto y = n.apply(torch::ones({3}));
}
