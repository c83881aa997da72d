// Device parsing and printing, with c10::Device's rules and messages.
#include "tt/device.h"

#include <cctype>
#include <ostream>

#include "tt/errors.h"

namespace tt {

Device::Device(DeviceType type, int index, std::source_location loc) : type_(type), index_(static_cast<int8_t>(index)) {
  if (index < -1 || index > 127)
    throw ValueError("Device index must be -1 or non-negative, got " + std::to_string(index), loc);
  if (type == DeviceType::CPU && index > 0)
    throw ValueError("CPU device index must be -1 or zero, got " + std::to_string(index), loc);
}

Device::Device(const std::string& spec, std::source_location loc) : type_(DeviceType::CPU), index_(-1) {
  const auto colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  if (name == "cpu") {
    type_ = DeviceType::CPU;
  } else if (name == "cuda") {
    type_ = DeviceType::CUDA;
  } else {
    throw ValueError("Expected one of cpu, cuda device type at start of device string: " + spec, loc);
  }
  if (colon == std::string::npos) return;
  const std::string idx = spec.substr(colon + 1);
  bool ok = !idx.empty() && idx.size() <= 3 && (idx.size() == 1 || idx[0] != '0');
  for (char c : idx) ok = ok && std::isdigit(static_cast<unsigned char>(c));
  if (!ok || std::stoi(idx) > 127) throw ValueError("Invalid device string: '" + spec + "'", loc);
  index_ = static_cast<int8_t>(std::stoi(idx));
  if (type_ == DeviceType::CPU && index_ != 0) throw ValueError("CPU device index must be -1 or zero, got " + idx, loc);
}

std::string Device::str() const {
  std::string s = is_cpu() ? "cpu" : "cuda";
  if (has_index()) s += ":" + std::to_string(index());
  return s;
}

std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }
std::ostream& operator<<(std::ostream& os, DeviceType t) { return os << (t == DeviceType::CPU ? "cpu" : "cuda"); }

}  // namespace tt
