/**
 * fdtd2d.cuh: This file is part of the PolyBench/GPU-style generality suite.
 *
 * 2-D finite-difference time-domain kernel. Default grid NX x NY, TMAX steps.
 * ex is NX x (NY+1), ey is (NX+1) x NY, hz is NX x NY.
 */

#ifndef FDTD2D_CUH
#define FDTD2D_CUH

/* Problem size (defaults; main() accepts nx, ny on the command line) */
#define TMAX 100
#define NX 1024
#define NY 1024

/* Thread block dimensions */
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

typedef float DATA_TYPE;

#endif /* FDTD2D_CUH */
