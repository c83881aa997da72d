// cuRAND's generator contract on the host (curand.h): per-generator seed
// and offset, every call advancing the offset by what it drew, uniforms in
// (0, 1], Box-Muller normals over even lengths, ordered on the stream.
#include <curand.h>

#include <cmath>
#include <cstdint>
#include <new>

struct tt_curand_generator {
  cudaStream_t stream = nullptr;
  uint64_t seed = 0;
  uint64_t offset = 0;
};

namespace {

// SplitMix64's finaliser over (seed, counter): a counter-based generator,
// so value i of a call depends only on the seed and its position.
uint64_t mix(uint64_t seed, uint64_t counter) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + counter * 0xBF58476D1CE4E5B9ull + 0x94D049BB133111EBull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// (0, 1]: 53 (double) or 24 (float) random bits, plus one.
double uniform_double(uint64_t bits) { return static_cast<double>((bits >> 11) + 1) * 0x1.0p-53; }
float uniform_float(uint64_t bits) { return static_cast<float>((bits >> 40) + 1) * 0x1.0p-24f; }

bool ready(curandGenerator_t g) { return g && cudaStreamSynchronize(g->stream) == cudaSuccess; }

template <class T>
void normals(curandGenerator_t g, T* out, size_t n, T mean, T stddev) {
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  for (size_t i = 0; i < n; i += 2) {
    const double u1 = uniform_double(mix(g->seed, g->offset + i)), u2 = uniform_double(mix(g->seed, g->offset + i + 1));
    const double r = std::sqrt(-2.0 * std::log(u1));
    out[i] = static_cast<T>(mean + stddev * r * std::cos(kTwoPi * u2));
    out[i + 1] = static_cast<T>(mean + stddev * r * std::sin(kTwoPi * u2));
  }
  g->offset += n;
}

}  // namespace

curandStatus_t curandCreateGenerator(curandGenerator_t* generator, curandRngType_t) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  *generator = new (std::nothrow) tt_curand_generator;
  return *generator ? CURAND_STATUS_SUCCESS : CURAND_STATUS_ALLOCATION_FAILED;
}

curandStatus_t curandDestroyGenerator(curandGenerator_t generator) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  delete generator;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  generator->stream = stream;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  generator->seed = seed;
  generator->offset = 0;  // cuRAND: setting the seed resets the offset
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  generator->offset = offset;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGenerateUniform(curandGenerator_t g, float* out, size_t n) {
  if (!ready(g)) return CURAND_STATUS_NOT_INITIALIZED;
  for (size_t i = 0; i < n; ++i) out[i] = uniform_float(mix(g->seed, g->offset + i));
  g->offset += n;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGenerateUniformDouble(curandGenerator_t g, double* out, size_t n) {
  if (!ready(g)) return CURAND_STATUS_NOT_INITIALIZED;
  for (size_t i = 0; i < n; ++i) out[i] = uniform_double(mix(g->seed, g->offset + i));
  g->offset += n;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGenerateNormal(curandGenerator_t g, float* out, size_t n, float mean, float stddev) {
  if (n % 2 != 0) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  if (!ready(g)) return CURAND_STATUS_NOT_INITIALIZED;
  normals(g, out, n, mean, stddev);
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGenerateNormalDouble(curandGenerator_t g, double* out, size_t n, double mean, double stddev) {
  if (n % 2 != 0) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  if (!ready(g)) return CURAND_STATUS_NOT_INITIALIZED;
  normals(g, out, n, mean, stddev);
  return CURAND_STATUS_SUCCESS;
}
