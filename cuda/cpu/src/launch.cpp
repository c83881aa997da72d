// The one instance of HIP-CPU's launch path (cuda_runtime.h,
// tt::cuda_on_cpu::launch): every kernel reaches it as a std::function.
#include <cuda_runtime.h>

#include <tuple>
#include <utility>

namespace tt::cuda_on_cpu {

void launch_erased(dim3 grid, dim3 block, size_t shared_bytes, hipStream_t stream, std::function<void()> thread) {
  count_kernel_launch();
  hip::detail::launch(
      grid, block, static_cast<std::uint32_t>(shared_bytes), stream,
      [](const std::function<void()>& f) noexcept { f(); }, std::make_tuple(std::move(thread)));
}

}  // namespace tt::cuda_on_cpu
