// Internal: TensorIterator-style iteration over K strided operands of one
// shape. Dimensions are coalesced where every operand is contiguous across
// them, the index space is split across threads, and the callback gets 1-D
// runs: f(ptrs, n, byte_strides).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "../tensor_impl.h"
#include "parallel.h"

namespace tt::detail {

template <size_t K>
struct LoopPlan {
  std::vector<int64_t> sizes;                   // innermost first
  std::vector<std::array<int64_t, K>> strides;  // bytes, innermost first
  std::array<char*, K> base{};
  int64_t numel = 1;
};

// ops[0] is usually the output; all must have `shape` (broadcast views ok).
template <size_t K>
LoopPlan<K> make_plan(const std::vector<int64_t>& shape, const std::array<const TensorImpl*, K>& ops) {
  LoopPlan<K> p;
  for (size_t k = 0; k < K; ++k) p.base[k] = ops[k]->data();
  // Nothing to run over: an empty tensor's strides may be anything its
  // shape allows (contiguous strides of [0, 2^61]), and their byte
  // products must not be computed (found by test/fuzz's fuzz_shapes).
  for (int64_t s : shape)
    if (s == 0) {
      p.numel = 0;
      return p;
    }
  for (size_t i = shape.size(); i-- > 0;) {
    p.numel *= shape[i];
    if (shape[i] == 1) continue;
    std::array<int64_t, K> st;
    for (size_t k = 0; k < K; ++k) st[k] = ops[k]->strides[i] * static_cast<int64_t>(element_size(ops[k]->dtype));
    if (!p.sizes.empty()) {
      bool merge = true;
      for (size_t k = 0; k < K; ++k) merge = merge && st[k] == p.strides.back()[k] * p.sizes.back();
      if (merge) {
        p.sizes.back() *= shape[i];
        continue;
      }
    }
    p.sizes.push_back(shape[i]);
    p.strides.push_back(st);
  }
  if (p.sizes.empty()) {  // 0-dim or all-ones: one element
    p.sizes.push_back(1);
    std::array<int64_t, K> st{};
    p.strides.push_back(st);
  }
  return p;
}

// Runs f over elements [begin, end) of the plan's linear index space.
template <size_t K, class F>
void run_range(const LoopPlan<K>& p, int64_t begin, int64_t end, const F& f) {
  const size_t nd = p.sizes.size();
  std::vector<int64_t> idx(nd, 0);
  int64_t rem = begin;
  for (size_t d = 0; d < nd; ++d) {
    idx[d] = rem % p.sizes[d];
    rem /= p.sizes[d];
  }
  int64_t cur = begin;
  while (cur < end) {
    std::array<char*, K> ptrs = p.base;
    for (size_t d = 0; d < nd; ++d)
      for (size_t k = 0; k < K; ++k) ptrs[k] += idx[d] * p.strides[d][k];
    const int64_t n = std::min(p.sizes[0] - idx[0], end - cur);
    f(ptrs, n, p.strides[0]);
    cur += n;
    idx[0] += n;
    for (size_t d = 0; d + 1 < nd && idx[d] == p.sizes[d]; ++d) {
      idx[d] = 0;
      ++idx[d + 1];
    }
  }
}

template <size_t K, class F>
void for_each_run(const std::vector<int64_t>& shape, const std::array<const TensorImpl*, K>& ops, const F& f,
                  int64_t grain = kParallelGrain) {
  const LoopPlan<K> p = make_plan<K>(shape, ops);
  if (p.numel == 0) return;
  parallel_for(p.numel, grain, [&](int64_t b, int64_t e) { run_range<K>(p, b, e, f); });
}

}  // namespace tt::detail
