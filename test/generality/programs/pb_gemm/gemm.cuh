/**
 * gemm.cuh: This file is part of the PolyBench/GPU-style generality suite.
 *
 * Problem size and thread block configuration for gemm.cu.
 * The problem size is fixed at compile time, as in PolyBench/GPU.
 */

#ifndef GEMM_CUH
#define GEMM_CUH

/* Problem size */
#define NI 1024
#define NJ 1024
#define NK 1024

/* Thread block dimensions */
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

/* Declared constant values for ALPHA and BETA (same as values in PolyBench 2.0) */
#define ALPHA 32412.0f
#define BETA 2123.0f

/* Can switch DATA_TYPE between float and double */
typedef float DATA_TYPE;

#endif /* !GEMM_CUH */
