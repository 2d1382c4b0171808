// shared-stage "halo": a 2-D stencil's neighbourhood of one read-only array
// goes through a shared tile loaded before the guard (so every thread
// reaches the barrier); reads outside the loaded region keep the global
// read. Refused when the thread's own element is not read on every path
// (loading it might not be safe) or the offsets are not constant.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"jacobi.shared_stage": "halo", "jacobi.block": [32, 8]}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cuda_runtime.h>

#define BX 32
#define BY 4

__global__ void jacobi(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[y * nx + x] = in[y * nx + x];
    return;
  }
  out[y * nx + x] = 0.25f * (in[y * nx + x - 1] + in[y * nx + x + 1] +
                             in[(y - 1) * nx + x] + in[(y + 1) * nx + x]) +
                    0.5f * in[y * nx + x];
}

__global__ void maybe(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny && x > 0)
    out[y * nx + x] = in[y * nx + x] - in[y * nx + x - 1] + in[y * nx + x + 1];
}

__global__ void edges(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  if (x > 0 && x < nx - 1)
    out[y * nx + x] = in[y * nx + x - 1] + in[y * nx + x + 1] + in[y * nx + x];
}

void run(const float *in, float *out, int nx, int ny) {
  dim3 threads(BX, BY);
  dim3 blocks((nx + BX - 1) / BX, (ny + BY - 1) / BY);
  jacobi<<<blocks, threads>>>(in, out, nx, ny);
  maybe<<<dim3((nx + 15) / 16, (ny + 15) / 16), dim3(16, 16)>>>(in, out, nx, ny);
  edges<<<dim3((nx + 15) / 16, (ny + 15) / 16), dim3(16, 16)>>>(in, out, nx, ny);
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "jacobi.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].values[1] = "halo"
// KNOBS-DAG: reason = "{{.*}}no neighbourhood to stage (the guard does not bound both thread indices from above)"
// KNOBS-DAG: reason = "{{.*}}no neighbourhood to stage (the thread's own element of 'in' is not read on every path, so loading it is not known to be safe)"

// CHECK:      +  // cuda-rewrite-opt: 'in' and a halo of 1 row(s), 1 column(s) staged in shared memory
// CHECK-NEXT: +  __shared__ float in_tile[10][34];
// CHECK-NEXT: +  for (int e = threadIdx.y * 32 + threadIdx.x; e < 340; e += 256) {
// CHECK-NEXT: +    const int tr = e / 34, tc = e % 34;
// CHECK-NEXT: +    const int x = blockIdx.x * 32 + tc - 1;
// CHECK-NEXT: +    const int y = blockIdx.y * 8 + tr - 1;
// CHECK-NEXT: +    if (x >= 0 && y >= 0 && x < nx && y < ny)
// CHECK-NEXT: +      in_tile[tr][tc] = in[y * nx + x];
// CHECK-NEXT: +  }
// CHECK-NEXT: +  __syncthreads();
// CHECK-NEXT:    if (x >= nx || y >= ny)
// CHECK:      +    out[y * nx + x] = in_tile[threadIdx.y + 1][threadIdx.x + 1];
// CHECK:      +  out[y * nx + x] = 0.25f * ((x >= 1 ? in_tile[threadIdx.y + 1][threadIdx.x + 0] : in[y * nx + x - 1]) + (x + 1 < nx ? in_tile[threadIdx.y + 1][threadIdx.x + 2] : in[y * nx + x + 1]) +
