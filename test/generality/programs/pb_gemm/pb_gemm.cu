/**
 * gemm.cu: C := alpha*A*B + beta*C, one thread per element of C.
 *
 * Written in the style of PolyBench/GPU (header-defined sizes and block
 * dimensions, DATA_TYPE typedef, loop counter declared before the loop).
 * Sizes are compile-time constants (see gemm.cuh); no command line arguments.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "gemm.cuh"

/* Relative tolerance for float dot products against a double reference; tight
   enough that losing one k iteration (about 1/NK of the sum) is caught. */
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

void gemm(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, double *C_ref)
{
	int i, j, k;
	double *row = (double *)malloc(NJ * sizeof(double));

	for (i = 0; i < NI; i++)
	{
		for (j = 0; j < NJ; j++)
		{
			row[j] = (double)C[i * NJ + j] * BETA;
		}
		for (k = 0; k < NK; k++)
		{
			double aik = (double)ALPHA * A[i * NK + k];
			for (j = 0; j < NJ; j++)
			{
				row[j] += aik * B[k * NJ + j];
			}
		}
		for (j = 0; j < NJ; j++)
		{
			C_ref[i * NJ + j] = row[j];
		}
	}
	free(row);
}

void init(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
	int i, j;

	srand(1024);
	for (i = 0; i < NI; i++)
		for (j = 0; j < NK; j++)
			A[i * NK + j] = ((DATA_TYPE)rand()) / (DATA_TYPE)RAND_MAX;

	for (i = 0; i < NK; i++)
		for (j = 0; j < NJ; j++)
			B[i * NJ + j] = ((DATA_TYPE)rand()) / (DATA_TYPE)RAND_MAX;

	for (i = 0; i < NI; i++)
		for (j = 0; j < NJ; j++)
			C[i * NJ + j] = ((DATA_TYPE)rand()) / (DATA_TYPE)RAND_MAX;
}

int compareResults(double *C_ref, DATA_TYPE *C_outputFromGpu)
{
	int i, j, fail;
	fail = 0;

	for (i = 0; i < NI; i++)
	{
		for (j = 0; j < NJ; j++)
		{
			double ref = C_ref[i * NJ + j];
			double got = C_outputFromGpu[i * NJ + j];
			if (!(fabs(got - ref) <= PERCENT_DIFF_ERROR_THRESHOLD * (1.0 + fabs(ref))))
			{
				fail++;
			}
		}
	}
	return fail;
}

__global__ void gemm_kernel(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NJ))
	{
		c[i * NJ + j] *= BETA;
		int k;
		for (k = 0; k < NK; k++)
		{
			c[i * NJ + j] += ALPHA * a[i * NK + k] * b[k * NJ + j];
		}
	}
}

void gemmCuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *C_outputFromGpu)
{
	DATA_TYPE *A_gpu;
	DATA_TYPE *B_gpu;
	DATA_TYPE *C_gpu;

	CHECK(cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NK));
	CHECK(cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NK * NJ));
	CHECK(cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NI * NJ));

	CHECK(cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI * NK, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NK * NJ, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * NI * NJ, cudaMemcpyHostToDevice));

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)(ceil(((float)NJ) / ((float)block.x))), (size_t)(ceil(((float)NI) / ((float)block.y))));

	gemm_kernel<<<grid, block>>>(A_gpu, B_gpu, C_gpu);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());

	CHECK(cudaMemcpy(C_outputFromGpu, C_gpu, sizeof(DATA_TYPE) * NI * NJ, cudaMemcpyDeviceToHost));

	CHECK(cudaFree(A_gpu));
	CHECK(cudaFree(B_gpu));
	CHECK(cudaFree(C_gpu));
}

int main(int argc, char *argv[])
{
	DATA_TYPE *A;
	DATA_TYPE *B;
	DATA_TYPE *C;
	DATA_TYPE *C_outputFromGpu;
	double *C_ref;
	int fail;

	(void)argc;
	(void)argv;

	A = (DATA_TYPE *)malloc(NI * NK * sizeof(DATA_TYPE));
	B = (DATA_TYPE *)malloc(NK * NJ * sizeof(DATA_TYPE));
	C = (DATA_TYPE *)malloc(NI * NJ * sizeof(DATA_TYPE));
	C_outputFromGpu = (DATA_TYPE *)malloc(NI * NJ * sizeof(DATA_TYPE));
	C_ref = (double *)malloc(NI * NJ * sizeof(double));

	init(A, B, C);
	gemmCuda(A, B, C, C_outputFromGpu);
	gemm(A, B, C, C_ref);

	fail = compareResults(C_ref, C_outputFromGpu);
	if (fail)
		printf("FAILED pb_gemm (%d wrong)\n", fail);
	else
		printf("PASSED pb_gemm\n");

	free(A);
	free(B);
	free(C);
	free(C_outputFromGpu);
	free(C_ref);

	return fail ? 1 : 0;
}
