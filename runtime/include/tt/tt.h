// The tt tensor runtime: `#include <tt/tt.h>`, link `tt::runtime`.
// See docs/runtime.md for the API overview and the TT_* variables.
#pragma once

#include "tt/autograd.h"
#include "tt/backend.h"
#include "tt/device.h"
#include "tt/errors.h"
#include "tt/factories.h"
#include "tt/half.h"
#include "tt/int_array_ref.h"
#include "tt/ops.h"
#include "tt/options.h"
#include "tt/scalar.h"
#include "tt/scalar_type.h"
#include "tt/tensor.h"
#include "tt/validate.h"
// Layers above the core: autograd is in the core ops; nn, optim and data use them.
#include "tt/data.h"
#include "tt/nn.h"
#include "tt/optim.h"
