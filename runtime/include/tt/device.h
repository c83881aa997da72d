// Device: where a tensor's memory lives. Mirrors c10::Device.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <source_location>
#include <string>

namespace tt {

/// Kind of device. Mirrors c10::DeviceType (only the two this runtime knows).
enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };

constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;

/// A device: a type and an optional index (-1 = "the current one").
/// Mirrors c10::Device: `Device(kCUDA)` has index -1 and prints `cuda`,
/// `Device("cuda:1")` prints `cuda:1`, CPU prints `cpu`. Tensors always
/// carry a concrete index for CUDA (factories resolve -1 to the current
/// device, 0), so the device rules compare like PyTorch's.
/// Throws ValueError on a malformed string ("Invalid device string: 'x'")
/// or a CPU index other than -1/0.
class Device {
 public:
  /* implicit */ Device(DeviceType type, int index = -1, std::source_location loc = std::source_location::current());
  /* implicit */ Device(const std::string& spec, std::source_location loc = std::source_location::current());
  /* implicit */ Device(const char* spec, std::source_location loc = std::source_location::current())
      : Device(std::string(spec), loc) {}

  DeviceType type() const noexcept { return type_; }
  int index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  /// `cpu`, `cuda` or `cuda:N`.
  std::string str() const;

  bool operator==(const Device& o) const noexcept { return type_ == o.type_ && index_ == o.index_; }
  bool operator!=(const Device& o) const noexcept { return !(*this == o); }

 private:
  DeviceType type_;
  int8_t index_;
};

std::ostream& operator<<(std::ostream& os, const Device& d);
std::ostream& operator<<(std::ostream& os, DeviceType t);

}  // namespace tt

template <>
struct std::hash<tt::Device> {
  size_t operator()(const tt::Device& d) const noexcept {
    return (static_cast<size_t>(d.type()) << 16) ^ static_cast<size_t>(d.index() + 1);
  }
};
