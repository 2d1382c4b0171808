// A template kernel launched with a block size the program chooses at run
// time: a constant replaces it at the launch (the grid recomputed from its
// extent) as for any kernel whose outputs depend on the global index alone;
// the body is left as written, the same text in every instantiation, so the
// template is no obstacle. One instantiation per launch, each its own knob's
// launch; a template kernel whose threads share memory stays refused.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"clamp_scale.block": 128}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: %strip-checks < %t.cu | FileCheck %s --check-prefix=APPLY
// RUN: nvcc -arch=sm_90 -O3 %t.cu -o %t.exe
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T>
__global__ void clamp_scale(const T *in, T *out, T factor, T limit, int n) {
  const int gid = threadIdx.x + blockIdx.x * blockDim.x;
  if (gid >= n)
    return;
  const T v = in[gid] * factor;
  out[gid] = v > limit ? limit : v;
}

template <typename T, int B>
__global__ void tile_sum(const T *in, T *out, int n) {
  __shared__ T s[B];
  int i = blockIdx.x * B + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  if (threadIdx.x == 0) {
    T t = 0;
    for (int k = 0; k < B; ++k)
      t += s[k];
    out[blockIdx.x] = t;
  }
}

int main(int argc, char **argv) {
  const int n = 1 << 20;
  int threads = argc > 1 ? std::atoi(argv[1]) : 256;
  float *fin, *fout;
  double *din, *dout;
  cudaMalloc(&fin, n * sizeof(float));
  cudaMalloc(&fout, n * sizeof(float));
  cudaMalloc(&din, n * sizeof(double));
  cudaMalloc(&dout, n * sizeof(double));
  clamp_scale<float><<<(n + threads - 1) / threads, threads>>>(fin, fout, 2.0f, 1.0f, n);
  clamp_scale<double><<<(n + threads - 1) / threads, threads>>>(din, dout, 2.0, 1.0, n);
  tile_sum<float, 256><<<(n + 255) / 256, 256>>>(fin, fout, n);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}

// CHECK-DAG: knobs[{{[0-9]+}}].id = "clamp_scale.block"
// CHECK-DAG: knobs[{{[0-9]+}}].default = "runtime"
// APPLY: clamp_scale<float><<<dim3((n + 127) / 128), dim3(128)>>>(fin, fout, 2.0f, 1.0f, n);
// APPLY: clamp_scale<double><<<dim3((n + 127) / 128), dim3(128)>>>(din, dout, 2.0, 1.0, n);
// APPLY: tile_sum<float, 256><<<(n + 255) / 256, 256>>>(fin, fout, n);
// CHECK-DAG: refused[{{[0-9]+}}].reason = "the kernel writes 'out[blockIdx.x]' at {{.*}}block-size-runtime-template.cu:35:5 once per block, from values the block's threads combined out of elements the block's size decides: another block size combines other elements into it"
