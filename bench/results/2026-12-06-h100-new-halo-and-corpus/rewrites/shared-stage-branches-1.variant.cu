// shared-stage "halo" under a guard written as a chain of branches
// (`if (c1) A else if (c2) B`): the reads of the first branch are bounded
// by c1 alone, since every thread where c1 holds runs A, so the tile holds
// the block's part of c1's region and the grid must cover it. A later
// branch runs only where the conditions before it fail: its reads are not
// staged. The program checks itself against the CPU
// (bench/memory-generality-gpu.sh runs it on the GPU).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"wave_step.shared_stage": "halo"}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: %strip-checks < %t.cu | FileCheck %s
// RUN: nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

using scalar = float;

// Interior: a five-point update of p; the boundary rows get the source.
__global__ void wave_step(const scalar *p, scalar *q, const scalar *src,
                          int nx, int ny, int step) {
  int col = threadIdx.x + blockDim.x * blockIdx.x;
  int row = threadIdx.y + blockDim.y * blockIdx.y;
  // cuda-rewrite-opt: 'p' and a halo of 1 row(s), 1 column(s) staged in shared memory
  __shared__ scalar p_tile[10][34];
  for (int e = threadIdx.y * 32 + threadIdx.x; e < 340; e += 256) {
    const int tr = e / 34, tc = e % 34;
    const int col = blockIdx.x * 32 + tc - 1;
    const int row = blockIdx.y * 8 + tr - 1;
    if (col >= 0 && row >= 0 && col >= 1 && row >= 1 && col < nx - 1 && row < ny - 1)
      p_tile[tr][tc] = p[(nx) * row + col];
  }
  __syncthreads();
  if (row > 0 && row < ny - 1 && col > 0 && col < nx - 1) {
    const int c = row * nx + col;
    q[c] = 2 * p_tile[threadIdx.y + 1][threadIdx.x + 1] - q[c] + 0.1f * ((col >= (1) + 1 ? p_tile[threadIdx.y + 1][threadIdx.x + 0] : p[c - 1]) + (col + 1 < nx - 1 ? p_tile[threadIdx.y + 1][threadIdx.x + 2] : p[c + 1]) + (row >= (1) + 1 ? p_tile[threadIdx.y + 0][threadIdx.x + 1] : p[c - nx]) + (row + 1 < ny - 1 ? p_tile[threadIdx.y + 2][threadIdx.x + 1] : p[c + nx]) - 4 * p_tile[threadIdx.y + 1][threadIdx.x + 1]);
  } else if ((row == 0 || row == ny - 1) && col < nx) {
    q[row * nx + col] = src[step];
  }
}

// The neighbours are read in the second branch: a thread with row == 0
// never runs it, whatever its condition says, so which threads read is
// not the second condition's region.
__global__ void edge_only(const scalar *p, scalar *q, int nx, int ny) {
  int col = threadIdx.x + blockDim.x * blockIdx.x;
  int row = threadIdx.y + blockDim.y * blockIdx.y;
  if (row < 1 && col < nx) {
    q[col] = 0;
  } else if (row < ny && col > 0 && col < nx - 1) {
    q[row * nx + col] = p[row * nx + col - 1] + p[row * nx + col + 1] - 2 * p[row * nx + col];
  }
}

int main() {
  const int nx = 333, ny = 91, n = nx * ny;
  std::vector<scalar> p(n), q(n), r(n), s(8);
  for (int i = 0; i < n; ++i) {
    p[i] = (i * 13 % 29) * 0.1f;
    q[i] = (i * 7 % 17) * 0.05f;
  }
  for (int i = 0; i < 8; ++i)
    s[i] = i * 0.5f;
  scalar *dp, *dq, *ds;
  cudaMalloc(&dp, n * sizeof(scalar));
  cudaMalloc(&dq, n * sizeof(scalar));
  cudaMalloc(&ds, 8 * sizeof(scalar));
  cudaMemcpy(dp, p.data(), n * sizeof(scalar), cudaMemcpyHostToDevice);
  cudaMemcpy(dq, q.data(), n * sizeof(scalar), cudaMemcpyHostToDevice);
  cudaMemcpy(ds, s.data(), 8 * sizeof(scalar), cudaMemcpyHostToDevice);
  dim3 block(32, 8), grid((nx + 31) / 32, (ny + 7) / 8);
  wave_step<<<grid, block>>>(dp, dq, ds, nx, ny, 3);
  cudaMemcpy(r.data(), dq, n * sizeof(scalar), cudaMemcpyDeviceToHost);
  edge_only<<<grid, block>>>(dp, dq, nx, ny);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    fprintf(stderr, "CUDA error\n");
    return 2;
  }
  int bad = 0;
  for (int row = 0; row < ny; ++row)
    for (int col = 0; col < nx; ++col) {
      int c = row * nx + col;
      double want = q[c];
      if (row > 0 && row < ny - 1 && col > 0 && col < nx - 1)
        want = 2.0 * p[c] - q[c] +
               0.1 * (p[c - 1] + p[c + 1] + p[c - nx] + p[c + nx] - 4.0 * p[c]);
      else if (row == 0 || row == ny - 1)
        want = s[3];
      bad += std::fabs(r[c] - want) > 1e-4;
    }
  printf("%s (%d mismatches)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "wave_step.shared_stage"
// KNOBS-DAG: reason = "{{.*}}'p' at {{.*}}shared-stage-branches.cu:{{[0-9]+}}:{{[0-9]+}} is read outside the first branch of the guard)"

// The tile is loaded before the chain, where the first branch's range holds.
// CHECK:      __shared__ scalar p_tile[10][34];
// CHECK:        if (col >= 0 && row >= 0 && col >= 1 && row >= 1 && col < nx - 1 && row < ny - 1)
// CHECK-NEXT:     p_tile[tr][tc] = p[(nx) * row + col];
// CHECK:      __syncthreads();
// CHECK-NEXT: if (row > 0 && row < ny - 1 && col > 0 && col < nx - 1) {
// CHECK:        q[c] = 2 * p_tile[threadIdx.y + 1][threadIdx.x + 1] - q[c]
// CHECK:      } else if ((row == 0 || row == ny - 1) && col < nx) {
// CHECK-NEXT:   q[row * nx + col] = src[step];
