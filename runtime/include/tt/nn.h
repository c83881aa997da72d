// tt::nn: modules, layers, losses and checkpoints.
#pragma once

#include "tt/nn/functional.h"
#include "tt/nn/module.h"
#include "tt/nn/modules.h"
#include "tt/nn/serialize.h"
