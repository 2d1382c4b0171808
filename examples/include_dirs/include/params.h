// Problem parameters, found through the target's include directories
// (target_include_directories), not beside the source.
#pragma once

#ifndef SCALE_FACTOR
#error "SCALE_FACTOR comes from the target's compile definitions"
#endif

#define N_ELEMENTS (1 << 22)
#define BLOCK_THREADS 256
