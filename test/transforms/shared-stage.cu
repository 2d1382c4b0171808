// shared-stage: a reduction loop's reused operands go through shared tiles
// (guard moved onto the loads and the final store, partial last tile bounded
// by k), a transpose-like store goes through a padded square tile; the
// refusals say why.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"mm.shared_stage": 32, "mm.shared_pad": 1, "tr.shared_stage": "tile", "tr.shared_pad": 1, "tr.block": [32, 32]}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: echo '{"tr.shared_stage": "tile", "tr.coarsen": "y4"}' > %t.rows.json
// RUN: %cro %s --apply %t.rows.json --diff | %strip-checks | FileCheck %s --check-prefix=ROWS
// RUN: %cro %s --apply %t.rows.json -o %t.rows.cu && nvcc -arch=sm_90 -c %t.rows.cu -o %t.rows.o
// RUN: echo '{"tr.shared_stage": "tile", "tr.block": [32, 8]}' > %t.rect.json
// RUN: %expect-exit 10 %cro %s --apply %t.rect.json -o %t.rect.cu 2>&1 | %strip-checks | FileCheck %s --check-prefix=RECT
// RUN: echo '{"matvec.shared_stage": 8, "matvec.register_tile": "1x2"}' > %t.matvec.json
// RUN: %cro %s --apply %t.matvec.json -o %t.matvec.cu && nvcc -arch=sm_90 -c %t.matvec.cu -o %t.matvec.o
// RUN: %strip-checks < %t.matvec.cu | FileCheck %s --check-prefix=MATVEC
// RUN: echo '{"mm.shared_stage": 64, "mm.register_tile": "8x8", "mm.block": [32, 32]}' > %t.big.json
// RUN: %expect-exit 10 %cro %s --apply %t.big.json -o %t.big.cu 2>&1 | %strip-checks | FileCheck %s --check-prefix=BIG
#include <cuda_runtime.h>

__global__ void mm(const float *A, const float *B, float *C, int M, int N,
                   int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

__global__ void tr(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows)
    out[x * rows + y] = in[y * cols + x];
}

__global__ void copy2d(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = in[y * w + x];
}

__global__ void rowsum(const float *A, float *s, int *count, int n, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float acc = 0.0f;
    for (int j = 0; j < m; ++j) {
      acc += A[r * m + j];
      count[r] += 1;
    }
    s[r] = acc;
  }
}

__global__ void pixelsum(const float *A, float *out, int w, int h, int m) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float acc = 0.0f;
    for (int j = 0; j < m; ++j)
      acc += A[(y * w + x) * m + j];
    out[y * w + x] = acc;
  }
}

// The sum is declared before the guard (with the loop's counter): staged
// as it is; with several outputs per thread each gets its own sum, reset to
// the initializer.
__global__ void matvec(const float *M, const float *V, float *out, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k;
  float sum = 0.0f;
  if (i < W) {
    for (k = 0; k < W; k++)
      sum += M[i * W + k] * V[k];
    out[i] = sum;
  }
}

void run(const float *A, const float *B, float *C, int *cnt, int M, int N,
         int K) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  mm<<<grid, block>>>(A, B, C, M, N, K);
  dim3 tb(16, 16);
  dim3 tg((N + 15) / 16, (M + 15) / 16);
  tr<<<tg, tb>>>(A, C, M, N);
  copy2d<<<dim3((N + 7) / 8, (M + 7) / 8), dim3(8, 8)>>>(A, C, N, M);
  rowsum<<<(M + 127) / 128, 128>>>(A, C, cnt, M, N);
  pixelsum<<<dim3((N + 7) / 8, (M + 7) / 8), dim3(8, 8)>>>(A, C, N, M, K);
  matvec<<<(N + 255) / 256, 256>>>(A, B, C, N);
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "mm.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "mm.shared_pad"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "tr.shared_stage"
// KNOBS-DAG: reason = "the work has no reduction loop to tile, no store to transpose (the store is already contiguous across a warp) and no neighbourhood to stage ('in' is read at one element per thread: nothing to share)"
// KNOBS-DAG: reason = "the loop body writes memory ('count[r]') at {{.*}}shared-stage.cu:{{[0-9]+}}:7; nor is it a neighbourhood to stage ('A' at {{.*}}shared-stage.cu:{{[0-9]+}}:14 is not the thread's element or a near neighbour of it)"
// KNOBS-DAG: reason = "no global operand of the loop is read by several threads of a block; nor is it a neighbourhood to stage ('A' at {{.*}}shared-stage.cu:{{[0-9]+}}:14 is not the thread's element or a near neighbour of it)"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "matvec.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "matvec.register_tile"

// CHECK:      +  // cuda-rewrite-opt: loop 'k' tiled by 32 through shared memory (padded)
// CHECK:      +  __shared__ float A_tile[16][33];
// CHECK-NEXT: +  __shared__ float B_tile[32][17];
// CHECK-NEXT: +  float acc = 0.0f;
// CHECK-NEXT: +  for (int k_tile = 0; k_tile < K; k_tile += 32) {
// CHECK-NEXT: +    for (int e = threadIdx.y * 16 + threadIdx.x; e < 512; e += 256) {
// CHECK-NEXT: +      const int tp = e / 32, tk = e % 32;
// CHECK-NEXT: +      A_tile[tp][tk] = (k_tile + tk < K && blockIdx.y * 16 + tp < M && 0 < N) ? A[(blockIdx.y * 16 + tp) * K + (k_tile + tk)] : float();
// CHECK:      +      B_tile[tk][tp] = (k_tile + tk < K && 0 < M && blockIdx.x * 16 + tp < N) ? B[(k_tile + tk) * N + (blockIdx.x * 16 + tp)] : float();
// CHECK:      +    __syncthreads();
// CHECK-NEXT: +    if (k_tile + 32 <= K) {
// CHECK-NEXT: +      #pragma unroll
// CHECK-NEXT: +      for (int k = k_tile; k < k_tile + 32; ++k) {
// CHECK-NEXT: +        acc += A_tile[threadIdx.y][k - k_tile] * B_tile[k - k_tile][threadIdx.x];
// CHECK-NEXT: +      }
// CHECK-NEXT: +    } else {
// CHECK-NEXT: +      for (int k = k_tile; k < K; ++k) {
// CHECK:      +    __syncthreads();
// CHECK-NEXT: +  }
// CHECK-NEXT:    if (row < M && col < N) {
// CHECK-NEXT: -    float acc = 0.0f;
// CHECK-NEXT: -    for (int k = 0; k < K; ++k)
// CHECK-NEXT: -      acc += A[row * K + k] * B[k * N + col];
// CHECK-NEXT:      C[row * N + col] = acc;

// CHECK:      -  if (x < cols && y < rows)
// CHECK-NEXT: -    out[x * rows + y] = in[y * cols + x];
// CHECK-NEXT: +  // cuda-rewrite-opt: the block's values go through a shared tile and are stored transposed, so the store is contiguous
// CHECK-NEXT: +  __shared__ float out_tile[32][33];
// CHECK:      +    const int x = blockIdx.x * 32 + threadIdx.x;
// CHECK-NEXT: +    const int y = blockIdx.y * 32 + threadIdx.y + [[ROW:row[_0-9]*]] * 32;
// CHECK-NEXT: +    if (x < cols && y < rows)
// CHECK-NEXT: +      out_tile[threadIdx.y + [[ROW]] * 32][threadIdx.x] = in[y * cols + x];
// CHECK:      +  __syncthreads();
// CHECK:      +    const int x = blockIdx.x * 32 + threadIdx.y;
// CHECK-NEXT: +    const int y = blockIdx.y * 32 + threadIdx.x + [[ROW]] * 32;
// CHECK-NEXT: +    if (x < cols && y < rows)
// CHECK-NEXT: +      out[x * rows + y] = out_tile[threadIdx.x + [[ROW]] * 32][threadIdx.y];

// With coarsening in y, each thread fills and drains several rows of a taller
// tile, and the grid shrinks in y.
// ROWS:      +  __shared__ float out_tile[64][16];
// ROWS:      +  for (int [[R:row[_0-9]*]] = 0; [[R]] < 4; ++[[R]]) {
// ROWS:      +    const int y = blockIdx.y * 64 + threadIdx.y + [[R]] * 16;
// ROWS:      +      out[x * rows + y] = out_tile[threadIdx.x + [[R]] * 16][threadIdx.y];
// ROWS:      +  dim3 tg((N + 15) / 16, (((M) + 4 - 1) / 4 + 15) / 16);

// RECT: kernel tr: a transposed tile needs a square block known at compile time
// BIG: kernel mm: the tiles need up to {{[0-9]+}} bytes of shared memory, more than the 48 KiB a block may declare statically

// MATVEC:      int k;
// MATVEC-NEXT: float sum = 0.0f;
// MATVEC-NEXT: const int i_first = blockIdx.x * 512 + threadIdx.x;
// MATVEC-NEXT: __shared__ float M_tile[512][8];
// MATVEC-NEXT: __shared__ float V_tile[8];
// MATVEC-NEXT: float sum_r[1][2];
// MATVEC:        sum_r[oy][ox] = 0.0f;
// MATVEC:      sum_r[oy][ox] += M_tile[threadIdx.x + ox * 256][k - k_tile] * V_tile[k - k_tile];
// MATVEC:      if (i < W) {
// MATVEC-NEXT:   out[i] = sum_r[oy][ox];
