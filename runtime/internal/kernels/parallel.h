// Internal: splitting work across threads (OpenMP when built with it).
#pragma once

#include <algorithm>
#include <cstdint>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tt::detail {

// Below this many elements a second thread costs more than it saves.
// PyTorch uses 32768; tt uses more because an OpenMP region costs a whole
// scheduler time slice whenever a worker thread has been descheduled (a
// loaded 2-core machine, a DataLoader thread beside the trainer): with
// 32768 a Fashion-MNIST MLP epoch went from 1.3 s to 20 s under load,
// since every optimizer update of a 784x256 weight opened a region.
constexpr int64_t kParallelGrain = 262144;

inline int max_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// Calls f(begin, end) over [0, n) in at most max_threads() contiguous
// chunks of at least `grain` elements; f must not throw.
template <class F>
void parallel_for(int64_t n, int64_t grain, const F& f) {
  if (n <= 0) return;
#ifdef _OPENMP
  int64_t nt = std::min<int64_t>(max_threads(), (n + grain - 1) / std::max<int64_t>(grain, 1));
  if (nt > 1 && !omp_in_parallel()) {
#pragma omp parallel num_threads(static_cast<int>(nt))
    {
      const int64_t t = omp_get_thread_num();
      const int64_t threads = omp_get_num_threads();
      const int64_t chunk = (n + threads - 1) / threads;
      const int64_t b = t * chunk, e = std::min(n, b + chunk);
      if (b < e) f(b, e);
    }
    return;
  }
#endif
  (void)grain;
  f(0, n);
}

}  // namespace tt::detail
