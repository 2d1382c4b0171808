// index_helpers.cuh -- small indexing utilities shared by the kernels in
// cpp_axpy_helpers.cu.  Written in the "helper function" style common in
// C++ CUDA code bases: every kernel obtains its coordinates through these.
#pragma once
#include <cuda_runtime.h>

namespace cfg {
constexpr int kThreads = 256; // 1-D launches
constexpr int kTileX = 16;    // 2-D launches
constexpr int kTileY = 16;
} // namespace cfg

__device__ __forceinline__ int global_idx() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ inline int2 idx2d() {
  return make_int2(blockIdx.x * blockDim.x + threadIdx.x,
                   blockIdx.y * blockDim.y + threadIdx.y);
}

inline int div_up(int a, int b) { return (a + b - 1) / b; }
