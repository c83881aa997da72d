// Multi-TU report test, first translation unit.
#include "common.h"
void a_step() {
  auto x = torch::randn({2, 3});
  auto w = torch::randn({2, 3}, torch::kCUDA);
  auto y = x + w; // BUG: confirmed at run time
  (void)y;
}
