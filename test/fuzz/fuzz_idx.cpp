// libFuzzer harness: tt::data::read_idx on any bytes, plain and gzip (the
// reader inflates what gzopen recognises). Errors are tt::Error; anything
// else — a crash, a sanitizer report, another exception — is a finding.
#include <tt/data/idx.h>
#include <tt/errors.h>
#include <tt/ops.h>

#include "FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    tt::Tensor t = tt::data::read_idx(tt_fuzz::as_file(data, size));
    // What the data set code does next: read every element.
    if (t.numel() > 0) (void)t.to(tt::kFloat64).sum().item<double>();
  } catch (const tt::Error&) {
  }
  return 0;
}
