// The TT_* environment variables, each validated where it is read: a
// malformed value is a ConfigurationError (a ValueError without a source
// location) naming the variable and what it accepts
// ("TT_EMULATE_CUDA_DEVICES=999: expected a number of devices from 1 to
// 16"), thrown at the runtime's first use of it, never silently replaced by
// a default. The runtime reads each once and keeps what it got.
#pragma once

#include <string>

#include "tt/validate.h"

namespace tt::detail {

/// TT_EMULATE_CUDA (unset, empty or 0: off; 1: on) and
/// TT_EMULATE_CUDA_DEVICES (1..16, default 1): the number of emulated cuda
/// devices, 0 when emulation is off.
int env_emulated_cuda_devices();

/// TT_VALIDATE: raise (default) or record.
ValidationMode env_validation_mode();

/// TT_VALIDATE_LOG, or "" when unset.
std::string env_validation_log();

/// TT_HOST_CACHE: 1 (default) caches large freed host blocks for reuse,
/// 0 returns every block to the system (host_allocator.h).
bool env_host_cache();

/// TT_CPU_DISPATCH: "" (the best the cpu has), "portable" or "avx2": caps the
/// SIMD of the conversions (cast_simd.cpp) and the optimizer steps (optimizer_step.cpp).
std::string env_cpu_dispatch();

/// TT_BLAS_PREFER_CUBLASLT: 1 runs GPU matrix products on cuBLASLt, 0 or
/// unset on cuBLAS (PyTorch's TORCH_BLAS_PREFER_CUBLASLT; tt/cuda/blas.h).
bool env_prefer_cublaslt();

/// A strict decimal integer in [lo, hi], else false (no sign, no spaces).
bool parse_bounded_int(const char* text, int lo, int hi, int* out);

}  // namespace tt::detail
