// CUDA status -> tt::Error (see check.h).
#include "check.h"

#include <string>

#include "tt/errors.h"

namespace tt::cuda_backend {

void check(cudaError_t err, const char* what, const std::source_location& where) {
  if (err == cudaSuccess) return;
  (void)cudaGetLastError();  // clear it: the error is reported once, by this throw
  std::string msg = err == cudaErrorMemoryAllocation ? "CUDA out of memory. " : "CUDA error: ";
  msg += cudaGetErrorString(err);
  msg += " (";
  msg += what;
  msg += ")";
  throw Error(msg, where);
}

void check(cublasStatus_t st, const char* what, const std::source_location& where) {
  if (st == CUBLAS_STATUS_SUCCESS) return;
  throw Error(std::string("cuBLAS error: ") + cublasGetStatusName(st) + " (" + what + ")", where);
}

void check(curandStatus_t st, const char* what, const std::source_location& where) {
  if (st == CURAND_STATUS_SUCCESS) return;
  throw Error("cuRAND error: " + std::to_string(static_cast<int>(st)) + " (" + what + ")", where);
}

}  // namespace tt::cuda_backend
