// coarsen: strided and contiguous forms, returns become continue, the grid
// shrinks inside its ceil-div; kernels whose threads communicate or whose
// grid does not follow the guard are refused with the reason.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"scale.coarsen": "x4", "clip2d.coarsen": "y2-contiguous"}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: echo '{"scale.coarsen": "z4"}' > %t.bad.json
// RUN: %expect-exit 10 %cro %s --apply %t.bad.json -o %t.bad.cu 2>&1 | %strip-checks | FileCheck %s --check-prefix=BAD
#include <cuda_runtime.h>

__global__ void scale(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= s;
}

__global__ void clip2d(float *m, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  if (m[y * w + x] < 0.0f) {
    m[y * w + x] = 0.0f;
    return;
  }
  m[y * w + x] *= 2.0f;
}

__global__ void neighbours(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ float s[128];
  s[threadIdx.x] = i < n ? v[i] : 0.0f;
  __syncthreads();
  if (i < n)
    v[i] = s[(threadIdx.x + 1) % 128];
}

__global__ void partial(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += 1.0f;
}

void run(float *v, int n, int w, int h) {
  scale<<<(n + 255) / 256, 256>>>(v, 2.0f, n);
  dim3 block(16, 16);
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  clip2d<<<grid, block>>>(v, w, h);
  neighbours<<<(n + 127) / 128, 128>>>(v, n);
  partial<<<(n + 255) / 256, 256>>>(v, n / 2);
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "scale.coarsen"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "clip2d.coarsen"
// KNOBS-DAG: reason = "threads of a block share data through shared memory; a block would no longer hold the same outputs"
// KNOBS-DAG: reason = "the launch at {{.*}}coarsen.cu:51:3 sizes the grid by 'n' but passes 'n / 2' as the bound 'n'; nor is it known which threads the launches have: the launch at {{.*}}coarsen.cu:51:3 rounds the grid up from 'n', which is not a compile-time constant"

// CHECK:      -  int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT: +  const int i_first = blockIdx.x * blockDim.x * 4 + threadIdx.x;
// CHECK-NEXT: +  #pragma unroll
// CHECK-NEXT: +  for (int i_step = 0; i_step < 4; ++i_step) {
// CHECK-NEXT: +  const int i = i_first + i_step * blockDim.x;
// CHECK-NEXT:    if (i < n)
// CHECK-NEXT:      v[i] *= s;
// CHECK-NEXT: +  }
// CHECK:      -  int y = blockIdx.y * blockDim.y + threadIdx.y;
// CHECK-NEXT: +  const int y_first = (blockIdx.y * blockDim.y + threadIdx.y) * 2;
// CHECK:      +  const int y = y_first + y_step;
// CHECK:      -    return;
// CHECK-NEXT: +    continue;
// CHECK:      -    return;
// CHECK-NEXT: +    continue;
// CHECK:      -  scale<<<(n + 255) / 256, 256>>>(v, 2.0f, n);
// CHECK-NEXT: +  scale<<<(((n) + 4 - 1) / 4 + 255) / 256, 256>>>(v, 2.0f, n);
// CHECK:      +  dim3 grid((w + block.x - 1) / block.x, (((h) + 2 - 1) / 2 + block.y - 1) / block.y);

// BAD: illegal value "z4" for knob 'scale.coarsen'
