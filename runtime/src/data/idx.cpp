// IDX files through zlib's gzread, which reads gzip and plain files alike.
#include "tt/data/idx.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>

#include "data/row_gather.h"
#include "kernels/kernels.h"
#include "tt/errors.h"
#include "tt/factories.h"
#include "tt/ops.h"

namespace tt::data {

namespace {

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};

struct IdxType {
  ScalarType dtype;
  size_t bytes;
};

IdxType idx_type(int code, const std::string& path, const SourceLoc& loc) {
  switch (code) {
    case 0x08: return {kUInt8, 1};
    case 0x09: return {kInt8, 1};
    case 0x0B: return {kInt16, 2};
    case 0x0C: return {kInt32, 4};
    case 0x0D: return {kFloat32, 4};
    case 0x0E: return {kFloat64, 8};
    default: throw Error("IDX file '" + path + "': unknown element type 0x" + std::to_string(code), loc);
  }
}

void read_exact(gzFile f, void* dst, size_t n, const std::string& path, const char* what, const SourceLoc& loc) {
  char* p = static_cast<char*>(dst);
  while (n > 0) {
    const unsigned chunk = static_cast<unsigned>(std::min<size_t>(n, 1u << 30));
    const int got = gzread(f, p, chunk);
    if (got <= 0) {
      int errnum = 0;
      const char* msg = gzerror(f, &errnum);
      throw Error("IDX file '" + path + "' is truncated or corrupt while reading the " + what +
                      (errnum != Z_OK && errnum != Z_STREAM_END && msg ? std::string(" (") + msg + ")" : ""),
                  loc);
    }
    p += got;
    n -= static_cast<size_t>(got);
  }
}

std::string shape_of(const std::vector<int64_t>& sizes) {
  std::string out = "[";
  for (size_t i = 0; i < sizes.size(); ++i) out += (i ? ", " : "") + std::to_string(sizes[i]);
  return out + "]";
}

std::string find_file(const std::string& root, const std::string& stem, const SourceLoc& loc) {
  for (const char* ext : {"", ".gz"}) {
    const auto p = std::filesystem::path(root) / (stem + ext);
    if (std::filesystem::exists(p)) return p.string();
  }
  throw Error("MNIST: neither '" + stem + "' nor '" + stem + ".gz' found in '" + root + "'", loc);
}

}  // namespace

Tensor read_idx(const std::string& path, SourceLoc loc) {
  std::unique_ptr<gzFile_s, GzCloser> f(gzopen(path.c_str(), "rb"));
  if (!f) throw Error("cannot open IDX file '" + path + "'", loc);
  unsigned char magic[4];
  read_exact(f.get(), magic, 4, path, "magic number", loc);
  if (magic[0] != 0 || magic[1] != 0) throw Error("IDX file '" + path + "' has a bad magic number", loc);
  const IdxType type = idx_type(magic[2], path, loc);
  std::vector<int64_t> sizes(magic[3]);
  for (auto& s : sizes) {
    unsigned char b[4];
    read_exact(f.get(), b, 4, path, "sizes", loc);
    s = (int64_t(b[0]) << 24) | (int64_t(b[1]) << 16) | (int64_t(b[2]) << 8) | int64_t(b[3]);
  }
  // The declared sizes are the file's claim: their byte count is checked
  // for overflow and against what the file holds before anything that size
  // is allocated.
  uint64_t nbytes = type.bytes;
  for (int64_t s : sizes)
    if (__builtin_mul_overflow(nbytes, static_cast<uint64_t>(s), &nbytes) || nbytes > (uint64_t(1) << 46))
      throw Error("IDX file '" + path + "' declares sizes " + shape_of(sizes) + ", more data than any file holds", loc);
  std::error_code ec;
  const uintmax_t file_size = std::filesystem::file_size(path, ec);
  const uint64_t header = 4 + 4 * sizes.size();
  if (gzdirect(f.get()) == 1) {
    // An uncompressed file: its size says whether the data is there.
    if (!ec && file_size - std::min<uintmax_t>(file_size, header) < nbytes)
      throw Error("IDX file '" + path + "' declares sizes " + shape_of(sizes) + " (" + std::to_string(nbytes) +
                      " bytes of data) but holds " + std::to_string(file_size - std::min<uintmax_t>(file_size, header)),
                  loc);
    Tensor out = empty(sizes, type.dtype, loc);
    auto* data = static_cast<unsigned char*>(out.data_ptr(loc));
    read_exact(f.get(), data, nbytes, path, "data", loc);
    if (type.bytes > 1) {  // big-endian on disk
      for (size_t i = 0; i < nbytes; i += type.bytes) std::reverse(data + i, data + i + type.bytes);
    }
    return out;
  }
  // Compressed: the data's size is only known by inflating it, so it is
  // inflated into a buffer that grows as bytes arrive (a lying header costs
  // what the file really holds, not what it claims), then copied.
  std::vector<unsigned char> buf;
  buf.reserve(static_cast<size_t>(std::min<uint64_t>(nbytes, uint64_t(64) << 20)));
  while (buf.size() < nbytes) {
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(nbytes - buf.size(), uint64_t(16) << 20));
    const size_t old = buf.size();
    buf.resize(old + chunk);
    read_exact(f.get(), buf.data() + old, chunk, path, "data", loc);
  }
  Tensor out = empty(sizes, type.dtype, loc);
  auto* data = static_cast<unsigned char*>(out.data_ptr(loc));
  if (nbytes) std::memcpy(data, buf.data(), nbytes);
  if (type.bytes > 1) {  // big-endian on disk
    for (size_t i = 0; i < nbytes; i += type.bytes) std::reverse(data + i, data + i + type.bytes);
  }
  return out;
}

namespace {
Example load_mnist(const std::string& root, MNIST::Mode mode, size_t limit, const SourceLoc& loc) {
  const std::string prefix = mode == MNIST::Mode::kTrain ? "train" : "t10k";
  const std::string images_file = find_file(root, prefix + "-images-idx3-ubyte", loc);
  Tensor images = read_idx(images_file, loc);
  Tensor labels = read_idx(find_file(root, prefix + "-labels-idx1-ubyte", loc), loc);
  if (images.dtype() != kUInt8 || images.dim(loc) != 3)
    throw Error("MNIST: '" + images_file + "' does not hold uint8 images [N, H, W]", loc);
  if (labels.dim(loc) != 1 || images.size(0, loc) != labels.size(0, loc))
    throw Error("MNIST: images and labels in '" + root + "' do not match", loc);
  int64_t n = images.size(0, loc);
  if (limit > 0 && static_cast<int64_t>(limit) < n) n = static_cast<int64_t>(limit);
  Tensor x = images.narrow(0, 0, n, loc).contiguous(loc);
  Tensor y = labels.narrow(0, 0, n, loc).to(kLong, false, false, loc).contiguous(loc);
  return {x.view({n, 1, images.size(1, loc), images.size(2, loc)}, loc), y};
}

// LibTorch's MNIST stores `pixels.to(kFloat32).div_(255)`.
constexpr float kPixelScale = 255.0f;
}  // namespace

MNIST::MNIST(const std::string& root, Mode mode, size_t limit, SourceLoc loc) {
  Example loaded = load_mnist(root, mode, limit, loc);
  pixels_ = std::move(loaded.data);
  targets_ = std::move(loaded.target);
  size_ = static_cast<size_t>(pixels_.size(0, loc));
}

Example MNIST::get(size_t index) const {
  Example batch = get_batch({index});
  return {batch.data.select(0, 0), batch.target.select(0, 0)};
}

Example MNIST::get_batch(const std::vector<size_t>& indices) const {
  std::vector<int64_t> sizes = pixels_.sizes().vec();
  sizes[0] = static_cast<int64_t>(indices.size());
  Tensor data = empty(sizes, kFloat);
  Tensor target = empty({sizes[0]}, kLong);
  const size_t row = size_ == 0 ? 0 : pixels_.nbytes() / size_;
  float* to = static_cast<float*>(data.data_ptr());
  detail::gather_rows(static_cast<const char*>(pixels_.data_ptr()), row, size_, indices,
                      [&](size_t k, const char* from) {
                        tt::detail::kernels::cast_u8_to_f32_div(reinterpret_cast<const uint8_t*>(from), to + k * row,
                                                                static_cast<int64_t>(row), kPixelScale);
                      });
  const auto* labels = static_cast<const int64_t*>(targets_.data_ptr());
  auto* picked = static_cast<int64_t*>(target.data_ptr());
  for (size_t k = 0; k < indices.size(); ++k) picked[k] = labels[indices[k]];  // in range: checked above
  return {data, target};
}

Tensor MNIST::images() const { return pixels_.to(kFloat).div(static_cast<double>(kPixelScale)); }

}  // namespace tt::data
