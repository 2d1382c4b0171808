// Coarsening a kernel whose grid variable other kernels' launches use too:
// the launch divides its own grid argument (ceil(ceil(E / B) / F) is
// ceil(E / (B * F)), so the same extent stays covered); the other launches
// keep the shared grid. The guard's bounds are a header macro (checked
// against the grid's constant extent) and a parameter minus one.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"interior.coarsen": "y2"}' > %t.json
// RUN: %cro %s --apply %t.json | %strip-checks | FileCheck %s --check-prefix=APPLY
// RUN: echo '{"interior.coarsen": "x4", "interior.block": [64, 4]}' > %t2.json
// RUN: %expect-exit 10 %cro %s --apply %t2.json 2>&1 | %strip-checks | FileCheck %s --check-prefix=BOTH
#include <cuda_runtime.h>
#include "Inputs/shared-config.cuh"

#define NY 512

__global__ void interior(const float *in, float *out, int nx) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx - 1 && y < NY && x > 0)
    out[y * nx + x] = in[y * nx + x - 1] + in[y * nx + x + 1];
}
__global__ void copy(const float *in, float *out, int nx) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < NY)
    out[y * nx + x] = in[y * nx + x];
}

void run(const float *in, float *out, int nx) {
  dim3 block(TILE_X, TILE_Y);
  dim3 grid((nx + TILE_X - 1) / TILE_X, (NY + TILE_Y - 1) / TILE_Y);
  interior<<<grid, block>>>(in, out, nx);
  copy<<<grid, block>>>(in, out, nx);
}

// CHECK-DAG: kernels[0].thread_mapping.upper_bound_forms.x.symbol = "nx"
// CHECK-DAG: kernels[0].thread_mapping.upper_bound_forms.x.offset = -1
// CHECK-DAG: kernels[0].thread_mapping.upper_bound_forms.y.symbol = null
// CHECK-DAG: kernels[0].thread_mapping.upper_bound_forms.y.offset = 512
// CHECK-DAG: knobs[{{[0-9]+}}].id = "interior.coarsen"

// APPLY: interior<<<dim3((grid).x, ((grid).y + 2 - 1) / 2, (grid).z), block>>>(in, out, nx);
// APPLY-NEXT: copy<<<grid, block>>>(in, out, nx);

// Both would give the launch arguments of its own: not combined (yet).
// BOTH: cannot be combined
