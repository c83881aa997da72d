// Public: the streams tt's CUDA backend orders its work on, for programs
// that mix their own CUDA code with tt (events, side streams, interop).
#pragma once

#include <cuda_runtime_api.h>

namespace tt::cuda {

/// The stream every tt kernel, copy and stream-ordered allocation on device
/// `index` is queued on (PyTorch: at::cuda::getCurrentCUDAStream). A
/// non-blocking stream created once per device, so it never waits for work
/// on the legacy default stream. Throws tt::Error without a real GPU.
cudaStream_t current_stream(int index = 0);

/// Blocks until tt's work queued on device `index` has finished
/// (torch.cuda.synchronize); surfaces asynchronous kernel errors and the
/// ops' deferred checks of device values (a target out of bounds: ATen
/// reports those as device-side asserts at this point).
void synchronize(int index = 0);

}  // namespace tt::cuda
