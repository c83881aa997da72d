// The precompiled header shared by the tests against the real LibTorch
// headers (Debian libtorch-dev): the whole public C++ API, parsed once.
#include <torch/torch.h>
