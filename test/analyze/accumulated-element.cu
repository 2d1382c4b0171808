// The model's accumulated_element: a loop whose body changes no variable
// but adds to one global element at an index the loop does not change.
// The index must stay put in the loop's header too (`k++, j++` walks it),
// a second element or another write is not a sum into one element, and a
// body that names the array elsewhere could read the partial sum.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
__global__ void stay(const float *a, float *y, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j = i;
    for (int k = 0; k < len; k++)
      y[j] -= a[i * len + k];
  }
}

__global__ void walk(const float *a, float *y, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j = i;
    for (int k = 0; k < len; k++, j++)
      y[j] += a[i * len + k];
  }
}

__global__ void two_elements(const float *a, float *y, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int k = 0; k < len; k++) {
      y[i] += a[i * len + k];
      y[i + n] += a[i * len + k];
    }
  }
}

__global__ void reads_it(const float *a, float *y, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int k = 0; k < len; k++)
      y[i] += a[i * len + k] * y[0];
  }
}

int main() {
  float *a, *y;
  stay<<<1, 128>>>(a, y, 128, 8);
  walk<<<1, 128>>>(a, y, 128, 8);
  two_elements<<<1, 128>>>(a, y, 128, 8);
  reads_it<<<1, 128>>>(a, y, 128, 8);
}

// CHECK-DAG: kernels[0].name = "stay"
// CHECK-DAG: kernels[0].loops[0].accumulated_element = "y[j]"
// CHECK-DAG: kernels[0].loops[0].accumulator_type = "float"
// CHECK-DAG: kernels[1].name = "walk"
// CHECK-DAG: kernels[1].loops[0].accumulated_element = null
// CHECK-DAG: kernels[2].name = "two_elements"
// CHECK-DAG: kernels[2].loops[0].accumulated_element = null
// CHECK-DAG: kernels[3].name = "reads_it"
// CHECK-DAG: kernels[3].loops[0].accumulated_element = null
