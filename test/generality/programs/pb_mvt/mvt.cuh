/**
 * mvt.cuh: This file is part of the PolyBench/GPU-style generality suite.
 *
 * Matrix vector product and transpose: x1 += A * y1, x2 += A^T * y2.
 */

#ifndef MVT_CUH
#define MVT_CUH

/* Problem size (compile time; override with -DN=...) */
#ifndef N
#define N 4000
#endif

/* Thread block dimensions */
#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

/* Can switch DATA_TYPE between float and double */
typedef float DATA_TYPE;

#endif /* MVT_CUH */
