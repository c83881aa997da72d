// Internal: type promotion and device unification. The one place where
// device and dtype decisions are made, checked, and raised or recorded
// (TT_VALIDATE); nothing else in the runtime compares devices or mixes dtypes.
#pragma once

#include <source_location>
#include <string>
#include <vector>

#include "conversion_marks.h"
#include "tensor_impl.h"
#include "tt/scalar.h"
#include "tt/tensor.h"

namespace tt::detail {

// The device an op runs on, after TensorIterator's rule: the first non-cpu
// device among operands is the common device; a 0-dim cpu tensor may join it
// when allow_cpu_scalars. On a violation: DeviceMismatchError in raise mode;
// in record mode a tensor-mixed-device record, then every offending operand
// is moved to the device the first operand wants, so `operands` may change.
Device unify_devices(std::vector<Tensor>& operands, const char* op, const std::source_location& loc,
                     bool allow_cpu_scalars = true);

// torch.result_type with dimension categories over tensors and C++ scalars.
ScalarType result_type(const std::vector<const Tensor*>& tensors, const std::vector<const Scalar*>& scalars);

// Ops that do not promote (matmul family): raise DTypeMismatchError(message),
// or record tensor-mixed-dtype and cast b to a's dtype.
void require_same_dtype(Tensor& a, Tensor& b, const char* op, const std::string& message,
                        const std::source_location& loc);

// In-place ops: the promoted result must be castable into self
// (c10::canCast); raise DTypeMismatchError "result type Float can't be cast
// to the desired output type Long", or record tensor-mixed-dtype and let the
// op write the result cast to self's dtype.
void check_inplace_result(ScalarType result, ScalarType self_dtype, Device device, const char* op,
                          const std::source_location& loc);

// A device to create or move a tensor on: resolves cuda's -1 index to the
// current device (0) and checks a backend exists (CudaUnavailableError
// "CUDA is not available"; "CUDA error: invalid device ordinal"). Not
// recordable: without the device nothing can continue.
Device resolve_device(Device d, const std::source_location& loc);

// Throws unless kernels may run on d's memory: the cpu kernels (cpu,
// emulated cuda) or a registered device kernel table (cuda/ on a GPU).
void require_host_kernels(Device d, const std::source_location& loc);

// Records a conversion result destroyed unread (conversion_marks.cpp, as
// the tensor dies).
void report_discarded_conversion(const ConversionSite& site) noexcept;

}  // namespace tt::detail
