// Reductions (sum, mean, max, min, argmax) over [outer, r, inner] and
// softmax / log_softmax. Sums accumulate in double (floating) or int64
// (integers, as the cpu); max/min/argmax propagate NaN and keep the first
// index on ties, exactly as the cpu kernels, so they agree bit for bit.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>

#include "check.h"
#include "device_context.h"
#include "device_types.cuh"
#include "kernel_table.h"
#include "kernels/op_math.h"
#include "launch_utils.h"

namespace tt::cuda_backend {

namespace {

using detail::TensorImpl;
using detail::kernels::ReduceOp;

template <class T>
struct SumReducer {
  using Acc = std::conditional_t<is_float_v<T>, double, int64_t>;
  struct S {
    Acc v;
    int64_t i;
  };
  __device__ static S init() { return {Acc(0), 0}; }
  __device__ static S combine(S a, S b) { return {a.v + b.v, 0}; }
  // The double add makes any NaN the canonical NaN: a NaN's payload is not worth loading.
  __device__ static void add(S& s, T x, int64_t) { s.v += static_cast<Acc>(load_math_canonical(x)); }
};

// kMax: max/argmax; else min. The combine step is op_math.h's, the cpu's
// own: associative and commutative, so any split of r gives the cpu's
// sequential answer (the first NaN, else the best value at its smallest index).
template <class T, bool kMax>
struct MinMaxReducer {
  using M = opmath_t<T>;
  using S = detail::kernels::math::BestAt<M>;
  __device__ static S init() { return S{M{}, 0, false}; }
  __device__ static S combine(S a, S b) { return detail::kernels::math::combine<kMax>(a, b); }
  __device__ static void add(S& s, T x, int64_t j) { s = combine(s, S{load_math(x), j, true}); }
};

template <class R>
__device__ typename R::S block_reduce(typename R::S s) {
  __shared__ typename R::S shared[kThreads];
  shared[threadIdx.x] = s;
  __syncthreads();
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) shared[threadIdx.x] = R::combine(shared[threadIdx.x], shared[threadIdx.x + w]);
    __syncthreads();
  }
  const typename R::S result = shared[0];
  __syncthreads();  // all have read shared[0] before a next call (next row) overwrites it
  return result;
}

// Writes a finished state: the sum scaled (mean) or the best value, and
// the index where asked for.
template <class T, class R, class O>
__device__ void finish(const typename R::S& s, int64_t w, O* out, int64_t* indices, double scale) {
  if (out) {
    if constexpr (std::is_same_v<typename R::S, typename SumReducer<T>::S>) {
      if constexpr (std::is_same_v<typename SumReducer<T>::Acc, double>)
        out[w] = store_math<O>(s.v * scale);
      else
        out[w] = static_cast<O>(s.v);
    } else {
      out[w] = store_math<O>(s.v);
    }
  }
  if (indices) indices[w] = s.i;
}

// Adds row[begin, end) into this thread's state, the block's threads
// taking turns: 16-byte vector loads over the aligned middle, single
// elements before and after it. A thread that loaded one 2-byte element at
// a time kept too few bytes in flight: a float16 sum of all ran at a third
// of memcpy bandwidth on an H100 (issue 24). Min, max and their indices do
// not depend on the order (value, then the smaller index, then the first
// NaN) nor do integer sums; a floating sum's last bits in double do, as
// they already did on the split of a row into blocks.
template <class T, class R>
__device__ __forceinline__ void add_range(typename R::S& s, const T* __restrict__ row, int64_t begin, int64_t end) {
  constexpr int V = vec_of<T>();
  int64_t mid = begin, mid_end = begin;  // [mid, mid_end): whole vectors
  if constexpr (V > 1) {
    const auto misalign = static_cast<int64_t>(reinterpret_cast<uintptr_t>(row + begin) % sizeof(Vec<T, V>));
    mid = begin + (misalign == 0 ? 0 : (static_cast<int64_t>(sizeof(Vec<T, V>)) - misalign) / sizeof(T));
    if (mid > end) mid = end;
    mid_end = mid + (end - mid) / V * V;
    const auto* vec = reinterpret_cast<const Vec<T, V>*>(row + mid);
    const int64_t nvec = (mid_end - mid) / V, step = blockDim.x;
    int64_t k = threadIdx.x;
    // kUnroll vectors loaded before any is added, then added in the order
    // of the one-at-a-time loop below (the same bits): a step with one
    // vector in flight was the memory latency plus V dependent adds.
    for (; k + (kUnroll - 1) * step < nvec; k += kUnroll * step) {
      Vec<T, V> x[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) x[u] = vec[k + u * step];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
#pragma unroll
        for (int e = 0; e < V; ++e) R::add(s, x[u].v[e], mid + (k + u * step) * V + e);
    }
    for (; k < nvec; k += step) {
      const Vec<T, V> x = vec[k];
#pragma unroll
      for (int e = 0; e < V; ++e) R::add(s, x.v[e], mid + k * V + e);
    }
  }
  for (int64_t j = begin + threadIdx.x; j < mid; j += blockDim.x) R::add(s, row[j], j);
  for (int64_t j = mid_end + threadIdx.x; j < end; j += blockDim.x) R::add(s, row[j], j);
}

// A partial state another block stored during this kernel, read past the
// SM's L1 (volatile loads go to L2): the L1 is not coherent, and a line
// holding these words may be there already, loaded with a neighbouring
// row's partials before this row's blocks had all stored theirs.
template <class S>
__device__ S load_partial(const S* p) {
  static_assert(sizeof(S) % sizeof(uint64_t) == 0 && alignof(S) >= alignof(uint64_t), "read as 64-bit words");
  uint64_t words[sizeof(S) / sizeof(uint64_t)];
  const volatile uint64_t* from = reinterpret_cast<const volatile uint64_t*>(p);
  for (size_t i = 0; i < sizeof(S) / sizeof(uint64_t); ++i) words[i] = from[i];
  S s;
  memcpy(&s, words, sizeof(S));
  return s;
}

// The semaphore of a split reduction (ATen's reduce_kernel keeps one the
// same way): called by every thread of a block once the threads that stored
// its partial states have each fenced them, it counts the block in
// *counter and is true, in every thread, for the block that arrives last,
// which may then read all partials (after the acquire fence here). That
// block sets the counter back to zero for the next reduction on the stream.
__device__ bool last_to_arrive(unsigned* counter, int parts) {
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) last = atomicAdd(counter, 1u) == static_cast<unsigned>(parts - 1);
  __syncthreads();
  const bool mine = last;
  if (mine) __threadfence();  // the partials are read after the count (acquire)
  return mine;
}

// inner == 1: block (p, y) reduces segment p of rows y, y + gridDim.y, ...
// (gridDim.y is capped at 65535) straight into the outputs when a row is
// one segment (parts == 1). Split rows (parts > 1, then one row per y) are
// finished in the same kernel, as ATen's reduce_kernel does with its
// semaphores: each block stores its partial state and counts itself in
// arrivals[y]; the row's last block to arrive combines the partials in
// order (the same order, so the same bits, as a second kernel would) and
// sets the counter back to zero for the next reduction on the stream. A
// second kernel was a launch and a scratch allocation per call: the fixed
// cost that kept a 64M-element sum at 0.77 of memcpy on an H100.
template <class T, class R, class O>
__global__ void reduce_rows(const T* in, int64_t outer, int64_t r, int parts, typename R::S* partial,
                            unsigned* arrivals, O* out, int64_t* indices, double scale) {
  const int64_t seg = (r + parts - 1) / parts;
  const int64_t begin = static_cast<int64_t>(blockIdx.x) * seg, end = begin + seg < r ? begin + seg : r;
  for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
    typename R::S s = R::init();
    add_range<T, R>(s, in + o * r, begin, end);
    s = block_reduce<R>(s);
    if (parts == 1) {
      if (threadIdx.x == 0) finish<T, R, O>(s, o, out, indices, scale);
      continue;
    }
    if (threadIdx.x == 0) {
      partial[o * parts + blockIdx.x] = s;
      __threadfence();  // the partial is visible to every block before the count says it is there
    }
    if (last_to_arrive(&arrivals[o], parts)) {
      typename R::S t = R::init();
      for (int p = threadIdx.x; p < parts; p += blockDim.x) t = R::combine(t, load_partial(&partial[o * parts + p]));
      t = block_reduce<R>(t);
      if (threadIdx.x == 0) {
        finish<T, R, O>(t, o, out, indices, scale);
        arrivals[o] = 0;
      }
    }
  }
}

// A column block's states of each output (its lane x), the thread (x, 0)'s
// combined with those of (x, 1), (x, 2), ... in order; the other threads
// keep their own. `shared` holds kThreads states; the caller syncs before
// it is written again.
template <class R>
__device__ typename R::S combine_over_y(typename R::S s, typename R::S* shared) {
  shared[threadIdx.y * blockDim.x + threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.y == 0)
    for (unsigned y = 1; y < blockDim.y; ++y) s = R::combine(s, shared[y * blockDim.x + threadIdx.x]);
  return s;
}

// Elements a column reduction's thread loads before it adds any: 64 bytes
// of 4-byte or 8-byte types, as the row kernel's kUnroll vectors, 16 of the
// smaller ones (a register each).
template <class T>
constexpr int kColumnUnroll() {
  return sizeof(T) >= 4 ? static_cast<int>(64 / sizeof(T)) : 16;
}

// inner > 1: output w = (o, k) of [outer, inner] reduces the r elements
// in[o][.][k], a stride of inner apart. A block is blockDim.x consecutive
// outputs (lanes: neighbouring threads read neighbouring elements) times
// blockDim.y threads sharing each output's r; blockIdx.y splits r further
// over blocks when too few outputs fill the GPU, finished as the split rows
// are (the last block to arrive combines the partials and resets its
// counter). ATen's reduce_kernel splits columns the same two ways (block.y,
// then global memory with semaphores). One thread per output, r loads in
// sequence, was a memory latency per element: a bias gradient's
// [64, 256].sum(0) waited 64 of them, and [1M, 64].sum(0) ran on 64 threads.
template <class T, class R, class O>
__global__ void reduce_cols(const T* in, int64_t outer, int64_t r, int64_t inner, int parts, typename R::S* partial,
                            unsigned* arrivals, O* out, int64_t* indices, double scale) {
  using S = typename R::S;
  __shared__ S shared[kThreads];
  const int64_t n = outer * inner, lanes = blockDim.x, ys = blockDim.y;
  const int64_t seg = (r + parts - 1) / parts;
  const int64_t begin = static_cast<int64_t>(blockIdx.y) * seg, end = begin + seg < r ? begin + seg : r;
  const int64_t col_blocks = (n + lanes - 1) / lanes;
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  for (int64_t cb = blockIdx.x; cb < col_blocks; cb += gridDim.x) {
    const int64_t w = cb * lanes + threadIdx.x;
    S s = R::init();
    if (w < n) {
      const T* col = in + (w / inner) * r * inner + w % inner;
      // Loads of one element each: up to kColumnUnroll of them in flight
      // (the row kernel keeps 4 vectors of 16 bytes), all issued before the
      // first is added, then added in order. A thread's share of r is often
      // shorter (8 elements in a [64, 256] bias gradient): predicated loads
      // keep those in flight together too.
      constexpr int U = kColumnUnroll<T>();
      for (int64_t j = begin + threadIdx.y; j < end; j += U * ys) {
        T x[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
          if (j + u * ys < end) x[u] = col[(j + u * ys) * inner];
#pragma unroll
        for (int u = 0; u < U; ++u)
          if (j + u * ys < end) R::add(s, x[u], j + u * ys);
      }
    }
    s = combine_over_y<R>(s, shared);
    if (parts == 1) {
      if (threadIdx.y == 0 && w < n) finish<T, R, O>(s, w, out, indices, scale);
    } else {
      if (threadIdx.y == 0 && w < n) {
        partial[(cb * parts + blockIdx.y) * lanes + threadIdx.x] = s;
        __threadfence();  // each partial is visible to every block before the count says it is there
      }
      if (last_to_arrive(&arrivals[cb], parts)) {
        S u = R::init();
        if (w < n)
          for (int64_t p = threadIdx.y; p < parts; p += ys)
            u = R::combine(u, load_partial(&partial[(cb * parts + p) * lanes + threadIdx.x]));
        u = combine_over_y<R>(u, shared);
        if (threadIdx.y == 0 && w < n) finish<T, R, O>(u, w, out, indices, scale);
        if (t == 0) arrivals[cb] = 0;
      }
    }
    __syncthreads();  // shared[] is rewritten for the next block of columns
  }
}

// Grid dimensions y and z are limited to 65535, x to 2^31 - 1; rows or
// blocks of columns beyond loop.
constexpr int64_t kMaxGridY = 65535;
constexpr int64_t kMaxGridX = 2147483647;

// Rows, or blocks of columns, are split over blocks only while there are
// fewer than this many per SM (their count times parts then stays below
// twice it): the bound of the scratch.
constexpr int64_t kSplitPerSm = 8;
constexpr size_t kMaxStateBytes = 32;  // the largest R::S (BestAt<double>: 24)
// A split block of columns is kColumnLanes outputs wide, times kThreads /
// kColumnLanes threads sharing each output's r; a partial state per output.
constexpr int64_t kColumnLanes = 32;

struct Scratch {
  void* partials;
  unsigned* arrivals;
};

// The device's scratch for split reductions: 2 * kSplitPerSm * sm_count
// * kColumnLanes partial states (a split row takes one, a split block of
// columns kColumnLanes) and kSplitPerSm * sm_count counters (2.2 MB on an
// H200), cudaMalloc'd on first use and kept with the context. The kernels
// run in the order of the context's one stream, so they share it; the
// counters start at zero in stream order and every kernel leaves them so.
Scratch split_scratch(DeviceContext& ctx) {
  const auto rows = static_cast<size_t>(kSplitPerSm * ctx.sm_count);
  const size_t partial_bytes = 2 * rows * kColumnLanes * kMaxStateBytes;
  std::lock_guard<std::mutex> lock(ctx.mu);
  if (!ctx.reduce_scratch) {
    void* p = nullptr;
    TT_CUDA_CHECK(cudaMalloc(&p, partial_bytes + rows * sizeof(unsigned)));
    if (cudaError_t e = cudaMemsetAsync(static_cast<char*>(p) + partial_bytes, 0, rows * sizeof(unsigned), ctx.stream);
        e != cudaSuccess) {
      cudaFree(p);
      TT_CUDA_CHECK(e);
    }
    ctx.reduce_scratch = p;
  }
  return {ctx.reduce_scratch, reinterpret_cast<unsigned*>(static_cast<char*>(ctx.reduce_scratch) + partial_bytes)};
}

template <class T, class R, class O>
void run_reduce(const TensorImpl& in, int64_t outer, int64_t r, int64_t inner, O* out, int64_t* indices, double scale) {
  static_assert(sizeof(typename R::S) <= kMaxStateBytes, "the split-row scratch holds states of this size");
  const int dev = in.device().index();
  auto& ctx = context(dev);
  DeviceGuard guard(dev);
  const T* x = reinterpret_cast<const T*>(in.data());
  if (inner == 1) {
    // Enough blocks to fill the GPU even for one long row (sum of all).
    const int64_t split_rows = kSplitPerSm * ctx.sm_count;
    const int64_t want = (split_rows + outer - 1) / outer;  // 1 unless outer < split_rows
    const int64_t by_size = (r + kThreads * 16 - 1) / (kThreads * 16);
    const int parts = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>({want, by_size, 1024})));
    const auto rows = static_cast<unsigned>(std::min(outer, kMaxGridY));
    // parts > 1: outer < split_rows, and outer * parts < outer * (split_rows / outer + 1) <= 2 * split_rows.
    const Scratch scratch = parts > 1 ? split_scratch(ctx) : Scratch{nullptr, nullptr};
    reduce_rows<T, R, O><<<dim3(parts, rows), kThreads, 0, ctx.stream>>>(
        x, outer, r, parts, static_cast<typename R::S*>(scratch.partials), scratch.arrivals, out, indices, scale);
    TT_CUDA_CHECK_LAUNCH();
    return;
  }
  // Threads sharing an output's r: enough for 4 elements each, up to 8;
  // the rest of the block's kThreads are lanes (outputs side by side).
  int64_t ys = 1;
  while (ys < kThreads / kColumnLanes && ys * 8 <= r) ys *= 2;
  const int64_t lanes = kThreads / ys, n = outer * inner;
  const int64_t col_blocks = (n + lanes - 1) / lanes;
  // Split r over blocks only when the blocks of columns are too few to fill
  // the GPU, each thread keeping at least 16 elements. Then lanes ==
  // kColumnLanes (r >= 8 * 16 * parts), col_blocks < split, and col_blocks
  // * parts < 2 * split: the scratch's bounds.
  const int64_t split = kSplitPerSm * ctx.sm_count;
  int parts = 1;
  if (lanes == kColumnLanes && col_blocks < split)
    parts = static_cast<int>(
        std::max<int64_t>(1, std::min<int64_t>({(split + col_blocks - 1) / col_blocks, r / (ys * 16), 1024})));
  const Scratch scratch = parts > 1 ? split_scratch(ctx) : Scratch{nullptr, nullptr};
  const auto grid_x = static_cast<unsigned>(std::min<int64_t>(col_blocks, kMaxGridX));
  reduce_cols<T, R, O><<<dim3(grid_x, static_cast<unsigned>(parts)),
                         dim3(static_cast<unsigned>(lanes), static_cast<unsigned>(ys)), 0, ctx.stream>>>(
      x, outer, r, inner, parts, static_cast<typename R::S*>(scratch.partials), scratch.arrivals, out, indices, scale);
  TT_CUDA_CHECK_LAUNCH();
}

// One block per (outer, inner) pair: max, then the sum of exponentials,
// then the outputs, in opmath (float for 16-bit floats).
template <class T>
__global__ void softmax_kernel(bool log_out, const T* in, T* out, int64_t outer, int64_t r, int64_t inner) {
  using M = opmath_t<T>;
  __shared__ M shared[kThreads];
  for (int64_t w = blockIdx.x; w < outer * inner; w += gridDim.x) {
    const int64_t base = (w / inner) * r * inner + w % inner;
    M mx = -INFINITY;
    for (int64_t j = threadIdx.x; j < r; j += blockDim.x) mx = fmax(mx, load_math(in[base + j * inner]));
    shared[threadIdx.x] = mx;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s /= 2) {
      if (threadIdx.x < s) shared[threadIdx.x] = fmax(shared[threadIdx.x], shared[threadIdx.x + s]);
      __syncthreads();
    }
    mx = shared[0];
    __syncthreads();
    M sum = 0;
    for (int64_t j = threadIdx.x; j < r; j += blockDim.x) sum += exp(load_math(in[base + j * inner]) - mx);
    shared[threadIdx.x] = sum;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s /= 2) {
      if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
      __syncthreads();
    }
    sum = shared[0];
    __syncthreads();
    const M lse = log(sum) + mx;
    for (int64_t j = threadIdx.x; j < r; j += blockDim.x) {
      const M v = load_math(in[base + j * inner]);
      out[base + j * inner] = store_math<T>(log_out ? M(v - lse) : M(exp(v - mx) / sum));
    }
  }
}

}  // namespace

void launch_reduce(ReduceOp op, const TensorImpl& in, int64_t outer, int64_t r, int64_t inner, const TensorImpl* out,
                   const TensorImpl* indices) {
  if (outer * inner == 0 || r == 0) return;
  int64_t* ix = indices ? reinterpret_cast<int64_t*>(indices->data()) : nullptr;
  visit_device_dtype(in.dtype, [&](auto ti) {
    using T = typename decltype(ti)::type;
    if (op == ReduceOp::Sum || op == ReduceOp::Mean) {
      const double scale = op == ReduceOp::Mean ? 1.0 / static_cast<double>(r) : 1.0;
      // The runtime asks for int64 sums of integers and same-dtype sums of floats.
      if constexpr (is_float_v<T>) {
        run_reduce<T, SumReducer<T>, T>(in, outer, r, inner, reinterpret_cast<T*>(out->data()), nullptr, scale);
      } else {
        run_reduce<T, SumReducer<T>, int64_t>(in, outer, r, inner, reinterpret_cast<int64_t*>(out->data()), nullptr,
                                              scale);
      }
    } else {
      T* o = out ? reinterpret_cast<T*>(out->data()) : nullptr;
      if (op == ReduceOp::Min)
        run_reduce<T, MinMaxReducer<T, false>, T>(in, outer, r, inner, o, ix, 1.0);
      else
        run_reduce<T, MinMaxReducer<T, true>, T>(in, outer, r, inner, o, ix, 1.0);
    }
  });
}

void launch_softmax(bool log, const TensorImpl& in, const TensorImpl& out, int64_t outer, int64_t r, int64_t inner) {
  if (outer * inner == 0 || r == 0) return;
  const int dev = in.device().index();
  auto& ctx = context(dev);
  DeviceGuard guard(dev);
  visit_device_dtype(in.dtype, [&](auto ti) {
    using T = typename decltype(ti)::type;
    if constexpr (is_float_v<T>) {
      const int64_t blocks = std::min<int64_t>(outer * inner, static_cast<int64_t>(ctx.sm_count) * 16);
      softmax_kernel<T><<<static_cast<unsigned>(blocks), kThreads, 0, ctx.stream>>>(
          log, reinterpret_cast<const T*>(in.data()), reinterpret_cast<T*>(out.data()), outer, r, inner);
      TT_CUDA_CHECK_LAUNCH();
    }
  });
}

}  // namespace tt::cuda_backend
