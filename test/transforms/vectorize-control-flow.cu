// vectorize on work that is not straight-line: only the accesses every
// element performs (no branch, loop or earlier return of the work can skip
// them) become vector loads and stores -- they alone are known to lie
// inside their arrays for all the vector's elements; every other access
// runs per element as written, and a return ends one element's work
// (`continue`). Refused where a vector load or store would move past an
// access that may touch the same element while one of them writes it, and
// where no access is both contiguous and unconditional.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"box_filter.vectorize": 4, "threshold.vectorize": 4, "masked_clamp.vectorize": 2, "laplace1d.vectorize": 2}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
#include <cuda_runtime.h>

#define RADIUS 2
typedef float pixel_t;

// A loop over taps: the taps' reads stay scalar, the output is one stream.
__global__ void box_filter(const pixel_t *src, pixel_t *dst,
                           const float *weights, int width) {
  int col = threadIdx.x + blockDim.x * blockIdx.x;
  if (col < width) {
    float acc = 0.0f;
    int t;
    for (t = -RADIUS; t <= RADIUS; t++) {
      int c = min(max(col + t, 0), width - 1);
      acc += src[c] * weights[t + RADIUS];
    }
    dst[col] = acc;
  }
}

// The store happens on some paths only: the input is loaded as vectors,
// the output stays a scalar store under its condition.
__global__ void threshold(const float *__restrict__ in, float *__restrict__ out,
                          float t, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) {
    float v = in[tid];
    if (v > t)
      out[tid] = v;
  }
}

// An early return inside the work (the statement before it ends the
// guard): the mask is read by every element, the data after the return
// only by some.
__global__ void masked_clamp(float *data, const int *mask, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n)
    return;
  const float limit = 1.0f;
  if (mask[k] == 0)
    return;
  data[k] = fminf(data[k], limit);
}

// Not a box: a lower bound too. Each vector asks the guard for each of its
// elements; of u's three neighbours only the one at a multiple of the
// width is a vector, the others stay per element.
__global__ void laplace1d(const double *u, double *unew, int nx) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  if (ix > 0 && ix < nx - 1)
    unew[ix] = u[ix - 1] - 2.0 * u[ix] + u[ix + 1];
}

// Refused: the gathered read may be the element the first statement wrote.
__global__ void gather_after_write(float *v, const int *perm, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = 2.0f * v[i];
    float w = v[perm[i]];
    v[i] = w;
  }
}

// Refused: the element is written through a reference the model does not
// follow, so the vector store would not know of the write.
__device__ void set_one(float &r, float v) { r = v + 1.0f; }
__global__ void through_refs(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    set_one(a[i], b[i]);
}

// Refused: nothing is performed for every element.
__global__ void maybe_copy(const float *in, float *out, int n, int enabled) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (enabled)
      out[i] = in[i];
  }
}

// Refused: the only unconditional accesses are strided.
__global__ void stride_two(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[2 * i] = in[2 * i + 1];
}

int main() {
  const int n = 1 << 20;
  float *a, *b, *w;
  int *m;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&w, 8 * sizeof(float));
  cudaMalloc(&m, n * sizeof(int));
  box_filter<<<(n + 255) / 256, 256>>>(a, b, w, n);
  threshold<<<(n + 127) / 128, 128>>>(a, b, 0.5f, n);
  masked_clamp<<<(n + 255) / 256, 256>>>(a, m, n);
  double *u, *v;
  cudaMalloc(&u, n * sizeof(double));
  cudaMalloc(&v, n * sizeof(double));
  laplace1d<<<(n + 127) / 128, 128>>>(u, v, n);
  gather_after_write<<<(n + 255) / 256, 256>>>(a, m, n);
  maybe_copy<<<(n + 255) / 256, 256>>>(a, b, n, 1);
  through_refs<<<(n + 255) / 256, 256>>>(a, b, n);
  stride_two<<<(n / 2 + 255) / 256, 256>>>(a, b, n / 2);
  cudaDeviceSynchronize();
  return 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "box_filter.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "threshold.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "masked_clamp.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "laplace1d.vectorize"
// KNOBS-DAG: reason = "'v[perm[i]]' at {{.*}}vectorize-control-flow.cu:72:15 may access the element 'v[i]' at {{.*}}:71:5 accesses: the stream's vector store would move after that read"
// KNOBS-DAG: reason = "'a' escapes the analysis (an element is passed by reference to 'set_one'), so accesses to 'a' the model does not see may be reordered with its vector loads and stores"
// KNOBS-DAG: reason = "no global access of the work is both contiguous along 'i' and performed for every element: every access is skipped by a branch, a loop or a return on some path"
// KNOBS-DAG: reason = "no global access of the work is both contiguous along 'i' and performed for every element: 'out[2 * i]' at {{.*}}:99:5 is not contiguous along x (2 elements apart)"

// The filter: four outputs per thread, the taps per output as written.
// CHECK:          const int col_first = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
// CHECK-NEXT:     if (col_first + 4 <= width &&
// CHECK-NEXT:         reinterpret_cast<unsigned long long>(dst + col_first) % sizeof(float4) == 0) {
// CHECK-NEXT:       pixel_t dst_v[4];
// CHECK-NEXT:       #pragma unroll
// CHECK-NEXT:       for (int lane = 0; lane < 4; ++lane) {
// CHECK-NEXT:         const int col = col_first + lane;
// CHECK-NEXT:         float acc = 0.0f;
// CHECK-NEXT:         int t;
// CHECK-NEXT:         for (t = -RADIUS; t <= RADIUS; t++) {
// CHECK-NEXT:           int c = min(max(col + t, 0), width - 1);
// CHECK-NEXT:           acc += src[c] * weights[t + RADIUS];
// CHECK-NEXT:         }
// CHECK-NEXT:         dst_v[lane] = acc;
// CHECK-NEXT:       }
// CHECK-NEXT:       *reinterpret_cast<float4 *>(dst + col_first) = make_float4(dst_v[0], dst_v[1], dst_v[2], dst_v[3]);
// The threshold: the input as vectors, the conditional store as written.
// CHECK:            const float4 in_v_q = *reinterpret_cast<const float4 *>(in + tid_first);
// CHECK:              float v = in_v[lane];
// CHECK-NEXT:         if (v > t)
// CHECK-NEXT:           out[tid] = v;
// CHECK-NEXT:       }
// CHECK-NEXT:     } else {
// The clamp: the mask as vectors, the data per element, returns continue.
// CHECK:          const int2 mask_v_q = *reinterpret_cast<const int2 *>(mask + k_first);
// CHECK:            const float limit = 1.0f;
// CHECK-NEXT:       if (mask_v[lane] == 0)
// CHECK-NEXT:         continue;
// CHECK-NEXT:       data[k] = fminf(data[k], limit);
// CHECK:            if (!(k >= n)) {
// CHECK-NEXT:         const float limit = 1.0f;
// CHECK-NEXT:         if (mask[k] == 0)
// CHECK-NEXT:           continue;
// The stencil: a vector when the guard holds for each of its elements.
// CHECK:        bool whole_vector = ix_first + 2 <= nx - 1 &&
// CHECK-NEXT:       reinterpret_cast<unsigned long long>(unew + ix_first) % sizeof(double2) == 0 &&
// CHECK-NEXT:       reinterpret_cast<unsigned long long>(u + ix_first) % sizeof(double2) == 0;
// CHECK-NEXT:   #pragma unroll
// CHECK-NEXT:   for (int lane = 0; lane < 2; ++lane) {
// CHECK-NEXT:     const int ix = ix_first + lane;
// CHECK-NEXT:     whole_vector = whole_vector && (ix > 0 && ix < nx - 1);
// CHECK-NEXT:   }
// CHECK-NEXT:   if (whole_vector) {
// CHECK:            unew_v[lane] = u[ix - 1] - 2.0 * u_v[lane] + u[ix + 1];
// CHECK:            if (ix > 0 && ix < nx - 1) {
// CHECK-NEXT:         unew[ix] = u[ix - 1] - 2.0 * u[ix] + u[ix + 1];
