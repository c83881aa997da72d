// The checkpoint format (all integers little-endian):
//
//   file    := header entry* trailer
//   header  := "TTSTATE\0" (8 bytes) | u32 version (1) | u32 entry count
//   entry   := u32 name length | name (UTF-8) | u8 kind (0 parameter, 1 buffer)
//              | u8 dtype (tt::ScalarType's value) | u32 ndim | i64 sizes[ndim]
//              | u64 data bytes | data (contiguous, little-endian)
//              | u32 CRC-32 of everything in the entry before it
//   trailer := u32 CRC-32 of every byte before it | "TTEND\0\0\0"
//
// load() reads the whole file, checks the trailer (truncation), the file
// CRC (any flipped bit), then parses every entry with bounds checks into
// staged cpu tensors, compares names, kinds and shapes with the module, and
// only then copies into the module.
#include "tt/nn/serialize.h"

#include <zlib.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "tt/autograd.h"
#include "tt/errors.h"
#include "tt/factories.h"

namespace tt {

namespace {

constexpr char kMagic[8] = {'T', 'T', 'S', 'T', 'A', 'T', 'E', '\0'};
constexpr char kEnd[8] = {'T', 'T', 'E', 'N', 'D', '\0', '\0', '\0'};
constexpr uint32_t kVersion = 1;
constexpr size_t kTrailer = 4 + sizeof(kEnd);

static_assert(std::endian::native == std::endian::little, "the checkpoint writer assumes a little-endian host");

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

uint32_t crc(const char* p, size_t n) {
  uLong c = crc32(0L, Z_NULL, 0);
  while (n > 0) {
    const uInt chunk = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    c = crc32(c, reinterpret_cast<const Bytef*>(p), chunk);
    p += chunk;
    n -= chunk;
  }
  return static_cast<uint32_t>(c);
}

struct Entry {
  std::string name;
  uint8_t kind;
  Tensor tensor;
};

std::vector<Entry> entries_of(const nn::Module& m) {
  std::vector<Entry> out;
  for (auto& [n, t] : m.named_parameters()) out.push_back({n, 0, t});
  for (auto& [n, t] : m.named_buffers()) out.push_back({n, 1, t});
  return out;
}

std::string shape_of(const std::vector<int64_t>& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

// Bounds-checked reading of the in-memory file.
class Reader {
 public:
  Reader(const std::string& buf, size_t end, const std::string& path, const SourceLoc& loc)
      : buf_(buf), end_(end), path_(path), loc_(loc) {}
  template <class T>
  T get(const char* what) {
    T v;
    std::memcpy(&v, take(sizeof(T), what), sizeof(T));
    return v;
  }
  const char* take(size_t n, const char* what) {
    if (n > end_ - pos_) fail(std::string("is corrupt: the ") + what + " runs past the end of the data");
    const char* p = buf_.data() + pos_;
    pos_ += n;
    return p;
  }
  size_t pos() const { return pos_; }
  [[noreturn]] void fail(const std::string& why) const { throw Error("checkpoint '" + path_ + "' " + why, loc_); }

 private:
  const std::string& buf_;
  size_t end_, pos_ = 0;
  const std::string& path_;
  const SourceLoc& loc_;
};

}  // namespace

void save(const nn::Module& module, const std::string& path, SourceLoc loc) {
  const auto entries = entries_of(module);
  std::string out(kMagic, sizeof(kMagic));
  put<uint32_t>(out, kVersion);
  put<uint32_t>(out, static_cast<uint32_t>(entries.size()));
  for (const auto& e : entries) {
    const size_t start = out.size();
    Tensor t = e.tensor.detach().cpu(loc).contiguous(loc);
    put<uint32_t>(out, static_cast<uint32_t>(e.name.size()));
    out += e.name;
    put<uint8_t>(out, e.kind);
    put<uint8_t>(out, static_cast<uint8_t>(t.dtype(loc)));
    put<uint32_t>(out, static_cast<uint32_t>(t.dim(loc)));
    for (int64_t s : t.sizes(loc)) put<int64_t>(out, s);
    put<uint64_t>(out, static_cast<uint64_t>(t.nbytes(loc)));
    out.append(static_cast<const char*>(t.data_ptr(loc)), t.nbytes(loc));
    put<uint32_t>(out, crc(out.data() + start, out.size() - start));
  }
  put<uint32_t>(out, crc(out.data(), out.size()));
  out.append(kEnd, sizeof(kEnd));

  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
    f.flush();
    if (!f) {
      std::filesystem::remove(tmp);
      throw Error("cannot write checkpoint '" + path + "'", loc);
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw Error("cannot write checkpoint '" + path + "': " + ec.message(), loc);
  }
}

void load(nn::Module& module, const std::string& path, SourceLoc loc) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error("cannot open checkpoint '" + path + "': it is a directory", loc);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot open checkpoint '" + path + "': " + std::strerror(errno), loc);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string buf = ss.str();
  const std::string where = "checkpoint '" + path + "'";

  if (buf.size() < sizeof(kMagic) || std::memcmp(buf.data(), kMagic, sizeof(kMagic)) != 0)
    throw Error(where + " is not a tt checkpoint (bad magic number)", loc);
  if (buf.size() < sizeof(kMagic) + 8 + kTrailer ||
      std::memcmp(buf.data() + buf.size() - sizeof(kEnd), kEnd, sizeof(kEnd)) != 0)
    throw Error(where + " is truncated (no end marker; " + std::to_string(buf.size()) + " bytes)", loc);
  const size_t body = buf.size() - kTrailer;
  uint32_t file_crc;
  std::memcpy(&file_crc, buf.data() + body, 4);
  Reader r(buf, body, path, loc);
  r.take(sizeof(kMagic), "magic number");
  const auto version = r.get<uint32_t>("version");
  if (version != kVersion)
    throw Error(where + " has format version " + std::to_string(version) + "; this tt reads version " +
                    std::to_string(kVersion),
                loc);
  if (crc(buf.data(), body) != file_crc) {
    // Find the damaged entry for the message when the structure still parses.
    throw Error(where + " is corrupt: checksum mismatch (the file was modified or damaged after it was written)", loc);
  }
  const auto count = r.get<uint32_t>("entry count");

  std::map<std::string, std::pair<uint8_t, Tensor>> staged;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t start = r.pos();
    const auto name_len = r.get<uint32_t>("name length");
    std::string name(r.take(name_len, "name"), name_len);
    const auto kind = r.get<uint8_t>("kind");
    const auto dtype_code = r.get<uint8_t>("dtype");
    const auto ndim = r.get<uint32_t>("rank");
    if (ndim > 64) r.fail("is corrupt: '" + name + "' claims " + std::to_string(ndim) + " dimensions");
    std::vector<int64_t> sizes(ndim);
    uint64_t numel = 1;
    for (auto& s : sizes) {
      s = r.get<int64_t>("sizes");
      if (s < 0) r.fail("is corrupt: '" + name + "' has a negative size");
      numel *= static_cast<uint64_t>(s);
    }
    const auto nbytes = r.get<uint64_t>("byte count");
    if (dtype_code > static_cast<uint8_t>(ScalarType::Bool) || kind > 1)
      r.fail("is corrupt: '" + name + "' has an unknown dtype or kind");
    const auto dtype = static_cast<ScalarType>(dtype_code);
    if (nbytes != numel * element_size(dtype)) r.fail("is corrupt: '" + name + "' has an inconsistent byte count");
    const char* data = r.take(nbytes, "tensor data");
    const uint32_t entry_crc = crc(buf.data() + start, r.pos() - start);
    if (r.get<uint32_t>("entry checksum") != entry_crc) r.fail("is corrupt: checksum mismatch in '" + name + "'");
    Tensor t = empty(sizes, dtype, loc);
    if (nbytes) std::memcpy(t.data_ptr(loc), data, nbytes);
    if (!staged.emplace(name, std::make_pair(kind, t)).second) r.fail("is corrupt: duplicate entry '" + name + "'");
  }
  if (r.pos() != body) r.fail("is corrupt: trailing bytes after the last entry");

  // Strict matching against the module, as load_state_dict(strict=True).
  const auto entries = entries_of(module);
  std::string missing, unexpected, mismatch;
  std::map<std::string, bool> known;
  for (const auto& e : entries) {
    known[e.name] = true;
    auto it = staged.find(e.name);
    if (it == staged.end()) {
      missing += (missing.empty() ? "\"" : ", \"") + e.name + "\"";
      continue;
    }
    const auto want = e.tensor.sizes(loc).vec();
    const auto got = it->second.second.sizes(loc).vec();
    if (want != got) {
      mismatch += "\n\tsize mismatch for " + e.name + ": copying a param with shape " + shape_of(got) +
                  " from checkpoint, the shape in current model is " + shape_of(want) + ".";
    }
  }
  for (const auto& [name, v] : staged)
    if (!known.count(name)) unexpected += (unexpected.empty() ? "\"" : ", \"") + name + "\"";
  if (!missing.empty() || !unexpected.empty() || !mismatch.empty()) {
    std::string msg = "Error(s) in loading state_dict for " + module.name() + ":";
    if (!missing.empty()) msg += "\n\tMissing key(s) in state_dict: " + missing + ".";
    if (!unexpected.empty()) msg += "\n\tUnexpected key(s) in state_dict: " + unexpected + ".";
    msg += mismatch;
    throw Error(msg, loc);
  }
  NoGradGuard no_grad;
  for (const auto& e : entries) e.tensor.copy_(staged.at(e.name).second, false, loc);
}

}  // namespace tt
