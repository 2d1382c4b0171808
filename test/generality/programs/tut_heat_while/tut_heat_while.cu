// tut_heat_while: explicit 2-D heat equation (FTCS) with fixed (Dirichlet)
// boundaries.  Each thread owns one column x and walks a strip of STRIP rows
// with a while loop; the host time loop alternates two buffers and also
// launches a line heat-source kernel every step.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(ans)                                                             \
  do {                                                                         \
    cudaError_t code = (ans);                                                  \
    if (code != cudaSuccess) {                                                 \
      fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code),       \
              __FILE__, __LINE__);                                             \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

enum { BLOCK_X = 128 };
enum { STRIP = 16 };

// v = u + r * laplacian(u) on interior points
__global__ void heat_step(const float *u, float *v, int n, int ny, float r) {
  int x = threadIdx.x + blockIdx.x * blockDim.x;
  if (x < 1 || x > n - 2)
    return;
  int y = 1 + blockIdx.y * STRIP;
  int y_end = y + STRIP;
  if (y_end > ny - 1)
    y_end = ny - 1;
  while (y < y_end) {
    int c = y * n + x;
    v[c] = u[c] + r * (u[c - 1] + u[c + 1] + u[c - n] + u[c + n] - 4.0f * u[c]);
    y++;
  }
}

// Line source along one row: u[row, x] += q for interior x.
__global__ void add_line_source(float *u, int n, int row, float q) {
  int x = threadIdx.x + blockIdx.x * blockDim.x;
  if (x < 1 || x > n - 2)
    return;
  u[row * n + x] += q;
}

int main(int argc, char **argv) {
  int nx = argc > 1 ? atoi(argv[1]) : 1024;
  int ny = argc > 2 ? atoi(argv[2]) : 1000;
  int steps = argc > 3 ? atoi(argv[3]) : 200;
  const float r = 0.2f; // alpha * dt / h^2, stable for r <= 0.25
  const float q = 0.05f;
  const int src_row = ny / 2;

  std::vector<float> h_u((size_t)nx * ny);
  srand(271828);
  for (int y = 0; y < ny; y++)
    for (int x = 0; x < nx; x++) {
      bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
      h_u[(size_t)y * nx + x] = edge ? 1.0f : 0.5f * rand() / (float)RAND_MAX;
    }

  // CPU reference
  std::vector<float> a = h_u, b = h_u;
  for (int s = 0; s < steps; s++) {
    for (int x = 1; x < nx - 1; x++)
      a[(size_t)src_row * nx + x] += q;
    for (int y = 1; y < ny - 1; y++)
      for (int x = 1; x < nx - 1; x++) {
        size_t c = (size_t)y * nx + x;
        b[c] = a[c] + r * (a[c - 1] + a[c + 1] + a[c - nx] + a[c + nx] - 4.0f * a[c]);
      }
    a.swap(b);
  }

  float *d_u, *d_v;
  size_t bytes = h_u.size() * sizeof(float);
  CHECK(cudaMalloc(&d_u, bytes));
  CHECK(cudaMalloc(&d_v, bytes));
  CHECK(cudaMemcpy(d_u, h_u.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_v, h_u.data(), bytes, cudaMemcpyHostToDevice)); // same boundary

  dim3 block(BLOCK_X);
  dim3 grid((nx + BLOCK_X - 1) / BLOCK_X, (ny - 2 + STRIP - 1) / STRIP);
  int src_blocks = (nx + BLOCK_X - 1) / BLOCK_X;
  for (int s = 0; s < steps; s++) {
    add_line_source<<<src_blocks, BLOCK_X>>>(d_u, nx, src_row, q);
    heat_step<<<grid, block>>>(d_u, d_v, nx, ny, r);
    float *tmp = d_u;
    d_u = d_v;
    d_v = tmp;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> out(h_u.size());
  CHECK(cudaMemcpy(out.data(), d_u, bytes, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t i = 0; i < out.size(); i++)
    if (!(fabsf(out[i] - a[i]) <= 1e-4f * (1.0f + fabsf(a[i]))))
      bad++;
  if (bad)
    printf("FAILED tut_heat_while (%zu wrong)\n", bad);
  else
    printf("PASSED tut_heat_while\n");
  cudaFree(d_u);
  cudaFree(d_v);
  return bad ? 1 : 0;
}
