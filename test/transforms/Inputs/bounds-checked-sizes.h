// Sizes of shared-stage-bounds-checked.cu, in a header as projects keep
// them.
#pragma once
#define TILE_W 32
#define TILE_H 8
#define HALF 2
#define KSIZE (2 * HALF + 1)
