// Host code may call what nvcc's cuda_runtime.h declares for every file:
// min/max on host values, clock() and time() (<time.h>), isfinite (<math.h>),
// printf and malloc -- without including a header for them.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
//
// A host max(int, int) of the program's own is an error with nvcc too
// ("has already been defined"), and so it is here.
// RUN: printf 'int max(int a, int b) { return a > b ? a : b; }\n__global__ void k(int *p) { *p = max(*p, 1); }\nint main() { k<<<1, 1>>>(0); }\n' > %t.redefined.cu
// RUN: %expect-exit 4 %cro %t.redefined.cu --analyze 2> %t.err
// RUN: FileCheck --check-prefix=REDEF %s < %t.err
// REDEF: redefinition of 'max'

__global__ void relu(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = max(a[i], 0.0f);
}

int main() {
  srand(time(NULL));
  clock_t t0 = clock();
  int n = 1000;
  int threads = min(max(n / 4, 32), 256);
  float x = 1.0f;
  if (!isfinite(x) || fabs(x) > 2.0)
    return 1;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  relu<<<(n + threads - 1) / threads, threads>>>(d, n);
  cudaDeviceSynchronize();
  printf("%ld\n", (long)(clock() - t0));
  return 0;
}

// CHECK-DAG: kernels[0].name = "relu"
// CHECK-DAG: kernels[0].launches[0].kernel = "relu"
