#!/usr/bin/env python3
"""Writes a large, realistic CUDA file for the --analyze speed benchmark:
a mix of elementwise, stencil, matmul, reduction and templated kernels, each
with a host launcher, until the file has at least --lines lines.

    python3 bench/gen_large_cu.py --lines 2000 -o /tmp/large.cu
"""
import argparse

HEADER = """#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

#define BLOCK 256
constexpr int TILE = 16;
"""

TEMPLATES = [
    """
__global__ void axpy_{i}(int n, float a, const float *x, float *y) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] * {i}.0f;
}}
void run_axpy_{i}(int n, float a, const float *x, float *y) {{
  axpy_{i}<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, a, x, y);
}}
""",
    """
__global__ void stencil_{i}(const float *in, float *out, int nx, int ny) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1)
    return;
  out[y * nx + x] = 0.2f * (in[y * nx + x] + in[y * nx + x - 1] +
                            in[y * nx + x + 1] + in[(y - 1) * nx + x] +
                            in[(y + 1) * nx + x]);
}}
void run_stencil_{i}(const float *in, float *out, int nx, int ny) {{
  dim3 block(32, 8);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  stencil_{i}<<<grid, block>>>(in, out, nx, ny);
}}
""",
    """
__global__ void matmul_{i}(const float *A, const float *B, float *C, int M,
                          int N, int K) {{
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {{
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }}
}}
void run_matmul_{i}(const float *A, const float *B, float *C, int M, int N,
                   int K) {{
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul_{i}<<<grid, block>>>(A, B, C, M, N, K);
}}
""",
    """
__global__ void reduce_{i}(const float *in, float *out, int n) {{
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k >>= 1) {{
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }}
  if (tid == 0)
    atomicAdd(out, s[0]);
}}
void run_reduce_{i}(const float *in, float *out, int n) {{
  int blocks = (n + BLOCK - 1) / BLOCK;
  for (int rep = 0; rep < 3; ++rep)
    reduce_{i}<<<blocks, BLOCK>>>(in, out, n);
}}
""",
    """
template <int B, typename T>
__global__ void scale_{i}(T *data, T f, int n) {{
  __shared__ T tile[B];
  int i = blockIdx.x * B + threadIdx.x;
  if (i < n) {{
    tile[threadIdx.x] = data[i];
    data[i] = tile[threadIdx.x] * f;
  }}
}}
template <int B> void run_scale_{i}(float *d, float f, int n) {{
  scale_{i}<B><<<(n + B - 1) / B, B>>>(d, f, n);
}}
void use_scale_{i}(float *d, int n) {{
  run_scale_{i}<128>(d, 2.0f, n);
  run_scale_{i}<512>(d, 0.5f, n);
}}
""",
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    text = HEADER
    i = 0
    while text.count("\n") < args.lines:
        text += TEMPLATES[i % len(TEMPLATES)].format(i=i)
        i += 1
    with open(args.output, "w") as f:
        f.write(text)
    print(f"{args.output}: {text.count(chr(10))} lines, {i} kernels")


if __name__ == "__main__":
    main()
