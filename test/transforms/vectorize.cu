// vectorize: element-wise kernels load and store 2 or 4 elements at once
// when the addresses are aligned (checked at run time), with the scalar code
// for the rest. Contiguity comes from the access model: a 2-D kernel whose
// rows are `i * pitch + j` (typedef'd element type, early return) is
// vectorized along j; an index shifted by a constant is contiguous too (its
// alignment decides at run time); a `?:` reads through the vector's
// registers too, and an access strided along x stays scalar while the
// contiguous ones around it become vectors (vectorize-control-flow.cu has
// branches, loops and the refusals).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"axpy.vectorize": 4, "blend.vectorize": 2, "scale_rows.vectorize": 4}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: echo '{"axpy.vectorize": 4, "axpy.coarsen": "x2"}' > %t.bad.json
// RUN: %expect-exit 10 %cro %s --apply %t.bad.json -o %t.bad.cu 2>&1 | %strip-checks | FileCheck %s --check-prefix=BAD
#include <cuda_runtime.h>

__global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void blend(const double *a, const double *b, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double t = a[i] * 0.25;
  out[i] = t + b[i] * 0.75;
}

__global__ void relu(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = v[i] > 0.0f ? v[i] : 0.0f;
}

__global__ void shift(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i + 1];
}

typedef float real;
__global__ void scale_rows(real *m, const real *s, int rows, int pitch, int cols) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols)
    return;
  m[i * pitch + j] = m[i * pitch + j] * s[i];
}

__global__ void column_copy(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * 2] = in[i];
}

void run(float *x, float *y, double *a, double *b, double *o, int n) {
  axpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  blend<<<(n + 127) / 128, 128>>>(a, b, o, n);
  relu<<<(n + 255) / 256, 256>>>(y, n);
  shift<<<(n + 255) / 256, 256>>>(x, y, n);
  dim3 blk(32, 8), grd((n + 31) / 32, (n + 7) / 8);
  scale_rows<<<grd, blk>>>(x, y, n, n + 4, n);
  column_copy<<<(n + 255) / 256, 256>>>(x, y, n);
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "axpy.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].values[2] = 4
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "blend.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "relu.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "shift.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "scale_rows.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "column_copy.vectorize"

// CHECK:      +  const int i_first = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
// CHECK-NEXT: +  if (i_first + 4 <= n &&
// CHECK-NEXT: +      reinterpret_cast<unsigned long long>(y + i_first) % sizeof(float4) == 0 &&
// CHECK-NEXT: +      reinterpret_cast<unsigned long long>(x + i_first) % sizeof(float4) == 0) {
// CHECK:      +    const float4 x_v_q = *reinterpret_cast<const float4 *>(x + i_first);
// CHECK:      +      y_v[lane] = a * x_v[lane] + y_v[lane];
// CHECK:      +    *reinterpret_cast<float4 *>(y + i_first) = make_float4(y_v[0], y_v[1], y_v[2], y_v[3]);
// CHECK-NEXT: +  } else {
// CHECK:      +      if (i < n) {
// CHECK-NEXT: +        y[i] = a * x[i] + y[i];
// The double kernel: 16-byte double2, the output only stored, never loaded.
// CHECK:      +    double out_v[2];
// CHECK-NEXT: +    double b_v[2];
// CHECK:      +      double t = a_v[lane] * 0.25;
// CHECK-NEXT: +      out_v[lane] = t + b_v[lane] * 0.75;
// CHECK:      +    *reinterpret_cast<double2 *>(out + i_first) = make_double2(out_v[0], out_v[1]);
// CHECK:      +      if (!(i >= n)) {
// The 2-D kernel: rows stay the thread's own, four columns per thread; the
// row index and the shared scale s[i] are the program's own.
// CHECK:      +  const int j_first = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
// CHECK-NEXT: int i = blockIdx.y * blockDim.y + threadIdx.y;
// CHECK:      +  if (i < rows && j_first + 4 <= cols &&
// CHECK-NEXT: +      reinterpret_cast<unsigned long long>(m + ((long long)j_first + (long long)pitch * i)) % sizeof(float4) == 0) {
// CHECK-NEXT: +    real m_v[4];
// CHECK-NEXT: +    const float4 m_v_q = *reinterpret_cast<const float4 *>(m + ((long long)j_first + (long long)pitch * i));
// CHECK:      +      m_v[lane] = m_v[lane] * s[i];
// CHECK:      +      if (!(i >= rows || j >= cols)) {
// CHECK-NEXT: +        m[i * pitch + j] = m[i * pitch + j] * s[i];
// CHECK:      -  axpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
// CHECK-NEXT: -  blend<<<(n + 127) / 128, 128>>>(a, b, o, n);
// CHECK-NEXT: +  axpy<<<(((n) + 4 - 1) / 4 + 255) / 256, 256>>>(n, 2.0f, x, y);
// CHECK-NEXT: +  blend<<<(((n) + 2 - 1) / 2 + 127) / 128, 128>>>(a, b, o, n);

// BAD: kernel axpy: coarsen and vectorize both remap its threads
