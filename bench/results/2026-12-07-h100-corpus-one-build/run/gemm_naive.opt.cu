// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 16:57 UTC.
// Rewrites, kernel gemm_kernel: shared-stage gemm_kernel.shared_stage = 32; register-tile gemm_kernel.register_tile = "8x2"
// Measured (the program's GPU time (every launch of every kernel)): 0.1249 ms (IQR 0.0010 ms) against 1.2491 ms (IQR 0.0020 ms) for the original: 10.00x (at least 9.89x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
/* gemm_naive: C = alpha A B + beta C, 1024^3 floats, accumulating in global C; PolyBench style. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CUDA_SAFE_CALL(call)                                                   \
  do {                                                                         \
    cudaError_t err = (call);                                                  \
    if (err != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err));                                        \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

/* Problem size */
#define NI 1024
#define NJ 1024
#define NK 1024

/* Thread block dimensions */
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

/* Rows of C checked on the CPU: every CHECK_STRIDE-th */
#define CHECK_STRIDE 8

typedef float DATA_TYPE;

__global__ void gemm_kernel(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C,
                            DATA_TYPE alpha, DATA_TYPE beta) {
  // cuda-rewrite-opt: loop 'k' tiled by 32 through shared memory, 8x2 outputs per thread
  int k;
  const int j_first = blockIdx.x * 64 + threadIdx.x;
  const int i_first = blockIdx.y * 64 + threadIdx.y;
  __shared__ DATA_TYPE A_tile[64][32];
  __shared__ DATA_TYPE B_tile[32][64];
  DATA_TYPE C_reg_r[8][2];
  #pragma unroll
  for (int oy = 0; oy < 8; ++oy)
  #pragma unroll
  for (int ox = 0; ox < 2; ++ox) {
    const int i = i_first + oy * 8;
    const int j = j_first + ox * 32;
    C_reg_r[oy][ox] = DATA_TYPE();
    if (i < NI && j < NJ) {
      C_reg_r[oy][ox] = C[i * NJ + j];
      C_reg_r[oy][ox] *= beta;
    }
  }
  for (int k_tile = 0; k_tile < NK; k_tile += 32) {
    for (int e = threadIdx.y * 32 + threadIdx.x; e < 2048; e += 256) {
      const int tp = e / 32, tk = e % 32;
      A_tile[tp][tk] = (k_tile + tk < NK && blockIdx.y * 64 + tp < NI && 0 < NJ) ? A[(blockIdx.y * 64 + tp) * NK + (k_tile + tk)] : DATA_TYPE();
    }
    for (int e = threadIdx.y * 32 + threadIdx.x; e < 2048; e += 256) {
      const int tk = e / 64, tp = e % 64;
      B_tile[tk][tp] = (k_tile + tk < NK && 0 < NI && blockIdx.x * 64 + tp < NJ) ? B[(k_tile + tk) * NJ + (blockIdx.x * 64 + tp)] : DATA_TYPE();
    }
    __syncthreads();
    if (k_tile + 32 <= NK) {
      #pragma unroll
      for (int k = k_tile; k < k_tile + 32; ++k) {
        #pragma unroll
        for (int oy = 0; oy < 8; ++oy)
        #pragma unroll
        for (int ox = 0; ox < 2; ++ox) {
          C_reg_r[oy][ox] += alpha * A_tile[threadIdx.y + oy * 8][k - k_tile] * B_tile[k - k_tile][threadIdx.x + ox * 32];
        }
      }
    } else {
      for (int k = k_tile; k < NK; ++k) {
        #pragma unroll
        for (int oy = 0; oy < 8; ++oy)
        #pragma unroll
        for (int ox = 0; ox < 2; ++ox) {
          C_reg_r[oy][ox] += alpha * A_tile[threadIdx.y + oy * 8][k - k_tile] * B_tile[k - k_tile][threadIdx.x + ox * 32];
        }
      }
    }
    __syncthreads();
  }
  #pragma unroll
  for (int oy = 0; oy < 8; ++oy)
  #pragma unroll
  for (int ox = 0; ox < 2; ++ox) {
    const int i = i_first + oy * 8;
    const int j = j_first + ox * 32;
    if (i < NI && j < NJ) {
      C[i * NJ + j] = C_reg_r[oy][ox];
    }
  }
}

static unsigned int seed = 19;

/* uniform in [0, 1) from a linear congruential generator */
static DATA_TYPE lcg(void) {
  seed = seed * 1664525u + 1013904223u;
  return (DATA_TYPE)((seed >> 8) * (1.0f / 16777216.0f));
}

static void init_array(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C) {
  int i, j;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NK; j++)
      A[i * NK + j] = lcg();
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++)
      B[i * NJ + j] = lcg();
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      C[i * NJ + j] = lcg();
}

/* Every CHECK_STRIDE-th row of C in double (i-k-j order, cache friendly).
   The terms are positive, and fp32 accumulation of NK + 1 terms in any order
   is within (NK + 2) * 2^-24 < 1e-4 of the sum of |terms|. */
static int compare_results(const DATA_TYPE *A, const DATA_TYPE *B,
                           const DATA_TYPE *C0, const DATA_TYPE *C,
                           DATA_TYPE alpha, DATA_TYPE beta, int *checked) {
  static double ref[NJ], mag[NJ];
  int i, j, k, fail = 0;
  *checked = 0;
  for (i = 0; i < NI; i += CHECK_STRIDE) {
    for (j = 0; j < NJ; j++) {
      ref[j] = (double)beta * C0[i * NJ + j];
      mag[j] = fabs(ref[j]);
    }
    for (k = 0; k < NK; k++) {
      double a = (double)alpha * A[i * NK + k];
      for (j = 0; j < NJ; j++) {
        double t = a * B[k * NJ + j];
        ref[j] += t;
        mag[j] += fabs(t);
      }
    }
    for (j = 0; j < NJ; j++) {
      if (!(fabs((double)C[i * NJ + j] - ref[j]) <= 1e-4 * mag[j])) {
        if (fail < 5)
          fprintf(stderr, "C[%d][%d]: got %.8g, expected %.8g\n", i, j,
                  (double)C[i * NJ + j], ref[j]);
        fail++;
      }
      (*checked)++;
    }
  }
  return fail;
}

int main(void) {
  DATA_TYPE alpha = 32412.0f / 65536.0f;
  DATA_TYPE beta = 2123.0f / 4096.0f;
  DATA_TYPE *A, *B, *C, *C_outputFromGpu;
  DATA_TYPE *A_gpu, *B_gpu, *C_gpu;
  int fail, checked;

  A = (DATA_TYPE *)malloc(NI * NK * sizeof(DATA_TYPE));
  B = (DATA_TYPE *)malloc(NK * NJ * sizeof(DATA_TYPE));
  C = (DATA_TYPE *)malloc(NI * NJ * sizeof(DATA_TYPE));
  C_outputFromGpu = (DATA_TYPE *)malloc(NI * NJ * sizeof(DATA_TYPE));
  if (!A || !B || !C || !C_outputFromGpu) {
    fprintf(stderr, "out of host memory\n");
    return 2;
  }
  init_array(A, B, C);

  CUDA_SAFE_CALL(cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NK));
  CUDA_SAFE_CALL(cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NK * NJ));
  CUDA_SAFE_CALL(cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NI * NJ));
  CUDA_SAFE_CALL(cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI * NK,
                            cudaMemcpyHostToDevice));
  CUDA_SAFE_CALL(cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NK * NJ,
                            cudaMemcpyHostToDevice));
  CUDA_SAFE_CALL(cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * NI * NJ,
                            cudaMemcpyHostToDevice));

  dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  dim3 grid((((NJ) + 2 - 1) / 2 + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X,
            (((NI) + 8 - 1) / 8 + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
  gemm_kernel<<<grid, block>>>(A_gpu, B_gpu, C_gpu, alpha, beta);
  CUDA_SAFE_CALL(cudaGetLastError());
  CUDA_SAFE_CALL(cudaMemcpy(C_outputFromGpu, C_gpu,
                            sizeof(DATA_TYPE) * NI * NJ,
                            cudaMemcpyDeviceToHost));

  fail = compare_results(A, B, C, C_outputFromGpu, alpha, beta, &checked);
  printf("%s gemm_naive (%d of %d checked entries wrong)\n",
         fail ? "FAILED" : "PASSED", fail, checked);

  cudaFree(A_gpu);
  cudaFree(B_gpu);
  cudaFree(C_gpu);
  free(A);
  free(B);
  free(C);
  free(C_outputFromGpu);
  return fail ? 1 : 0;
}
