// See cuda_runtime.h: the CUDA runtime API on HIP-CPU.
#pragma once
#include "cuda_runtime.h"
