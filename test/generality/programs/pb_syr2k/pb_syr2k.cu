/**
 * syr2k.cu: symmetric rank-2k update, one thread per element of C.
 *
 * PolyBench/GPU style (problem size fixed at compile time in syr2k.cuh).
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "syr2k.cuh"

/* Error threshold for the results "not matching" */
#define PERCENT_DIFF_ERROR_THRESHOLD 1e-4

#define CHECK(call)                                                          \
	do {                                                                     \
		cudaError_t err_ = (call);                                           \
		if (err_ != cudaSuccess) {                                           \
			fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__,   \
			        cudaGetErrorString(err_));                               \
			exit(2);                                                         \
		}                                                                    \
	} while (0)

void init_arrays(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
	int i, j;

	srand(2012);
	for (i = 0; i < N; i++)
	{
		for (j = 0; j < N; j++)
		{
			C[i * N + j] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
		}
		for (j = 0; j < M; j++)
		{
			A[i * M + j] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
			B[i * M + j] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
		}
	}
}

void syr2k(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, double *C_ref)
{
	int i, j, k;

	for (i = 0; i < N; i++)
	{
		for (j = 0; j < N; j++)
		{
			double sum = (double)C[i * N + j] * BETA;
			for (k = 0; k < M; k++)
			{
				sum += (double)ALPHA * A[i * M + k] * B[j * M + k];
				sum += (double)ALPHA * B[i * M + k] * A[j * M + k];
			}
			C_ref[i * N + j] = sum;
		}
	}
}

int compareResults(double *C_ref, DATA_TYPE *C_outputFromGpu)
{
	int i, j, fail;
	fail = 0;

	// Compare C with D
	for (i = 0; i < N; i++)
	{
		for (j = 0; j < N; j++)
		{
			double ref = C_ref[i * N + j];
			if (!(fabs(C_outputFromGpu[i * N + j] - ref) <= PERCENT_DIFF_ERROR_THRESHOLD * (1.0 + fabs(ref))))
			{
				fail++;
			}
		}
	}
	return fail;
}

__global__ void syr2k_kernel(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < N) && (j < N))
	{
		c[i * N + j] *= BETA;

		int k;
		for (k = 0; k < M; k++)
		{
			c[i * N + j] += ALPHA * a[i * M + k] * b[j * M + k] + ALPHA * b[i * M + k] * a[j * M + k];
		}
	}
}

void syr2kCuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *C_outputFromGpu)
{
	DATA_TYPE *A_gpu;
	DATA_TYPE *B_gpu;
	DATA_TYPE *C_gpu;

	CHECK(cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * N * M));
	CHECK(cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * N * M));
	CHECK(cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * N * N));
	CHECK(cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * N * M, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * N * M, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * N * N, cudaMemcpyHostToDevice));

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)ceil(((float)N) / ((float)block.x)), (size_t)(ceil(((float)N) / ((float)block.y))));

	syr2k_kernel<<<grid, block>>>(A_gpu, B_gpu, C_gpu);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());

	CHECK(cudaMemcpy(C_outputFromGpu, C_gpu, sizeof(DATA_TYPE) * N * N, cudaMemcpyDeviceToHost));

	CHECK(cudaFree(A_gpu));
	CHECK(cudaFree(B_gpu));
	CHECK(cudaFree(C_gpu));
}

int main()
{
	DATA_TYPE *A;
	DATA_TYPE *B;
	DATA_TYPE *C;
	DATA_TYPE *C_outputFromGpu;
	double *C_ref;

	A = (DATA_TYPE *)malloc(N * M * sizeof(DATA_TYPE));
	B = (DATA_TYPE *)malloc(N * M * sizeof(DATA_TYPE));
	C = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	C_outputFromGpu = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	C_ref = (double *)malloc(N * N * sizeof(double));

	init_arrays(A, B, C);

	syr2kCuda(A, B, C, C_outputFromGpu);
	syr2k(A, B, C, C_ref);

	int fail = compareResults(C_ref, C_outputFromGpu);
	if (fail)
		printf("FAILED pb_syr2k (%d wrong)\n", fail);
	else
		printf("PASSED pb_syr2k\n");

	free(A);
	free(B);
	free(C);
	free(C_outputFromGpu);
	free(C_ref);

	return fail ? 1 : 0;
}
