/**
 * atax.cu: y = A^T * (A * x)
 *
 * PolyBench/GPU style. Two kernels: the first gives each thread one row of A
 * (tmp = A * x), the second gives each thread one column (y = A^T * tmp).
 * Arrays are allocated with the compile-time extents NX x NY; the loop bounds
 * are the run-time sizes nx <= NX, ny <= NY (argv[1], argv[2]).
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "atax.cuh"

/* Error threshold for the results "not matching" (a missing term is ~1/NX) */
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

static void init_array(int nx, int ny, DATA_TYPE *x, DATA_TYPE *A)
{
	int i, j;

	srand(4096);
	for (i = 0; i < ny; i++)
		x[i] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;

	for (i = 0; i < nx; i++)
		for (j = 0; j < ny; j++)
			A[i * NY + j] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
}

static void atax_cpu(int nx, int ny, DATA_TYPE *A, DATA_TYPE *x, double *y, double *tmp)
{
	int i, j;

	for (i = 0; i < _PB_NY; i++)
		y[i] = 0;

	for (i = 0; i < _PB_NX; i++)
	{
		tmp[i] = 0;
		for (j = 0; j < _PB_NY; j++)
			tmp[i] = tmp[i] + A[i * NY + j] * (double)x[j];

		for (j = 0; j < _PB_NY; j++)
			y[j] = y[j] + A[i * NY + j] * tmp[i];
	}
}

static int compareResults(int ny, double *y, DATA_TYPE *y_outputFromGpu)
{
	int i, fail;
	fail = 0;

	for (i = 0; i < ny; i++)
	{
		if (!(fabs(y_outputFromGpu[i] - y[i]) <= PERCENT_DIFF_ERROR_THRESHOLD * (1.0 + fabs(y[i]))))
			fail++;
	}
	return fail;
}

__global__ void atax_kernel1(int nx, int ny, DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *tmp)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < _PB_NX)
	{
		tmp[i] = 0;
		int j;
		for (j = 0; j < _PB_NY; j++)
		{
			tmp[i] += A[i * NY + j] * x[j];
		}
	}
}

__global__ void atax_kernel2(int nx, int ny, DATA_TYPE *A, DATA_TYPE *y, DATA_TYPE *tmp)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if (j < _PB_NY)
	{
		y[j] = 0;
		int i;
		for (i = 0; i < _PB_NX; i++)
		{
			y[j] += A[i * NY + j] * tmp[i];
		}
	}
}

static void ataxGpu(int nx, int ny, DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *y_outputFromGpu)
{
	DATA_TYPE *A_gpu;
	DATA_TYPE *x_gpu;
	DATA_TYPE *y_gpu;
	DATA_TYPE *tmp_gpu;

	CHECK(cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NX * NY));
	CHECK(cudaMalloc((void **)&x_gpu, sizeof(DATA_TYPE) * NY));
	CHECK(cudaMalloc((void **)&y_gpu, sizeof(DATA_TYPE) * NY));
	CHECK(cudaMalloc((void **)&tmp_gpu, sizeof(DATA_TYPE) * NX));

	CHECK(cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NX * NY, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(x_gpu, x, sizeof(DATA_TYPE) * NY, cudaMemcpyHostToDevice));

	/* The grids cover the full compile-time extents; threads past the
	   run-time bound fall out at the guard. */
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid1((size_t)(ceil(((float)NX) / ((float)block.x))), 1);
	dim3 grid2((size_t)(ceil(((float)NY) / ((float)block.x))), 1);

	atax_kernel1<<<grid1, block>>>(nx, ny, A_gpu, x_gpu, tmp_gpu);
	CHECK(cudaGetLastError());
	atax_kernel2<<<grid2, block>>>(nx, ny, A_gpu, y_gpu, tmp_gpu);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());

	CHECK(cudaMemcpy(y_outputFromGpu, y_gpu, sizeof(DATA_TYPE) * NY, cudaMemcpyDeviceToHost));

	CHECK(cudaFree(A_gpu));
	CHECK(cudaFree(x_gpu));
	CHECK(cudaFree(y_gpu));
	CHECK(cudaFree(tmp_gpu));
}

int main(int argc, char **argv)
{
	/* Retrieve problem size. */
	int nx = NX;
	int ny = NY;

	if (argc > 1)
		nx = atoi(argv[1]);
	if (argc > 2)
		ny = atoi(argv[2]);
	if (nx < 1 || nx > NX || ny < 1 || ny > NY)
	{
		fprintf(stderr, "usage: %s [nx <= %d] [ny <= %d]\n", argv[0], NX, NY);
		return 2;
	}

	DATA_TYPE *A = (DATA_TYPE *)calloc((size_t)NX * NY, sizeof(DATA_TYPE));
	DATA_TYPE *x = (DATA_TYPE *)calloc(NY, sizeof(DATA_TYPE));
	DATA_TYPE *y_outputFromGpu = (DATA_TYPE *)calloc(NY, sizeof(DATA_TYPE));
	double *y = (double *)calloc(NY, sizeof(double));
	double *tmp = (double *)calloc(NX, sizeof(double));

	init_array(nx, ny, x, A);

	ataxGpu(nx, ny, A, x, y_outputFromGpu);
	atax_cpu(nx, ny, A, x, y, tmp);

	int fail = compareResults(ny, y, y_outputFromGpu);
	if (fail)
		printf("FAILED pb_atax (%d wrong)\n", fail);
	else
		printf("PASSED pb_atax\n");

	free(A);
	free(x);
	free(y);
	free(y_outputFromGpu);
	free(tmp);

	return fail ? 1 : 0;
}
