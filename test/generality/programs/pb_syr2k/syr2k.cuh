/**
 * syr2k.cuh: This file is part of the PolyBench/GPU-style generality suite.
 *
 * C := alpha*A*B' + alpha*B*A' + beta*C, with C N x N and A, B N x M.
 */

#ifndef SYR2K_CUH
#define SYR2K_CUH

/* Problem size (override with -DN=... -DM=...) */
#ifndef N
#define N 1000
#endif
#ifndef M
#define M 400
#endif

/* Thread block dimensions */
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

/* Declared constant values for ALPHA and BETA (same as values in PolyBench 2.0) */
#define ALPHA 12435
#define BETA 4546

typedef float DATA_TYPE;

#endif /* SYR2K_CUH */
