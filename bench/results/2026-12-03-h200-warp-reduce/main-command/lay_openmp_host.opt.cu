// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H200 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-03 18:35 UTC.
// Rewrites, kernel matvec_kernel: warp-reduce matvec_kernel.warp_reduce = 16
// Measured (the program's GPU time (every launch of every kernel)): 0.0436 ms (IQR 0.0024 ms) against 0.1923 ms (IQR 0.0006 ms) for the original: 4.41x (at least 4.16x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
/*
 * lay_openmp_host: dense matrix-vector product y = A x followed by a vector
 * scale z = alpha * y + beta * b, with the host side (input generation and
 * CPU reference) parallelised with OpenMP, as in hybrid CPU/GPU codes.
 * omp.h is included unconditionally; the OpenMP runtime calls are guarded by
 * _OPENMP so the program also builds and links without -fopenmp (the pragmas
 * are then ignored).
 *
 * Build: nvcc -arch=sm_90 -O2 [-Xcompiler -fopenmp] lay_openmp_host.cu
 * Usage: lay_openmp_host [rows] [cols]
 */
#include <omp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define MV_THREADS 128
#define SCALE_THREADS 256

#define CUDA_SAFE_CALL(call)                                                  \
    do {                                                                      \
        cudaError_t e_ = (call);                                              \
        if (e_ != cudaSuccess) {                                              \
            fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n",     \
                    __FILE__, __LINE__, cudaGetErrorString(e_));              \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

static double wall_time(void)
{
#ifdef _OPENMP
    return omp_get_wtime();
#else
    return 0.0;
#endif
}

/* Deterministic value in [0, 1) from an index, independent of the order in
   which OpenMP threads visit the indices. */
static inline float hash_uniform(unsigned long long i, unsigned seed)
{
    unsigned long long z = i * 0x9E3779B97F4A7C15ull + seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (float)(z >> 40) / 16777216.0f;
}

/* y[r] = sum_c A[r][c] * x[c]; one thread per row */
__global__ void matvec_kernel(const float *A, const float *x, float *y, int rows, int cols)
{
    // cuda-rewrite-opt: 16 lanes share each thread's loop
    const unsigned lane = threadIdx.x % 16;
    const unsigned group_mask = (0xffffffffu >> 16) << ((threadIdx.x % 32) / 16 * 16);
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
    if (r < rows) {
        const float *a = A + (size_t)r * cols;
        float sum = 0.0f;
        if (lane != 0)
          sum = 0;
        for (int c = (0) + lane; c < cols; c += 16)
            sum += a[c] * x[c];
        for (int offset = 8; offset > 0; offset /= 2)
          sum += __shfl_down_sync(group_mask, sum, offset, 16);
        if (lane == 0) {
        y[r] = sum;
        }
    }
}

/* z[i] = alpha * y[i] + beta * b[i] */
__global__ void scale_kernel(const float *y, const float *b, float *z, float alpha,
                             float beta, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = alpha * y[i] + beta * b[i];
}

int main(int argc, char **argv)
{
    int rows = 12007, cols = 2003;
    if (argc > 1) rows = atoi(argv[1]);
    if (argc > 2) cols = atoi(argv[2]);
    const float alpha = 0.75f, beta = -1.5f;
    const size_t nA = (size_t)rows * cols;
    long i;

#ifdef _OPENMP
    printf("lay_openmp_host: %d x %d, %d OpenMP threads\n", rows, cols, omp_get_max_threads());
#else
    printf("lay_openmp_host: %d x %d, OpenMP disabled\n", rows, cols);
#endif

    float *A = (float *)malloc(nA * sizeof(float));
    float *x = (float *)malloc(cols * sizeof(float));
    float *b = (float *)malloc(rows * sizeof(float));
    float *z = (float *)malloc(rows * sizeof(float));
    double *z_ref = (double *)malloc(rows * sizeof(double));

    /* inputs: A and x in [0, 1), b in [0, 100) */
    double t0 = wall_time();
#pragma omp parallel for schedule(static)
    for (i = 0; i < (long)nA; i++)
        A[i] = hash_uniform(i, 17u);
#pragma omp parallel for
    for (i = 0; i < cols; i++)
        x[i] = hash_uniform(i, 23u);
#pragma omp parallel for
    for (i = 0; i < rows; i++)
        b[i] = 100.0f * hash_uniform(i, 29u);

    /* CPU reference in double */
#pragma omp parallel for schedule(static)
    for (i = 0; i < rows; i++) {
        double s = 0.0;
        for (int c = 0; c < cols; c++)
            s += (double)A[i * cols + c] * x[c];
        z_ref[i] = alpha * s + beta * (double)b[i];
    }
    double t1 = wall_time();

    float *dA, *dx, *dy, *db, *dz;
    CUDA_SAFE_CALL(cudaMalloc((void **)&dA, nA * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc((void **)&dx, cols * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc((void **)&dy, rows * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc((void **)&db, rows * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc((void **)&dz, rows * sizeof(float)));
    CUDA_SAFE_CALL(cudaMemcpy(dA, A, nA * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMemcpy(dx, x, cols * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMemcpy(db, b, rows * sizeof(float), cudaMemcpyHostToDevice));

    double t2 = wall_time();
    matvec_kernel<<<(((rows + MV_THREADS - 1) / MV_THREADS) * 16), MV_THREADS>>>(dA, dx, dy, rows, cols);
    CUDA_SAFE_CALL(cudaGetLastError());
    scale_kernel<<<(rows + SCALE_THREADS - 1) / SCALE_THREADS, SCALE_THREADS>>>(dy, db, dz, alpha,
                                                                              beta, rows);
    CUDA_SAFE_CALL(cudaGetLastError());
    CUDA_SAFE_CALL(cudaDeviceSynchronize());
    double t3 = wall_time();

    CUDA_SAFE_CALL(cudaMemcpy(z, dz, rows * sizeof(float), cudaMemcpyDeviceToHost));

    /* |z| can be small where alpha*y and beta*b cancel: scale the tolerance
       by the magnitude of the two terms, not of the result. */
    long bad = 0;
#pragma omp parallel for reduction(+ : bad)
    for (i = 0; i < rows; i++) {
        double mag = fabs(z_ref[i] - beta * (double)b[i]) + fabs(beta * (double)b[i]);
        if (!(fabs((double)z[i] - z_ref[i]) <= 1e-4 * (1.0 + mag)))
            bad++;
    }

#ifdef _OPENMP
    printf("host setup + reference %.3f s, kernels %.3f ms\n", t1 - t0, 1000.0 * (t3 - t2));
#else
    (void)t0; (void)t1; (void)t2; (void)t3;
#endif

    CUDA_SAFE_CALL(cudaFree(dA));
    CUDA_SAFE_CALL(cudaFree(dx));
    CUDA_SAFE_CALL(cudaFree(dy));
    CUDA_SAFE_CALL(cudaFree(db));
    CUDA_SAFE_CALL(cudaFree(dz));
    free(A); free(x); free(b); free(z); free(z_ref);

    if (bad) {
        printf("FAILED lay_openmp_host (%ld wrong)\n", bad);
        return 1;
    }
    printf("PASSED lay_openmp_host\n");
    return 0;
}
