// Tile sizes of shared-stage-strip.cu, in a header as projects keep them.
#ifndef STRIP_DIMS_H
#define STRIP_DIMS_H
#define TDIM 32
#define BROWS 8
typedef float real_t;
#endif
