// cpp_struct_params: kernels that take their parameters as plain structs
// passed by value, a float2-output gradient kernel, a float4 particle
// update, and a global-memory atomic histogram over a grid-stride loop.
// Launch shapes live in a small LaunchCfg struct / grid_for() helper.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e_));                                    \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

struct Grid {
  int nx, ny;
  float dx;
};

struct HistParams {
  float lo;
  float scale; // nbins / (hi - lo)
  int nbins;
};

struct StepParams {
  float dt;
  float damping;
  int n;
};

struct LaunchCfg {
  dim3 grid;
  dim3 block;
};

static constexpr int kBlock1D = 256;
static constexpr int kBlockX = 32;
static constexpr int kBlockY = 8;
static constexpr int kHistBlocks = 120;

static dim3 grid_for(int n, int b) { return dim3((n + b - 1) / b); }

static LaunchCfg cfg_2d(const Grid &g) {
  LaunchCfg c;
  c.block = dim3(kBlockX, kBlockY);
  c.grid = dim3((g.nx + kBlockX - 1) / kBlockX, (g.ny + kBlockY - 1) / kBlockY);
  return c;
}

// Central-difference gradient on interior points, zero on the border.
__global__ void gradient_kernel(Grid g, const float *f, float2 *grad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= g.nx || j >= g.ny)
    return;
  int id = j * g.nx + i;
  float2 out = make_float2(0.0f, 0.0f);
  if (i > 0 && i < g.nx - 1 && j > 0 && j < g.ny - 1) {
    float inv = 1.0f / (2.0f * g.dx);
    out.x = (f[id + 1] - f[id - 1]) * inv;
    out.y = (f[id + g.nx] - f[id - g.nx]) * inv;
  }
  grad[id] = out;
}

__global__ void histogram_kernel(const float *data, int n, HistParams p,
                                 unsigned int *bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    int b = (int)((data[i] - p.lo) * p.scale);
    b = b < 0 ? 0 : (b >= p.nbins ? p.nbins - 1 : b);
    atomicAdd(&bins[b], 1u);
  }
}

// pos.xyz += vel.xyz * dt; vel *= damping; pos.w (mass) untouched.
__global__ void advance_particles(float4 *pos, float4 *vel, StepParams sp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= sp.n)
    return;
  float4 p = pos[i];
  float4 v = vel[i];
  p.x += v.x * sp.dt;
  p.y += v.y * sp.dt;
  p.z += v.z * sp.dt;
  v.x *= sp.damping;
  v.y *= sp.damping;
  v.z *= sp.damping;
  v.w *= sp.damping;
  pos[i] = p;
  vel[i] = v;
}

static float frand() { return std::rand() / (float)RAND_MAX; }

int main(int argc, char **argv) {
  Grid g{argc > 1 ? std::atoi(argv[1]) : 1500, argc > 2 ? std::atoi(argv[2]) : 1100, 0.01f};
  const int nsamples = argc > 3 ? std::atoi(argv[3]) : 4000000;
  const int nparticles = argc > 4 ? std::atoi(argv[4]) : 1000003;
  HistParams hp{-3.0f, 0.0f, 64};
  hp.scale = hp.nbins / (3.0f - hp.lo);
  StepParams sp{0.001f, 0.995f, nparticles};

  std::srand(4242);
  const size_t cells = (size_t)g.nx * g.ny;
  std::vector<float> f(cells), samples(nsamples);
  std::vector<float4> pos(nparticles), vel(nparticles);
  for (auto &v : f) v = frand();
  for (auto &v : samples) v = (frand() + frand() + frand() - 1.5f) * 2.2f;
  for (int i = 0; i < nparticles; ++i) {
    pos[i] = make_float4(frand(), frand(), frand(), 1.0f + frand());
    vel[i] = make_float4(frand() - 0.5f, frand() - 0.5f, frand() - 0.5f, 0.0f);
  }

  // CPU reference
  std::vector<float2> grad_ref(cells, make_float2(0.0f, 0.0f));
  for (int j = 1; j < g.ny - 1; ++j)
    for (int i = 1; i < g.nx - 1; ++i) {
      size_t id = (size_t)j * g.nx + i;
      float inv = 1.0f / (2.0f * g.dx);
      grad_ref[id].x = (f[id + 1] - f[id - 1]) * inv;
      grad_ref[id].y = (f[id + g.nx] - f[id - g.nx]) * inv;
    }
  std::vector<unsigned> hist_ref(hp.nbins, 0u);
  for (float x : samples) {
    int b = (int)((x - hp.lo) * hp.scale);
    b = b < 0 ? 0 : (b >= hp.nbins ? hp.nbins - 1 : b);
    hist_ref[b]++;
  }

  float *d_f, *d_samples;
  float2 *d_grad;
  float4 *d_pos, *d_vel;
  unsigned *d_bins;
  CHECK(cudaMalloc(&d_f, cells * sizeof(float)));
  CHECK(cudaMalloc(&d_grad, cells * sizeof(float2)));
  CHECK(cudaMalloc(&d_samples, nsamples * sizeof(float)));
  CHECK(cudaMalloc(&d_bins, hp.nbins * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_pos, nparticles * sizeof(float4)));
  CHECK(cudaMalloc(&d_vel, nparticles * sizeof(float4)));
  CHECK(cudaMemcpy(d_f, f.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_samples, samples.data(), nsamples * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_pos, pos.data(), nparticles * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vel, vel.data(), nparticles * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_bins, 0, hp.nbins * sizeof(unsigned)));

  const LaunchCfg lc = cfg_2d(g);
  gradient_kernel<<<lc.grid, lc.block>>>(g, d_f, d_grad);
  CHECK(cudaGetLastError());
  histogram_kernel<<<kHistBlocks, kBlock1D>>>(d_samples, nsamples, hp, d_bins);
  CHECK(cudaGetLastError());
  advance_particles<<<grid_for(nparticles, kBlock1D), kBlock1D>>>(d_pos, d_vel, sp);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float2> grad(cells);
  std::vector<unsigned> hist(hp.nbins);
  std::vector<float4> pos_out(nparticles), vel_out(nparticles);
  CHECK(cudaMemcpy(grad.data(), d_grad, cells * sizeof(float2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hist.data(), d_bins, hp.nbins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(pos_out.data(), d_pos, nparticles * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(vel_out.data(), d_vel, nparticles * sizeof(float4), cudaMemcpyDeviceToHost));

  size_t bad = 0;
  auto near = [](float a, float r) {
    return std::fabs(a - r) <= 1e-5f * (1.0f + std::fabs(r));
  };
  for (size_t id = 0; id < cells; ++id)
    if (!near(grad[id].x, grad_ref[id].x) || !near(grad[id].y, grad_ref[id].y)) ++bad;
  for (int b = 0; b < hp.nbins; ++b)
    if (hist[b] != hist_ref[b]) ++bad;
  for (int i = 0; i < nparticles; ++i) {
    const float4 p = pos[i], v = vel[i];
    if (!near(pos_out[i].x, p.x + v.x * sp.dt) || !near(pos_out[i].y, p.y + v.y * sp.dt) ||
        !near(pos_out[i].z, p.z + v.z * sp.dt) || pos_out[i].w != p.w ||
        !near(vel_out[i].x, v.x * sp.damping) || !near(vel_out[i].y, v.y * sp.damping) ||
        !near(vel_out[i].z, v.z * sp.damping) || !near(vel_out[i].w, v.w * sp.damping))
      ++bad;
  }
  if (bad)
    std::printf("FAILED cpp_struct_params (%zu wrong)\n", bad);
  else
    std::printf("PASSED cpp_struct_params\n");
  cudaFree(d_f); cudaFree(d_grad); cudaFree(d_samples);
  cudaFree(d_bins); cudaFree(d_pos); cudaFree(d_vel);
  return bad ? 1 : 0;
}
