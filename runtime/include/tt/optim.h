// tt::optim: SGD and Adam.
#pragma once

#include "tt/optim/adam.h"
#include "tt/optim/optimizer.h"
#include "tt/optim/sgd.h"
