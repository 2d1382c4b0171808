// vectorize where CUDA has no vector type of the elements: a template's
// type parameter (one pattern, every instantiation) and __half. The vector
// is an aligned struct of the elements, `struct alignas(W * sizeof(T))`,
// which nvcc loads and stores as v2/v4 accesses; the template kernel's
// body is rewritten once, in its pattern, and the launches of both
// instantiations shrink their grids.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"saxpby_t.vectorize": 4, "half_relu.vectorize": 2}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -ptx %t.cu -o %t.ptx
// RUN: %strip-checks < %t.cu | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
#include <cuda_fp16.h>
#include <cuda_runtime.h>

template <typename Real>
__global__ void saxpby_t(Real alpha, const Real *xs, Real beta, Real *ys,
                         long count) {
  long idx = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= count)
    return;
  ys[idx] = alpha * xs[idx] + beta * ys[idx];
}

__global__ void half_relu(__half *h, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n)
    h[i] = __hgt(h[i], __float2half(0.0f)) ? h[i] : __float2half(0.0f);
}

int main() {
  const long n = 1 << 20;
  float *xf, *yf;
  double *xd, *yd;
  __half *h;
  cudaMalloc(&xf, n * sizeof(float));
  cudaMalloc(&yf, n * sizeof(float));
  cudaMalloc(&xd, n * sizeof(double));
  cudaMalloc(&yd, n * sizeof(double));
  cudaMalloc(&h, n * sizeof(__half));
  saxpby_t<float><<<(n + 255) / 256, 256>>>(2.0f, xf, 0.5f, yf, n);
  saxpby_t<double><<<(n + 127) / 128, 128>>>(2.0, xd, 0.5, yd, n);
  half_relu<<<(n + 255) / 256, 256>>>(h, (int)n);
  cudaDeviceSynchronize();
  return 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "saxpby_t.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "half_relu.vectorize"

// CHECK:      struct alignas(4 * sizeof(Real)) Real4_vec { Real e[4]; };
// CHECK-NEXT: const long idx_first = ((long)blockIdx.x * blockDim.x + threadIdx.x) * 4;
// CHECK:      const Real4_vec xs_v_q = *reinterpret_cast<const Real4_vec *>(xs + idx_first);
// CHECK:      ys_v[lane] = alpha * xs_v[lane] + beta * ys_v[lane];
// CHECK:      *reinterpret_cast<Real4_vec *>(ys + idx_first) = ys_v_out;
// CHECK:      struct alignas(2 * sizeof(__half)) __half2_vec { __half e[2]; };
// CHECK:      h_v[lane] = __hgt(h_v[lane], __float2half(0.0f)) ? h_v[lane] : __float2half(0.0f);
// CHECK:      saxpby_t<float><<<(((n) + 4 - 1) / 4 + 255) / 256, 256>>>
// CHECK-NEXT: saxpby_t<double><<<(((n) + 4 - 1) / 4 + 127) / 128, 128>>>

// Both instantiations and the half kernel move whole vectors (f32 is the
// float instantiation only, f64 the double one, u16 the half kernel).
// PTX-DAG: ld.global.v4.f32
// PTX-DAG: st.global.v4.f32
// PTX-DAG: ld.global.v2.f64
// PTX-DAG: st.global.v2.f64
// PTX-DAG: ld.global.v2.u16
// PTX-DAG: st.global.v2.u16
