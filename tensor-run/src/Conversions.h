// tensor-discarded-cast at run time: a conversion that the user's code made
// (x.to(device), x.to(kHalf), x.cuda()) whose result is destroyed before any
// op read it. The static check reports a conversion call whose value is
// thrown away at the statement; the run-time rule that matches it is "the
// result's storage was freed unread, on the converting thread, before the
// thread ran another op" (a result kept in a variable and used later is
// read; one kept and never used outlives other ops and is not reported).
//
// Only results on emulated devices are tracked: their storages come from
// DeviceMemory, whose header carries the mark, and every op on them passes
// tensor-run's kernels, which clear it. A conversion to the cpu is not seen.
#pragma once

#include <ATen/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>

#include <cstdint>
#include <thread>
#include <vector>

namespace tensor_run {

/// Where and what a conversion was, kept until its result is read or freed.
struct ConversionSite {
  std::vector<void*> stack;  // captured in the conversion
  c10::Device from_device{c10::DeviceType::CPU};
  c10::Device to_device{c10::DeviceType::CPU};
  c10::ScalarType from_dtype = c10::ScalarType::Float;
  c10::ScalarType to_dtype = c10::ScalarType::Float;
  std::thread::id thread;
  std::uint64_t ops_before = 0;  // the thread's op count when the conversion returned
};

/// Counts an op run by tensor-run's kernels on the calling thread.
void note_op() noexcept;

/// Marks t's storage read (an op used it): its conversion, if any, was not
/// discarded.
void mark_read(const at::Tensor& t) noexcept;

/// Called when a marked storage is freed unread: reports it if the rule
/// above holds, and deletes the site.
void report_discarded(ConversionSite* site) noexcept;

/// The kernel for aten::_to_copy on cpu and cuda tensors: ATen's own
/// (at::native::_to_copy), plus the mark on a fresh result on an emulated
/// device.
at::Tensor to_copy(const at::Tensor& self, c10::optional<c10::ScalarType> dtype, c10::optional<c10::Layout> layout,
                   c10::optional<c10::Device> device, c10::optional<bool> pin_memory, bool non_blocking,
                   c10::optional<c10::MemoryFormat> memory_format);

}  // namespace tensor_run
