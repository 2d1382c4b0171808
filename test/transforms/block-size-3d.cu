// block-size on a 3D launch of literals; the grid is recomputed from the
// literal block sizes it was derived from.
// RUN: echo '{"box.block": [32, 4, 2]}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cuda_runtime.h>

__global__ void box(float *v, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz)
    v[(z * ny + y) * nx + x] *= 0.5f;
}

void run(float *v, int nx, int ny, int nz) {
  box<<<dim3((nx + 7) / 8, (ny + 7) / 8, (nz + 7) / 8), dim3(8, 8, 8)>>>(v, nx, ny, nz);
}




// CHECK:      -  box<<<dim3((nx + 7) / 8, (ny + 7) / 8, (nz + 7) / 8), dim3(8, 8, 8)>>>(v, nx, ny, nz);
// CHECK-NEXT: +  box<<<dim3((nx + 31) / 32, (ny + 3) / 4, (nz + 1) / 2), dim3(32, 4, 2)>>>(v, nx, ny, nz);
