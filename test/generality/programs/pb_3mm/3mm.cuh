/**
 * 3mm.cuh: This file is part of the PolyBench/GPU-style generality suite.
 *
 * G := (A*B) * (C*D); A is NI x NK, B is NK x NJ, C is NJ x NM, D is NM x NL.
 * The extents are deliberately not multiples of the thread block so that
 * partial blocks are exercised.
 */

#ifndef THREEMM_CUH
# define THREEMM_CUH

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(LARGE_DATASET)
#  define STANDARD_DATASET
# endif

# ifdef MINI_DATASET
#  define NI 40
#  define NJ 50
#  define NK 60
#  define NL 70
#  define NM 80
# endif

# ifdef SMALL_DATASET
#  define NI 180
#  define NJ 190
#  define NK 200
#  define NL 210
#  define NM 220
# endif

# ifdef STANDARD_DATASET
#  define NI 512
#  define NJ 500
#  define NK 520
#  define NL 490
#  define NM 510
# endif

# ifdef LARGE_DATASET
#  define NI 1000
#  define NJ 1100
#  define NK 1200
#  define NL 1300
#  define NM 1400
# endif

/* Thread block dimensions */
# define DIM_THREAD_BLOCK_X 32
# define DIM_THREAD_BLOCK_Y 8

typedef float DATA_TYPE;

#endif /* !THREEMM_CUH */
