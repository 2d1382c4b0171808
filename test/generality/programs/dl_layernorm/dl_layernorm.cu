// dl_layernorm: naive "one thread per row" LayerNorm forward and row
// softmax, the way they appear in reference / fallback paths of deep-learning
// frameworks: each thread walks its whole row with serial loops.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e__ = (x);                                                     \
    if (e__ != cudaSuccess) {                                                  \
      fprintf(stderr, "CUDA failure %s:%d '%s'\n", __FILE__, __LINE__,         \
              cudaGetErrorString(e__));                                        \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

#define THREADS_PER_BLOCK 128

typedef float scalar_t;
typedef float acc_t;

// y = (x - mean) * rstd * gamma + beta, per row; saves mean and rstd for
// the backward pass.
__global__ void layernorm_fwd_rowwise(const scalar_t *X, const scalar_t *gamma,
                                      const scalar_t *beta, scalar_t *Y,
                                      acc_t *mean_out, acc_t *rstd_out,
                                      int rows, int cols, acc_t eps) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  const scalar_t *x = X + (size_t)row * cols;
  scalar_t *y = Y + (size_t)row * cols;

  acc_t sum = 0;
  for (int j = 0; j < cols; ++j)
    sum += x[j];
  acc_t mean = sum / cols;

  acc_t var = 0;
  for (int j = 0; j < cols; ++j) {
    acc_t d = x[j] - mean;
    var += d * d;
  }
  var = var / cols;
  acc_t rstd = rsqrtf(var + eps);

  for (int j = 0; j < cols; ++j)
    y[j] = (scalar_t)((x[j] - mean) * rstd * gamma[j] + beta[j]);
  mean_out[row] = mean;
  rstd_out[row] = rstd;
}

__global__ void softmax_rowwise(const scalar_t *X, scalar_t *Y, int rows,
                                int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    const scalar_t *x = X + (size_t)row * cols;
    scalar_t *y = Y + (size_t)row * cols;
    acc_t mx = x[0];
    for (int j = 1; j < cols; ++j)
      mx = fmaxf(mx, x[j]);
    acc_t denom = 0;
    for (int j = 0; j < cols; ++j)
      denom += expf(x[j] - mx);
    acc_t inv = 1.0f / denom;
    for (int j = 0; j < cols; ++j)
      y[j] = expf(x[j] - mx) * inv;
  }
}

int main(int argc, char **argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 8191;
  int cols = argc > 2 ? atoi(argv[2]) : 768;
  const acc_t eps = 1e-5f;
  size_t total = (size_t)rows * cols;

  srand(99);
  std::vector<scalar_t> X(total), gamma(cols), beta(cols);
  for (auto &v : X) v = 4.0f * rand() / (float)RAND_MAX - 2.0f + 0.5f;
  for (auto &v : gamma) v = 0.5f + (float)rand() / (float)RAND_MAX;
  for (auto &v : beta) v = 0.2f * rand() / (float)RAND_MAX - 0.1f;

  // CPU reference in double precision
  std::vector<double> Y_ref(total), S_ref(total), mean_ref(rows), rstd_ref(rows);
  for (int r = 0; r < rows; ++r) {
    const scalar_t *x = &X[(size_t)r * cols];
    double m = 0, v = 0, mx = x[0], den = 0;
    for (int j = 0; j < cols; ++j) m += x[j];
    m /= cols;
    for (int j = 0; j < cols; ++j) v += (x[j] - m) * (x[j] - m);
    v /= cols;
    double rs = 1.0 / std::sqrt(v + eps);
    for (int j = 0; j < cols; ++j)
      Y_ref[(size_t)r * cols + j] = (x[j] - m) * rs * gamma[j] + beta[j];
    mean_ref[r] = m;
    rstd_ref[r] = rs;
    for (int j = 1; j < cols; ++j) mx = std::fmax(mx, (double)x[j]);
    for (int j = 0; j < cols; ++j) den += std::exp(x[j] - mx);
    for (int j = 0; j < cols; ++j)
      S_ref[(size_t)r * cols + j] = std::exp(x[j] - mx) / den;
  }

  scalar_t *dX, *dG, *dB, *dY, *dS;
  acc_t *dMean, *dRstd;
  CHECK(cudaMalloc(&dX, total * sizeof(scalar_t)));
  CHECK(cudaMalloc(&dY, total * sizeof(scalar_t)));
  CHECK(cudaMalloc(&dS, total * sizeof(scalar_t)));
  CHECK(cudaMalloc(&dG, cols * sizeof(scalar_t)));
  CHECK(cudaMalloc(&dB, cols * sizeof(scalar_t)));
  CHECK(cudaMalloc(&dMean, rows * sizeof(acc_t)));
  CHECK(cudaMalloc(&dRstd, rows * sizeof(acc_t)));
  CHECK(cudaMemcpy(dX, X.data(), total * sizeof(scalar_t), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dG, gamma.data(), cols * sizeof(scalar_t), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, beta.data(), cols * sizeof(scalar_t), cudaMemcpyHostToDevice));

  int blocks = (rows + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
  layernorm_fwd_rowwise<<<blocks, THREADS_PER_BLOCK>>>(dX, dG, dB, dY, dMean,
                                                       dRstd, rows, cols, eps);
  CHECK(cudaGetLastError());
  softmax_rowwise<<<blocks, THREADS_PER_BLOCK>>>(dX, dS, rows, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<scalar_t> Y(total), S(total);
  std::vector<acc_t> mean(rows), rstd(rows);
  CHECK(cudaMemcpy(Y.data(), dY, total * sizeof(scalar_t), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(S.data(), dS, total * sizeof(scalar_t), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(mean.data(), dMean, rows * sizeof(acc_t), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rstd.data(), dRstd, rows * sizeof(acc_t), cudaMemcpyDeviceToHost));

  size_t bad = 0;
  for (size_t i = 0; i < total; ++i) {
    if (!(std::fabs(Y[i] - Y_ref[i]) <= 1e-3 * (1.0 + std::fabs(Y_ref[i])))) ++bad;
    if (!(std::fabs(S[i] - S_ref[i]) <= 1e-3 * std::fabs(S_ref[i]) + 1e-8)) ++bad;
  }
  for (int r = 0; r < rows; ++r) {
    if (!(std::fabs(mean[r] - mean_ref[r]) <= 1e-3 * (1.0 + std::fabs(mean_ref[r])))) ++bad;
    if (!(std::fabs(rstd[r] - rstd_ref[r]) <= 1e-3 * (1.0 + std::fabs(rstd_ref[r])))) ++bad;
  }
  if (bad)
    printf("FAILED dl_layernorm (%zu wrong)\n", bad);
  else
    printf("PASSED dl_layernorm\n");
  cudaFree(dX); cudaFree(dY); cudaFree(dS); cudaFree(dG); cudaFree(dB);
  cudaFree(dMean); cudaFree(dRstd);
  return bad ? 1 : 0;
}
