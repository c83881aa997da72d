// tt::save / tt::load of a module's state (parameters and buffers), as
// torch::save(model, path) / torch::load(model, path), in tt's own format
// (docs/runtime.md, "Checkpoint format"): magic, version, one CRC-32 per
// tensor and one over the whole file.
#pragma once

#include <memory>
#include <string>

#include "tt/nn/module.h"

namespace tt {

/// Writes every named parameter and buffer of module (as cpu,
/// little-endian, contiguous data) to path, through a temporary file
/// renamed into place, so a crash never leaves a half-written checkpoint
/// under path. tt::Error when the file cannot be written.
void save(const nn::Module& module, const std::string& path, SourceLoc loc = SourceLoc::current());

/// Reads path into module's parameters and buffers, converting to each
/// one's current device and dtype. All-or-nothing: the whole file is read
/// and checked (magic, version, sizes, checksums, that names, shapes and
/// the entry count match the module, as load_state_dict(strict=True))
/// before any parameter changes; on any problem tt::Error says what is
/// wrong ("... is truncated", "checksum mismatch in 'fc1.weight'",
/// "Missing key(s) in state_dict: \"fc2.bias\"", "size mismatch for
/// fc1.weight: ...") and the module is untouched.
void load(nn::Module& module, const std::string& path, SourceLoc loc = SourceLoc::current());

template <class M>
void save(const std::shared_ptr<M>& module, const std::string& path, SourceLoc loc = SourceLoc::current()) {
  save(static_cast<const nn::Module&>(*module), path, loc);
}
template <class M>
void load(const std::shared_ptr<M>& module, const std::string& path, SourceLoc loc = SourceLoc::current()) {
  load(static_cast<nn::Module&>(*module), path, loc);
}

}  // namespace tt
