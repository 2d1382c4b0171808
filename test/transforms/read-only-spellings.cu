// read-only on declarations written other ways than `T *name`: element
// types from macros, pointer typedefs and `auto` (the type's name is
// replaced: a `const` prefix would qualify the pointer), locals that copy the
// parameter (they become pointers to const with it), `p->field` reads.
// Refused only where no edit of one declaration qualifies the pointee.
// RUN: %cro %s --analyze --assume-no-alias | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"macro_elem.read_only": true, "macro_call_elem.read_only": true, "typedef_ptr.read_only": true, "typedef_const_ptr.read_only": true, "struct_copies.read_only": true, "auto_star_copy.read_only": true, "auto_copy.read_only": true}' > %t.json
// RUN: %cro %s --assume-no-alias --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --assume-no-alias --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cuda_runtime.h>

#define REAL double
#define ELEM(T) T
#define PARAM(type, name) type *name
typedef float *fptr;
typedef const float *cfptr;
struct Point {
  float x, y;
};
typedef Point *PointPtr;

__global__ void macro_elem(int n, REAL *in, REAL *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2 * in[i];
}

__global__ void macro_call_elem(ELEM(float) *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 1.0f;
}

__global__ void typedef_ptr(fptr in, fptr out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i];
}

__global__ void typedef_const_ptr(cfptr in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = -in[i];
}

__global__ void struct_copies(PointPtr pts, float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Point *p = pts + i;
  Point *q = p;
  d[i] = p->x * q->y;
}

__global__ void auto_star_copy(float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  auto *p = in + i;
  out[i] = *p;
}

// `auto p` deduces `float *`: `const auto p` would be `float *const`, so
// `auto` becomes `const auto *`.
__global__ void auto_copy(float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  auto p = in + i;
  out[i] = *p;
}

// One declaration for both copies: `const` would qualify the written one.
__global__ void shared_declaration(float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float *a = in + i, *b = out + i;
  *b = *a;
}

// The macro writes the type and the name.
__global__ void macro_param(PARAM(float, in), float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

// A field written through the copy: the parameter is not only read.
__global__ void struct_write(Point *pts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Point *p = pts + i;
  p->x = p->y;
}

void run(int n, double *dx, double *dy, float *x, float *y, Point *pts) {
  macro_elem<<<(n + 255) / 256, 256>>>(n, dx, dy);
  macro_call_elem<<<(n + 255) / 256, 256>>>(x, y, n);
  typedef_ptr<<<(n + 255) / 256, 256>>>(x, y, n);
  typedef_const_ptr<<<(n + 255) / 256, 256>>>(x, y, n);
  struct_copies<<<(n + 255) / 256, 256>>>(pts, y, n);
  auto_star_copy<<<(n + 255) / 256, 256>>>(x, y, n);
  auto_copy<<<(n + 255) / 256, 256>>>(x, y, n);
  shared_declaration<<<(n + 255) / 256, 256>>>(x, y, n);
  macro_param<<<(n + 255) / 256, 256>>>(x, y, n);
  struct_write<<<(n + 255) / 256, 256>>>(pts, n);
}

// KNOBS-DAG: "macro_elem.read_only"
// KNOBS-DAG: "macro_call_elem.read_only"
// KNOBS-DAG: "typedef_ptr.read_only"
// KNOBS-DAG: "typedef_const_ptr.read_only"
// KNOBS-DAG: "struct_copies.read_only"
// KNOBS-DAG: "auto_star_copy.read_only"
// KNOBS-DAG: "auto_copy.read_only"
// KNOBS-DAG: reason = "parameter 'in' is copied into 'a' ({{.*}}read-only-spellings.cu:78:10), which shares its declaration with other variables (their pointees would become const too) or is declared by a macro"
// KNOBS-DAG: reason = "the type of parameter 'in' ('float *') comes from a macro that also declares the parameter{{.*}}"
// KNOBS-DAG: reason = "no pointer parameter is only read"

// CHECK:      -__global__ void macro_elem(int n, REAL *in, REAL *out) {
// CHECK-NEXT: +__global__ void macro_elem(int n, const REAL *__restrict__ in, REAL *out) {
// CHECK:      -__global__ void macro_call_elem(ELEM(float) *in, float *out, int n) {
// CHECK-NEXT: +__global__ void macro_call_elem(const ELEM(float) *__restrict__ in, float *out, int n) {
// CHECK:      -__global__ void typedef_ptr(fptr in, fptr out, int n) {
// CHECK-NEXT: +__global__ void typedef_ptr(const float * __restrict__ in, fptr out, int n) {
// CHECK:      -__global__ void typedef_const_ptr(cfptr in, float *out, int n) {
// CHECK-NEXT: +__global__ void typedef_const_ptr(cfptr __restrict__ in, float *out, int n) {
// CHECK:      -__global__ void struct_copies(PointPtr pts, float *d, int n) {
// CHECK-NEXT: +__global__ void struct_copies(const Point * __restrict__ pts, float *d, int n) {
// CHECK:      -  Point *p = pts + i;
// CHECK-NEXT: -  Point *q = p;
// CHECK-NEXT: +  const Point *p = pts + i;
// CHECK-NEXT: +  const Point *q = p;
// CHECK:      -  auto *p = in + i;
// CHECK-NEXT: +  const auto *p = in + i;
// CHECK:      -  auto p = in + i;
// CHECK-NEXT: +  const auto * p = in + i;
// CHECK-NOT:  shared_declaration(const
