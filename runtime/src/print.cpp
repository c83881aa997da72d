// Printing tensors the way LibTorch does (values, then a type footer).
#include <iomanip>
#include <ostream>

#include "dtype_dispatch.h"
#include "internal_ops.h"
#include "tensor_impl.h"
#include "tt/tensor.h"

namespace tt {

namespace {
void print_values(std::ostream& os, const detail::TensorImpl& t, size_t dim, int64_t offset) {
  if (dim == t.sizes.size()) {
    detail::visit_dtype(t.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T v = reinterpret_cast<const T*>(t.storage->data)[offset];
      if constexpr (std::is_integral_v<T>)
        os << static_cast<int64_t>(v);
      else
        os << static_cast<double>(static_cast<detail::opmath_t<T>>(v));
    });
    return;
  }
  os << (dim + 1 == t.sizes.size() ? "" : "") << '[';
  for (int64_t i = 0; i < t.sizes[dim]; ++i) {
    if (i) os << (dim + 1 == t.sizes.size() ? ", " : ",\n ");
    print_values(os, t, dim + 1, offset + i * t.strides[dim]);
  }
  os << ']';
}
}  // namespace

std::ostream& operator<<(std::ostream& os, const Tensor& t) {
  if (!t.defined()) return os << "[ Tensor (undefined) ]";
  const auto loc = std::source_location::current();
  Tensor host = detail::to_device_internal(t, Device(kCPU), loc);
  const auto& hi = detail::impl_of(host, loc);
  const auto& ti = detail::impl_of(t, loc);
  print_values(os, hi, 0, hi.offset);
  os << "\n[ " << (ti.device().is_cpu() ? "CPU" : "CUDA") << to_string(ti.dtype) << "Type{";
  for (size_t i = 0; i < ti.sizes.size(); ++i) os << (i ? "," : "") << ti.sizes[i];
  os << "}";
  if (ti.device().is_cuda()) os << " on " << ti.device();
  return os << " ]";
}

}  // namespace tt
