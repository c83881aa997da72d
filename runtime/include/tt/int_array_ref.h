// IntArrayRef: a non-owning list of int64 (sizes, strides, dims), built from
// a braced list, a vector or a single integer, as c10::IntArrayRef.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <vector>

namespace tt {

/// View of contiguous int64 values. Lifetime: like std::span, it must not
/// outlive what it views; a braced list lives until the end of the call's
/// full expression, which is all a function argument needs.
class IntArrayRef {
 public:
  IntArrayRef() = default;
  /* implicit */ IntArrayRef(const int64_t& one) : data_(&one), size_(1) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"  // intended: lives for the call, as c10
#endif
  /* implicit */ IntArrayRef(std::initializer_list<int64_t> l) : data_(l.begin()), size_(l.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  /* implicit */ IntArrayRef(const std::vector<int64_t>& v) : data_(v.data()), size_(v.size()) {}
  IntArrayRef(const int64_t* data, size_t size) : data_(data), size_(size) {}

  const int64_t* begin() const noexcept { return data_; }
  const int64_t* end() const noexcept { return data_ + size_; }
  const int64_t* data() const noexcept { return data_; }
  size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  int64_t operator[](size_t i) const noexcept { return data_[i]; }
  std::vector<int64_t> vec() const { return {begin(), end()}; }
  bool operator==(const IntArrayRef& o) const noexcept;

 private:
  const int64_t* data_ = nullptr;
  size_t size_ = 0;
};

/// Prints as PyTorch does: [2, 3].
std::ostream& operator<<(std::ostream& os, IntArrayRef a);

}  // namespace tt
