/*
 * lay_nvcc_implicit: a 3x3 box blur with clamped borders and a per-row
 * maximum, written the way many small research codes are: only <cstdio> is
 * included, and the host code leans on what nvcc's implicit cuda_runtime.h
 * brings in -- host max()/min() on ints and floats, rand()/srand(), clock(),
 * time(), fabs(), isfinite(), exit().
 *
 * Usage: lay_nvcc_implicit [width] [height]
 */
#include <cstdio>

#define BLUR_BX 16
#define BLUR_BY 16
#define ROW_THREADS 256
#define FIXED_SEED 4242u

#define cudaErrChk(ans) { gpuAssert((ans), __FILE__, __LINE__); }
inline void gpuAssert(cudaError_t code, const char *file, int line)
{
    if (code != cudaSuccess) {
        fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code), file, line);
        exit(code);
    }
}

/* out(x, y) = mean of the 3x3 neighbourhood, coordinates clamped to the image */
__global__ void blur3x3(const float *in, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;

    float acc = 0.0f;
    for (int dy = -1; dy <= 1; dy++) {
        int yy = min(max(y + dy, 0), h - 1);
        for (int dx = -1; dx <= 1; dx++) {
            int xx = min(max(x + dx, 0), w - 1);
            acc += in[yy * w + xx];
        }
    }
    out[y * w + x] = acc * (1.0f / 9.0f);
}

/* one block per row: maximum over the row */
__global__ void rowMax(const float *img, float *rmax, int w, int h)
{
    __shared__ float smax[ROW_THREADS];
    int row = blockIdx.x;
    int tid = threadIdx.x;

    float m = -3.0e38f;
    for (int c = tid; c < w; c += blockDim.x)
        m = fmaxf(m, img[row * w + c]);
    smax[tid] = m;
    __syncthreads();

    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            smax[tid] = fmaxf(smax[tid], smax[tid + s]);
        __syncthreads();
    }
    if (tid == 0)
        rmax[row] = smax[0];
}

int main(int argc, char **argv)
{
    int w = 2000, h = 1500;
    if (argc > 2) {
        w = atoi(argv[1]);
        h = atoi(argv[2]);
    }
    w = max(w, 3);
    h = max(h, 3);

    /* the original code seeded from the wall clock; the data are reseeded
       with a fixed seed so that runs are reproducible */
    unsigned wall_seed = (unsigned)time(NULL);
    srand(wall_seed);
    srand(FIXED_SEED);
    printf("lay_nvcc_implicit: %d x %d (wall seed %u ignored, seed %u)\n",
           w, h, wall_seed, FIXED_SEED);

    size_t n = (size_t)w * h;
    float *h_in = (float *)malloc(n * sizeof(float));
    float *h_out = (float *)malloc(n * sizeof(float));
    float *h_rmax = (float *)malloc(h * sizeof(float));
    float *ref_out = (float *)malloc(n * sizeof(float));
    float *ref_rmax = (float *)malloc(h * sizeof(float));
    if (!h_in || !h_out || !h_rmax || !ref_out || !ref_rmax) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        h_in[i] = (float)rand() / (float)RAND_MAX * 10.0f - 5.0f;

    /* CPU reference */
    clock_t c0 = clock();
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float acc = 0.0f;
            for (int dy = -1; dy <= 1; dy++) {
                int yy = min(max(y + dy, 0), h - 1);
                for (int dx = -1; dx <= 1; dx++) {
                    int xx = min(max(x + dx, 0), w - 1);
                    acc += h_in[yy * w + xx];
                }
            }
            ref_out[y * w + x] = acc * (1.0f / 9.0f);
        }
    }
    for (int y = 0; y < h; y++) {
        float m = -3.0e38f;
        for (int x = 0; x < w; x++)
            m = max(m, ref_out[y * w + x]);
        ref_rmax[y] = m;
    }
    double cpu_ms = 1000.0 * (double)(clock() - c0) / CLOCKS_PER_SEC;

    float *d_in, *d_out, *d_rmax;
    cudaErrChk(cudaMalloc((void **)&d_in, n * sizeof(float)));
    cudaErrChk(cudaMalloc((void **)&d_out, n * sizeof(float)));
    cudaErrChk(cudaMalloc((void **)&d_rmax, h * sizeof(float)));
    cudaErrChk(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(BLUR_BX, BLUR_BY);
    dim3 grid((w + BLUR_BX - 1) / BLUR_BX, (h + BLUR_BY - 1) / BLUR_BY);
    blur3x3<<<grid, block>>>(d_in, d_out, w, h);
    cudaErrChk(cudaGetLastError());
    rowMax<<<h, ROW_THREADS>>>(d_out, d_rmax, w, h);
    cudaErrChk(cudaGetLastError());
    cudaErrChk(cudaDeviceSynchronize());

    cudaErrChk(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    cudaErrChk(cudaMemcpy(h_rmax, d_rmax, h * sizeof(float), cudaMemcpyDeviceToHost));

    /* check: relative tolerance, and every value must be finite */
    int bad = 0;
    float worst = 0.0f;
    for (size_t i = 0; i < n; i++) {
        float err = fabs(h_out[i] - ref_out[i]) / max(1.0f, fabs(ref_out[i]));
        if (!isfinite(h_out[i]) || err > 1e-5f)
            bad++;
        worst = max(worst, err);
    }
    for (int y = 0; y < h; y++) {
        /* the GPU maximum is taken over the GPU blur, so allow the blur's
           tolerance here too */
        float err = fabs(h_rmax[y] - ref_rmax[y]) / max(1.0f, fabs(ref_rmax[y]));
        if (!isfinite(h_rmax[y]) || err > 1e-5f)
            bad++;
    }
    printf("CPU reference %.1f ms, worst relative error %g\n", cpu_ms, (double)worst);

    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_rmax);
    free(h_in);
    free(h_out);
    free(h_rmax);
    free(ref_out);
    free(ref_rmax);

    if (bad) {
        printf("FAILED lay_nvcc_implicit (%d wrong)\n", bad);
        return 1;
    }
    printf("PASSED lay_nvcc_implicit\n");
    return 0;
}
