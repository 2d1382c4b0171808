// vectorize where the accesses sit in a loop of the work: a thread's
// elements (the original's threads) share the loop's iterations when its
// control and the work around it do not depend on the element, and each
// iteration loads the body's contiguous accesses as vectors (indexed by the
// loop's variable too, alignment checked per iteration), runs the body once
// per element and stores them. Locals declared before the guard that the
// work changes start each element from their initial value again.
// Refused where an element could leave an iteration early, where the loop's
// control or the work around it depends on the element, and where the body
// changes a variable declared outside it.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"jacobi_z.vectorize": 4, "relax_rows.vectorize": 2, "row_dot.vectorize": 2}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
#include <cuda_runtime.h>

typedef float real;
#define AT(i, j, k) ((k) * plane + (j) * nx + (i))

// A 3-D stencil marching in z: the planes are rows of the grid, the loop
// variable declared before its loop.
__global__ void jacobi_z(const real *in, real *out, int nx, int ny, int nz,
                         int plane) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int j = blockDim.y * blockIdx.y + threadIdx.y;
  int k;
  if (i >= 1 && i <= nx - 2 && j >= 1 && j <= ny - 2) {
    for (k = 1; k < nz - 1; ++k) {
      out[AT(i, j, k)] = 0.25f * (in[AT(i, j, k - 1)] + in[AT(i, j, k + 1)] +
                                  in[AT(i, j - 1, k)] + in[AT(i, j + 1, k)]);
    }
  }
}

// A while loop over a block of rows, stepped by its last statement; the
// bounds come before it, once per thread.
__global__ void relax_rows(double *grid, const double *src, int width,
                           int rows, int rows_per_block, double w) {
  const int col = threadIdx.x + blockIdx.x * blockDim.x;
  if (col >= width)
    return;
  int row = blockIdx.y * rows_per_block;
  int last = min(row + rows_per_block, rows);
  while (row < last) {
    const int at = row * width + col;
    grid[at] = (1.0 - w) * grid[at] + w * src[at];
    row += 1;
  }
}

// A row of a matrix times a vector: the accumulator is declared before the
// guard, so each of a thread's rows starts it from zero again.
__global__ void row_dot(const float *m, const float *v, float *y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  int c;
  if (r < n) {
    for (c = 0; c < n; c++)
      acc += m[r * n + c] * v[c];
    y[r] = acc;
  }
}

// Refused: an element may leave the loop early.
__global__ void until_negative(const float *a, float *b, int n, int len) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < n) {
    for (int k = 0; k < len; ++k) {
      if (a[k * n + x] < 0.0f)
        break;
      b[k * n + x] = a[k * n + x];
    }
  }
}

// Refused: each element runs the loop a different number of times.
__global__ void triangle(float *a, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < n)
    for (int k = 0; k < x; ++k)
      a[k * n + x] = 0.0f;
}

// Refused: the loop accumulates into a local of the work, per element.
__global__ void positive_sums(const float *a, float *s, int n, int len) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < n) {
    float t = 0.0f;
    for (int k = 0; k < len; ++k)
      t += a[k * n + x];
    if (t > 0.0f)
      s[x] = t;
  }
}

int main() {
  const int nx = 256, ny = 256, nz = 64, n = 1024;
  real *a, *b;
  cudaMalloc(&a, nx * ny * nz * sizeof(real));
  cudaMalloc(&b, nx * ny * nz * sizeof(real));
  jacobi_z<<<dim3((nx + 63) / 64, (ny + 3) / 4), dim3(64, 4)>>>(a, b, nx, ny,
                                                                 nz, nx * ny);
  double *g, *s;
  cudaMalloc(&g, n * n * sizeof(double));
  cudaMalloc(&s, n * n * sizeof(double));
  relax_rows<<<dim3((n + 127) / 128, n / 16), 128>>>(g, s, n, n, 16, 0.5);
  row_dot<<<(n + 255) / 256, 256>>>(a, b, a, n);
  until_negative<<<(n + 255) / 256, 256>>>(a, b, n, 8);
  triangle<<<(n + 255) / 256, 256>>>(a, n);
  positive_sums<<<(n + 255) / 256, 256>>>(a, b, n, 8);
  cudaDeviceSynchronize();
  return 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "jacobi_z.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "relax_rows.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "row_dot.vectorize"
// KNOBS-DAG: reason = "no global access of the work is both contiguous along 'x' and performed for every element: every access is skipped by a branch, a loop or a return on some path; nor can the lanes share a loop: loop L0 at {{.*}}vectorize-loops.cu:68:5 ends an iteration early for one element (break at {{.*}}vectorize-loops.cu:70:9)"
// KNOBS-DAG: reason = "no global access of the work is both contiguous along 'x' and performed for every element: every access is skipped by a branch, a loop or a return on some path; nor can the lanes share a loop: the work around loop L0 at {{.*}}vectorize-loops.cu:80:5 uses 'x', so the lanes would not run it alike"
// KNOBS-DAG: reason = "no global access of the work is both contiguous along 'x' and performed for every element: every access is skipped by a branch, a loop or a return on some path; nor can the lanes share a loop: the body of loop L0 at {{.*}}vectorize-loops.cu:89:5 changes 't' at {{.*}}vectorize-loops.cu:88:11, declared outside it, which a thread's elements would then change one after the other"

// The stencil: the loop runs once per thread; each plane's output and
// centre-row inputs are vectors where aligned, the neighbours along x stay
// per element (none here), the rows above and below are vectors too.
// CHECK:          const int i_first = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
// CHECK-NEXT:     int j = blockDim.y * blockIdx.y + threadIdx.y;
// CHECK-NEXT:     int k;
// CHECK-NEXT:     bool whole_vector = i_first + 4 <= (nx - 2) + 1 && j < (ny - 2) + 1;
// CHECK:          if (whole_vector) {
// CHECK-NEXT:       for (k = 1; k < nz - 1; ++k) {
// CHECK-NEXT:         if (reinterpret_cast<unsigned long long>(out + ((long long)i_first + (long long)nx * j + (long long)plane * k)) % sizeof(float4) == 0 &&
// CHECK-NEXT:             reinterpret_cast<unsigned long long>(in + ((long long)i_first + (long long)nx * j + (long long)plane * k - (long long)plane)) % sizeof(float4) == 0 &&
// CHECK:                real out_v[4];
// CHECK:                #pragma unroll
// CHECK-NEXT:           for (int lane = 0; lane < 4; ++lane) {
// CHECK-NEXT:             out_v[lane] = 0.25f * (in_v[lane] + in_v2[lane] +
// CHECK-NEXT:                                         in_v3[lane] + in_v4[lane]);
// CHECK-NEXT:           }
// CHECK-NEXT:           *reinterpret_cast<float4 *>(out + ((long long)i_first + (long long)nx * j + (long long)plane * k)) = make_float4(out_v[0], out_v[1], out_v[2], out_v[3]);
// CHECK-NEXT:         } else {
// CHECK-NEXT:           #pragma unroll
// CHECK-NEXT:           for (int lane = 0; lane < 4; ++lane) {
// CHECK-NEXT:             const int i = i_first + lane;
// CHECK-NEXT:             out[AT(i, j, k)] = 0.25f * (in[AT(i, j, k - 1)] + in[AT(i, j, k + 1)] +
// CHECK:                }
// CHECK-NEXT:         }
// CHECK-NEXT:       }
// CHECK-NEXT:     } else {
// CHECK-NEXT:       #pragma unroll
// CHECK-NEXT:       for (int lane = 0; lane < 4; ++lane) {
// CHECK-NEXT:         const int i = i_first + lane;
// CHECK-NEXT:         if (i >= 1 && i <= nx - 2 && j >= 1 && j <= ny - 2) {
// CHECK-NEXT:           for (k = 1; k < nz - 1; ++k) {

// The rows: the step statement follows the lanes, once per iteration.
// CHECK:          const int col_first = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
// CHECK:            int row = blockIdx.y * rows_per_block;
// CHECK-NEXT:       int last = min(row + rows_per_block, rows);
// CHECK-NEXT:       while (row < last) {
// CHECK-NEXT:         if (reinterpret_cast<unsigned long long>(grid + ((long long)col_first + (long long)width * row)) % sizeof(double2) == 0 &&
// CHECK-NEXT:             reinterpret_cast<unsigned long long>(src + ((long long)col_first + (long long)width * row)) % sizeof(double2) == 0) {
// CHECK:                  const int at = row * width + col;
// CHECK-NEXT:             grid_v[lane] = (1.0 - w) * grid_v[lane] + w * src_v[lane];
// CHECK:                *reinterpret_cast<double2 *>(grid + ((long long)col_first + (long long)width * row)) = make_double2(grid_v[0], grid_v[1]);
// CHECK:              grid[at] = (1.0 - w) * grid[at] + w * src[at];
// CHECK-NEXT:           }
// CHECK-NEXT:         }
// CHECK-NEXT:         row += 1;
// CHECK-NEXT:       }
// CHECK-NEXT:     } else {

// The dot products: each row starts from zero.
// CHECK:          const int r_first = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
// CHECK-NEXT:     float acc = 0.0f;
// CHECK-NEXT:     int c;
// CHECK:              const int r = r_first + lane;
// CHECK-NEXT:         acc = 0.0f;
// CHECK-NEXT:         for (c = 0; c < n; c++)
// CHECK-NEXT:           acc += m[r * n + c] * v[c];
// CHECK-NEXT:         y_v[lane] = acc;
// CHECK:              if (r < n) {
// CHECK-NEXT:           acc = 0.0f;
