// tt::data: datasets, the IDX/MNIST reader and the DataLoader.
#pragma once

#include "tt/data/dataloader.h"
#include "tt/data/dataset.h"
#include "tt/data/example.h"
#include "tt/data/idx.h"
