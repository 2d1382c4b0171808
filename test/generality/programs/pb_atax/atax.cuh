/**
 * atax.cuh: This file is part of the PolyBench/GPU-style generality suite.
 *
 * Dataset selection, loop bound macros and thread block configuration
 * for atax.cu (y = A^T * (A * x)).
 */

#ifndef ATAX_CUH
# define ATAX_CUH

/* Default to STANDARD_DATASET. */
# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(LARGE_DATASET) && !defined(EXTRALARGE_DATASET)
#  define STANDARD_DATASET
# endif

/* Do not define anything if the user manually defines the size. */
# if !defined(NX) && !defined(NY)
/* Define the possible dataset sizes. */
#  ifdef MINI_DATASET
#   define NX 32
#   define NY 32
#  endif

#  ifdef SMALL_DATASET
#   define NX 500
#   define NY 500
#  endif

#  ifdef STANDARD_DATASET /* Default if unspecified. */
#   define NX 4096
#   define NY 4096
#  endif

#  ifdef LARGE_DATASET
#   define NX 8000
#   define NY 8000
#  endif

#  ifdef EXTRALARGE_DATASET
#   define NX 16000
#   define NY 16000
#  endif
# endif /* !N */

/* Loop bounds: use the scalar (run-time) parameters, the arrays keep the
   compile-time extents NX x NY. */
# define POLYBENCH_USE_SCALAR_LB
# ifndef POLYBENCH_USE_SCALAR_LB
#  define POLYBENCH_LOOP_BOUND(x, y) x
# else
#  define POLYBENCH_LOOP_BOUND(x, y) y
# endif

# define _PB_NX POLYBENCH_LOOP_BOUND(NX, nx)
# define _PB_NY POLYBENCH_LOOP_BOUND(NY, ny)

# ifndef DATA_TYPE
#  define DATA_TYPE float
#  define DATA_PRINTF_MODIFIER "%0.2f "
# endif

/* Thread block dimensions */
# define DIM_THREAD_BLOCK_X 256
# define DIM_THREAD_BLOCK_Y 1

#endif /* !ATAX_CUH */
