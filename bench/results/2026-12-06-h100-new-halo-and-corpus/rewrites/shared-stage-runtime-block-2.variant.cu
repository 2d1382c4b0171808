// shared-stage with a block shape the program chooses at run time (its
// command line): the tile is sized by the constant block a variant sets
// through <kernel>.block, which replaces the run-time choice at the launch
// with a grid of one thread per index. Only the forms that keep one output
// per thread are offered (a halo tile, k tiles of a reduction); a
// configuration that keeps the run-time block is refused with the reason.
// Register tiles compose with the replaced block: block-size writes the
// launch's grid for RY x RX outputs per thread, ceil(extent / (block *
// tile)), and the nest leaves the grid alone. The program checks itself
// against the CPU (bench/memory-generality-gpu.sh runs it on the GPU).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"laplace5.shared_stage": "halo", "laplace5.block": [32, 8], "matmul.shared_stage": 16, "matmul.block": [16, 16]}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: %strip-checks < %t.cu | FileCheck %s
// RUN: nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: echo '{"laplace5.shared_stage": "halo"}' > %t.bad.json
// RUN: %expect-exit 10 %cro %s --apply %t.bad.json -o %t.bad.cu 2>&1 | %strip-checks | FileCheck %s --check-prefix=BAD
// RUN: test ! -e %t.bad.cu
// RUN: echo '{"matmul.block": [16, 16], "matmul.register_tile": "2x2", "matmul.shared_stage": 16}' > %t.rt.json
// RUN: %cro %s --apply %t.rt.json -o %t.rt.cu
// RUN: %strip-checks < %t.rt.cu | FileCheck %s --check-prefix=RT
// RUN: nvcc -arch=sm_90 -c %t.rt.cu -o %t.rt.o
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

typedef float real_t;

// Five-point Laplacian on the interior.
__global__ void laplace5(const real_t *__restrict__ u, real_t *__restrict__ lap,
                         int cols, int rows) {
  const int c = threadIdx.x + blockIdx.x * blockDim.x;
  const int r = threadIdx.y + blockIdx.y * blockDim.y;
  if (c < 1 || r < 1 || c >= cols - 1 || r >= rows - 1)
    return;
  const int at = r * cols + c;
  lap[at] = u[at - 1] + u[at + 1] + u[at - cols] + u[at + cols] - 4 * u[at];
}

// C = A * B, one element per thread.
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  // cuda-rewrite-opt: loop 'k' tiled by 16 through shared memory, 2x2 outputs per thread
  const unsigned int row_first = blockIdx.y * 32 + threadIdx.y;
  const unsigned int col_first = blockIdx.x * 32 + threadIdx.x;
  __shared__ float A_tile[32][16];
  __shared__ float B_tile[16][32];
  float s_r[2][2];
  #pragma unroll
  for (int oy = 0; oy < 2; ++oy)
  #pragma unroll
  for (int ox = 0; ox < 2; ++ox) {
    s_r[oy][ox] = 0;
  }
  for (int k_tile = 0; k_tile < n; k_tile += 16) {
    for (int e = threadIdx.y * 16 + threadIdx.x; e < 512; e += 256) {
      const int tp = e / 16, tk = e % 16;
      A_tile[tp][tk] = (k_tile + tk < n && blockIdx.y * 32 + tp < n && 0 < n) ? A[(blockIdx.y * 32 + tp) * n + (k_tile + tk)] : float();
    }
    for (int e = threadIdx.y * 16 + threadIdx.x; e < 512; e += 256) {
      const int tk = e / 32, tp = e % 32;
      B_tile[tk][tp] = (k_tile + tk < n && 0 < n && blockIdx.x * 32 + tp < n) ? B[(k_tile + tk) * n + (blockIdx.x * 32 + tp)] : float();
    }
    __syncthreads();
    if (k_tile + 16 <= n) {
      #pragma unroll
      for (int k = k_tile; k < k_tile + 16; ++k) {
        #pragma unroll
        for (int oy = 0; oy < 2; ++oy)
        #pragma unroll
        for (int ox = 0; ox < 2; ++ox) {
          s_r[oy][ox] += A_tile[threadIdx.y + oy * 16][k - k_tile] * B_tile[k - k_tile][threadIdx.x + ox * 16];
        }
      }
    } else {
      for (int k = k_tile; k < n; ++k) {
        #pragma unroll
        for (int oy = 0; oy < 2; ++oy)
        #pragma unroll
        for (int ox = 0; ox < 2; ++ox) {
          s_r[oy][ox] += A_tile[threadIdx.y + oy * 16][k - k_tile] * B_tile[k - k_tile][threadIdx.x + ox * 16];
        }
      }
    }
    __syncthreads();
  }
  #pragma unroll
  for (int oy = 0; oy < 2; ++oy)
  #pragma unroll
  for (int ox = 0; ox < 2; ++ox) {
    const unsigned int row = row_first + oy * 16;
    const unsigned int col = col_first + ox * 16;
    if (row < n && col < n) {
      C[row * n + col] = s_r[oy][ox];
    }
  }
}

int main(int argc, char **argv) {
  const int n = 300; // not a multiple of any block extent
  int bx = argc > 1 ? atoi(argv[1]) : 16, by = argc > 2 ? atoi(argv[2]) : 12;
  std::vector<float> a(n * n), b(n * n), c(n * n), lap(n * n, 0.f);
  for (int i = 0; i < n * n; ++i) {
    a[i] = (i * 7 % 13) * 0.25f - 1.f;
    b[i] = (i * 5 % 11) * 0.5f - 2.f;
  }
  float *da, *db, *dc, *dl;
  size_t bytes = n * n * sizeof(float);
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dc, bytes);
  cudaMalloc(&dl, bytes);
  cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemset(dl, 0, bytes);
  dim3 threads(bx, by);
  dim3 blocks((n + threads.x - 1) / threads.x, (n + threads.y - 1) / threads.y);
  laplace5<<<blocks, threads>>>(da, dl, n, n);
  matmul<<<dim3((n + 31) / 32, (n + 31) / 32), dim3(16, 16)>>>(da, db, dc, n);
  cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(lap.data(), dl, bytes, cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    fprintf(stderr, "CUDA error\n");
    return 2;
  }
  int bad = 0;
  for (int r = 0; r < n; ++r)
    for (int q = 0; q < n; ++q) {
      double s = 0, l = 0;
      for (int k = 0; k < n; ++k)
        s += (double)a[r * n + k] * b[k * n + q];
      if (r > 0 && q > 0 && r < n - 1 && q < n - 1)
        l = a[r * n + q - 1] + a[r * n + q + 1] + a[(r - 1) * n + q] +
            a[(r + 1) * n + q] - 4.0 * a[r * n + q];
      bad += std::fabs(c[r * n + q] - s) > 1e-3 * (1 + std::fabs(s));
      bad += std::fabs(lap[r * n + q] - l) > 1e-4;
    }
  printf("%s (%d mismatches)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "laplace5.block"
// KNOBS-DAG: knobs[{{[0-9]+}}].default = "runtime"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "laplace5.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].values[1] = "halo"
// KNOBS-DAG: knobs[{{[0-9]+}}].requires[0] = "laplace5.block"
// KNOBS-DAG: knobs[{{[0-9]+}}].requires[0] = "matmul.block"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "matmul.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].values[4] = 64
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "matmul.register_tile"

// The halo tile takes the variant's block (32 x 8 plus one each side); the
// loader's copies of the const index locals are declared without a second
// const.
// CHECK:      __shared__ real_t u_tile[10][34];
// CHECK-NEXT: for (int e = threadIdx.y * 32 + threadIdx.x; e < 340; e += 256) {
// CHECK-NEXT:   const int tr = e / 34, tc = e % 34;
// CHECK-NEXT:   const int c = blockIdx.x * 32 + tc - 1;
// CHECK-NEXT:   const int r = blockIdx.y * 8 + tr - 1;
// CHECK:      __syncthreads();
// CHECK-NEXT: if (c < 1 || r < 1 || c >= cols - 1 || r >= rows - 1)
// CHECK:      - 4 * u_tile[threadIdx.y + 1][threadIdx.x + 1];
// CHECK:      __shared__ float A_tile[16][16];
// CHECK-NEXT: __shared__ float B_tile[16][16];
// CHECK:      for (int k_tile = 0; k_tile < n; k_tile += 16) {
// CHECK:      laplace5<<<dim3((n + 31) / 32, (n + 7) / 8), dim3(32, 8)>>>(da, dl, n, n);
// CHECK-NEXT: matmul<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(da, db, dc, n);

// BAD: error: kernel laplace5: a halo tile needs the block size at compile time: the launches choose it at run time, so laplace5.block must set a constant

// RT:      // cuda-rewrite-opt: loop 'k' tiled by 16 through shared memory, 2x2 outputs per thread
// RT:      laplace5<<<blocks, threads>>>(da, dl, n, n);
// RT-NEXT: matmul<<<dim3((n + 31) / 32, (n + 31) / 32), dim3(16, 16)>>>(da, db, dc, n);
