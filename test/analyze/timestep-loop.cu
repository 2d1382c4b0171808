// A kernel launched inside a time-step loop (heat equation in 1D).
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>
#include <utility>

const int kThreads = 128;

__global__ void heat_step(const double *u, double *unew, double r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    unew[i] = u[i] + r * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
}

void simulate(double *u, double *tmp, double r, int n, int steps) {
  int blocks = (n + kThreads - 1) / kThreads;
  for (int t = 0; t < steps; ++t) {
    heat_step<<<blocks, kThreads>>>(u, tmp, r, n);
    std::swap(u, tmp);
  }
}

// CHECK-DAG: kernels[0].name = "heat_step"
// CHECK-DAG: kernels[0].launches[0].in_loop = true
// CHECK-DAG: kernels[0].launches[0].loop_depth = 1
// CHECK-DAG: kernels[0].launches[0].caller = "simulate"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].kind = "constant"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].symbol = "kThreads"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].value = 128
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_term = "kThreads"
// CHECK-DAG: kernels[0].accesses[2].indices[0].form.constant = "-1"
// CHECK-DAG: kernels[0].accesses[4].indices[0].form.constant = "1"
