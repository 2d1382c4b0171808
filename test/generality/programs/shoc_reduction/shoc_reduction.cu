// ****************************************************************************
// shoc_reduction: two-pass sum reduction in the style of the SHOC benchmark
// suite. Pass 1: a fixed grid of RED_BLOCKS blocks, each thread accumulates a
// strided slice of the input (two elements per step), then a shared memory
// tree. Pass 2: a single block combines the per-block partial sums; it is
// launched with cudaLaunchKernel on a stream.
//
// Usage: shoc_reduction [n] [passes]
// ****************************************************************************
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "reduction.h"

#define CHECK(call)                                                          \
    do {                                                                     \
        cudaError_t err_ = (call);                                           \
        if (err_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__,   \
                    cudaGetErrorString(err_));                               \
            exit(2);                                                         \
        }                                                                    \
    } while (0)

__global__ void reduce(const float *__restrict__ g_idata, float *__restrict__ g_odata,
                       const unsigned int n)
{
    __shared__ float sdata[RED_THREADS];

    const unsigned int tid = threadIdx.x;
    unsigned int i = (blockIdx.x * (blockDim.x * 2)) + tid;
    const unsigned int gridSize = blockDim.x * 2 * gridDim.x;

    // Accumulate this thread's slice in a register, two elements per step
    float sum = 0.0f;
    while (i < n)
    {
        sum += g_idata[i];
        if (i + blockDim.x < n)
            sum += g_idata[i + blockDim.x];
        i += gridSize;
    }
    sdata[tid] = sum;
    __syncthreads();

    // Tree reduction in shared memory
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1)
    {
        if (tid < s)
        {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    // Write result for this block to global mem
    if (tid == 0)
    {
        g_odata[blockIdx.x] = sdata[0];
    }
}

// Second pass: one block folds numBlocks partial sums into *result
__global__ void reducePartials(const float *__restrict__ partials, float *__restrict__ result,
                               const unsigned int numBlocks)
{
    __shared__ float sdata[RED_THREADS];
    const unsigned int tid = threadIdx.x;

    float sum = 0.0f;
    for (unsigned int i = tid; i < numBlocks; i += blockDim.x)
    {
        sum += partials[i];
    }
    sdata[tid] = sum;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1)
    {
        if (tid < s)
        {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0)
    {
        *result = sdata[0];
    }
}

int main(int argc, char **argv)
{
    unsigned int size = argc > 1 ? (unsigned int)atoi(argv[1]) : (1u << 24);
    int passes = argc > 2 ? atoi(argv[2]) : 10;

    float *h_idata = (float *)malloc(sizeof(float) * size);
    srand(8675309);
    for (unsigned int i = 0; i < size; i++)
    {
        // Fill with some pattern in [0, 1)
        h_idata[i] = (float)(rand() % 1000) / 1000.0f;
    }

    double ref = 0.0;
    for (unsigned int i = 0; i < size; i++)
    {
        ref += h_idata[i];
    }

    float *d_idata, *d_odata, *d_result;
    CHECK(cudaMalloc((void **)&d_idata, sizeof(float) * size));
    CHECK(cudaMalloc((void **)&d_odata, sizeof(float) * RED_BLOCKS));
    CHECK(cudaMalloc((void **)&d_result, sizeof(float)));
    CHECK(cudaMemcpy(d_idata, h_idata, sizeof(float) * size, cudaMemcpyHostToDevice));

    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));

    int num_blocks = RED_BLOCKS;
    unsigned int numBlocksArg = (unsigned int)num_blocks;
    void *partialArgs[] = {(void *)&d_odata, (void *)&d_result, (void *)&numBlocksArg};

    int wrong = 0;
    for (int pass = 0; pass < passes; pass++)
    {
        reduce<<<num_blocks, RED_THREADS, 0, stream>>>(d_idata, d_odata, size);
        CHECK(cudaGetLastError());
        CHECK(cudaLaunchKernel((const void *)reducePartials, dim3(1), dim3(RED_THREADS),
                               partialArgs, 0, stream));
        CHECK(cudaGetLastError());

        float h_result = 0.0f;
        CHECK(cudaMemcpyAsync(&h_result, d_result, sizeof(float), cudaMemcpyDeviceToHost, stream));
        CHECK(cudaStreamSynchronize(stream));

        // Long float sums: relative tolerance 1e-3 against the double reference
        if (!(fabs((double)h_result - ref) <= 1e-3 * (1.0 + fabs(ref))))
        {
            fprintf(stderr, "pass %d: got %f, expected %f\n", pass, h_result, ref);
            wrong++;
        }
    }

    if (wrong)
        printf("FAILED shoc_reduction (%d wrong)\n", wrong);
    else
        printf("PASSED shoc_reduction\n");

    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(d_idata));
    CHECK(cudaFree(d_odata));
    CHECK(cudaFree(d_result));
    free(h_idata);
    return wrong ? 1 : 0;
}
