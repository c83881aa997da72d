// Multi-TU report test, second translation unit.
#include "common.h"
void b_step(torch::Tensor batch) {
  batch.cuda(); // BUG: never reached at run time (static-only)
}
