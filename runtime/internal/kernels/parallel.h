// Internal: splitting work across threads (OpenMP when built with it).
#pragma once

#include <algorithm>
#include <cstdint>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tt::detail {

// Below this many elements a second thread costs more than it saves.
// PyTorch uses 32768 (at::internal::GRAIN_SIZE). tt uses twice that: an
// OpenMP region costs a scheduler time slice whenever a worker has been
// descheduled (a loaded 2-core machine). The first runtime, whose OpenBLAS
// threads busy-waited beside OpenMP's, went from 1.3 s to 20 s an epoch
// under load at 32768 and used 262144 since; with one thread pool
// (gemm.cpp) 65536 splits the optimizer's passes over a 784x256 weight
// again: Fashion-MNIST epoch at 2 threads 0.255 -> 0.235 s, and no worse
// than 262144 beside a busy process (docs/performance.md, session 11).
constexpr int64_t kParallelGrain = 65536;

inline int max_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

inline bool in_parallel() {
#ifdef _OPENMP
  return omp_in_parallel();
#else
  return false;
#endif
}

/// Makes the calling thread's next OpenMP regions (a library's included)
/// single-threaded until the scope ends; the thread's setting is put back.
class OneThreadScope {
 public:
  OneThreadScope() {
#ifdef _OPENMP
    saved_ = omp_get_max_threads();
    omp_set_num_threads(1);
#endif
  }
  ~OneThreadScope() {
#ifdef _OPENMP
    omp_set_num_threads(saved_);
#endif
  }
  OneThreadScope(const OneThreadScope&) = delete;
  OneThreadScope& operator=(const OneThreadScope&) = delete;

 private:
  int saved_ = 1;
};

// Calls f(begin, end) over [0, n) in `threads` contiguous chunks, each on
// its own OpenMP thread (inline, in one call, where threads <= 1 or inside
// a region already); f must not throw.
template <class F>
void parallel_for_threads(int64_t n, int64_t threads, const F& f) {
  if (n <= 0) return;
#ifdef _OPENMP
  threads = std::min(threads, n);
  if (threads > 1 && !omp_in_parallel()) {
#pragma omp parallel num_threads(static_cast<int>(threads))
    {
      const int64_t t = omp_get_thread_num();
      const int64_t team = omp_get_num_threads();
      const int64_t chunk = (n + team - 1) / team;
      const int64_t b = t * chunk, e = std::min(n, b + chunk);
      if (b < e) f(b, e);
    }
    return;
  }
#endif
  (void)threads;
  f(0, n);
}

// Calls f(begin, end) over [0, n) in at most max_threads() contiguous
// chunks of at least `grain` elements; f must not throw.
template <class F>
void parallel_for(int64_t n, int64_t grain, const F& f) {
  if (n <= 0) return;
  parallel_for_threads(n, std::min<int64_t>(max_threads(), (n + grain - 1) / std::max<int64_t>(grain, 1)), f);
}

}  // namespace tt::detail
