/*
 * lay_header_kernels: host side of a small "dense layer" sample. All the
 * kernels live in lay_header_kernels.cuh; this file only sets up the data,
 * launches them and checks against the CPU.
 *
 *   C   = A * B                 (matrixMulTiled)
 *   C   = leakyRelu(C + bias)   (biasActivation)
 *   Ct  = transpose(C)          (transposeTiled)
 *
 * Usage: lay_header_kernels [hA] [wA] [wB]
 */
// System includes
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

// CUDA runtime
#include <cuda_runtime.h>

// Kernels
#include "lay_header_kernels.cuh"

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

template <typename T>
void check(T result, char const *const func, const char *const file,
           int const line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line,
            static_cast<unsigned int>(result), cudaGetErrorName(result), func);
    exit(EXIT_FAILURE);
  }
}

#define getLastCudaError(msg) __getLastCudaError(msg, __FILE__, __LINE__)

inline void __getLastCudaError(const char *errorMessage, const char *file,
                               const int line) {
  cudaError_t err = cudaGetLastError();
  if (cudaSuccess != err) {
    fprintf(stderr,
            "%s(%i) : getLastCudaError() CUDA error :"
            " %s : (%d) %s.\n",
            file, line, errorMessage, static_cast<int>(err),
            cudaGetErrorString(err));
    exit(EXIT_FAILURE);
  }
}

void randomInit(float *data, int size) {
  for (int i = 0; i < size; ++i) data[i] = rand() / static_cast<float>(RAND_MAX);
}

void computeGold(float *C, const float *A, const float *B, const float *bias,
                 int hA, int wA, int wB) {
  for (int i = 0; i < hA; ++i)
    for (int j = 0; j < wB; ++j) {
      double sum = 0.0;
      for (int k = 0; k < wA; ++k)
        sum += static_cast<double>(A[i * wA + k]) * B[k * wB + j];
      float v = static_cast<float>(sum) + bias[j];
      C[i * wB + j] = v > 0.0f ? v : LEAKY_SLOPE * v;
    }
}

int main(int argc, char **argv) {
  int hA = 1001, wA = 903, wB = 777;
  if (argc > 3) {
    hA = atoi(argv[1]);
    wA = atoi(argv[2]);
    wB = atoi(argv[3]);
  }
  printf("[Dense layer sample] A(%d x %d) * B(%d x %d)\n", hA, wA, wA, wB);

  unsigned int size_A = hA * wA, size_B = wA * wB, size_C = hA * wB;
  unsigned int mem_size_A = sizeof(float) * size_A;
  unsigned int mem_size_B = sizeof(float) * size_B;
  unsigned int mem_size_C = sizeof(float) * size_C;
  unsigned int mem_size_bias = sizeof(float) * wB;

  float *h_A = reinterpret_cast<float *>(malloc(mem_size_A));
  float *h_B = reinterpret_cast<float *>(malloc(mem_size_B));
  float *h_bias = reinterpret_cast<float *>(malloc(mem_size_bias));
  float *h_Ct = reinterpret_cast<float *>(malloc(mem_size_C));
  float *reference = reinterpret_cast<float *>(malloc(mem_size_C));

  srand(2006);
  randomInit(h_A, size_A);
  randomInit(h_B, size_B);
  randomInit(h_bias, wB);
  // bias in [-0.75 wA, 0.25 wA) so that the activation sees both signs
  for (int j = 0; j < wB; ++j) h_bias[j] = (h_bias[j] - 0.75f) * wA;

  float *d_A, *d_B, *d_C, *d_Ct, *d_bias;
  checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&d_A), mem_size_A));
  checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&d_B), mem_size_B));
  checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&d_C), mem_size_C));
  checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&d_Ct), mem_size_C));
  checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&d_bias), mem_size_bias));
  checkCudaErrors(cudaMemcpy(d_A, h_A, mem_size_A, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_B, h_B, mem_size_B, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_bias, h_bias, mem_size_bias, cudaMemcpyHostToDevice));

  dim3 threads(BLOCK_DIM, BLOCK_DIM);
  dim3 grid((wB + threads.x - 1) / threads.x, (hA + threads.y - 1) / threads.y);
  matrixMulTiled<<<grid, threads>>>(d_C, d_A, d_B, hA, wA, wB);
  getLastCudaError("matrixMulTiled execution failed");

  int blocksPerGrid = (size_C + ACT_BLOCK_SIZE - 1) / ACT_BLOCK_SIZE;
  biasActivation<<<blocksPerGrid, ACT_BLOCK_SIZE>>>(d_C, d_bias, wB, size_C);
  getLastCudaError("biasActivation execution failed");

  // C is hA x wB (width wB, height hA)
  dim3 gridT((wB + BLOCK_DIM - 1) / BLOCK_DIM, (hA + BLOCK_DIM - 1) / BLOCK_DIM);
  transposeTiled<<<gridT, threads>>>(d_Ct, d_C, wB, hA);
  getLastCudaError("transposeTiled execution failed");
  checkCudaErrors(cudaDeviceSynchronize());

  checkCudaErrors(cudaMemcpy(h_Ct, d_Ct, mem_size_C, cudaMemcpyDeviceToHost));

  computeGold(reference, h_A, h_B, h_bias, hA, wA, wB);

  // Ct[j][i] = C[i][j]; tolerance relative to the size of the dot product
  // (all products are positive), since bias + dot can cancel.
  int errors = 0;
  for (int i = 0; i < hA; ++i)
    for (int j = 0; j < wB; ++j) {
      float ref = reference[i * wB + j];
      float got = h_Ct[j * hA + i];
      float scale = 1.0f + static_cast<float>(wA) + fabsf(h_bias[j]);
      if (!(fabsf(got - ref) <= 1e-5f * scale)) {
        if (errors < 5)
          printf("mismatch C[%d][%d]: %f vs %f\n", i, j, got, ref);
        ++errors;
      }
    }

  free(h_A);
  free(h_B);
  free(h_bias);
  free(h_Ct);
  free(reference);
  checkCudaErrors(cudaFree(d_A));
  checkCudaErrors(cudaFree(d_B));
  checkCudaErrors(cudaFree(d_C));
  checkCudaErrors(cudaFree(d_Ct));
  checkCudaErrors(cudaFree(d_bias));

  if (errors) {
    printf("FAILED lay_header_kernels (%d wrong)\n", errors);
    return 1;
  }
  printf("PASSED lay_header_kernels\n");
  return 0;
}
