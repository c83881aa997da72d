// The cuRAND subset cuda/src/random.cu calls, as a host stand-in for the
// TT_CUDA_ON_CPU build (cuRAND's generators run on a GPU). It keeps the
// contract random.cu relies on: a generator per handle, a seed and an
// offset that every call advances by the values it drew (so no two calls
// repeat), uniforms in (0, 1], normals by Box-Muller, even lengths for
// normals, work ordered on the generator's stream. The values are a
// counter-based hash of (seed, offset), not Philox's: this build checks the
// backend's use of the generator, not the generator (docs/runtime.md).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda_runtime.h"

using curandGenerator_t = struct tt_curand_generator*;

enum curandStatus_t {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
};
enum curandRngType_t { CURAND_RNG_PSEUDO_PHILOX4_32_10 = 141 };

curandStatus_t curandCreateGenerator(curandGenerator_t* generator, curandRngType_t type);
curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream);
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed);
curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset);
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float* out, size_t n);
curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double* out, size_t n);
/// n must be even (CURAND_STATUS_LENGTH_NOT_MULTIPLE otherwise), as cuRAND.
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float* out, size_t n, float mean, float stddev);
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double* out, size_t n, double mean,
                                          double stddev);
