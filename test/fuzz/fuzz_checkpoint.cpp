// libFuzzer harness: tt::load of any bytes into a small model. A damaged
// checkpoint must be a tt::Error that leaves the model as it was.
#include <tt/errors.h>
#include <tt/nn.h>

#include "FuzzInput.h"

namespace {
struct Model : tt::nn::Module {
  Model() {
    fc1 = register_module("fc1", std::make_shared<tt::nn::Linear>(4, 3));
    fc2 = register_module("fc2", std::make_shared<tt::nn::Linear>(3, 2));
  }
  std::shared_ptr<tt::nn::Linear> fc1, fc2;
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Model m;
  try {
    tt::load(m, tt_fuzz::as_file(data, size));
  } catch (const tt::Error&) {
  }
  return 0;
}
