/**
 * mvt.cu: x1 := x1 + A*y_1 and x2 := x2 + A'*y_2, one thread per row
 * (kernel 1) and one thread per column (kernel 2).
 *
 * PolyBench/GPU style; N = 4000 is not a multiple of the thread block.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "mvt.cuh"

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

void init_array(DATA_TYPE *A, DATA_TYPE *x1, DATA_TYPE *x2, DATA_TYPE *y1, DATA_TYPE *y2)
{
	int i, j;

	srand(42);
	for (i = 0; i < N; i++)
	{
		x1[i] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
		x2[i] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
		y1[i] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
		y2[i] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
		for (j = 0; j < N; j++)
		{
			A[i * N + j] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
		}
	}
}

void runMvt(DATA_TYPE *a, DATA_TYPE *x1, DATA_TYPE *x2, DATA_TYPE *y1, DATA_TYPE *y2,
            double *r1, double *r2)
{
	int i, j;

	for (i = 0; i < N; i++)
	{
		r1[i] = x1[i];
		r2[i] = x2[i];
	}
	for (i = 0; i < N; i++)
	{
		for (j = 0; j < N; j++)
		{
			r1[i] = r1[i] + a[i * N + j] * (double)y1[j];
			r2[j] = r2[j] + a[i * N + j] * (double)y2[i];
		}
	}
}

int compareResults(double *r1, double *r2, DATA_TYPE *x1_outputFromGpu, DATA_TYPE *x2_outputFromGpu)
{
	int i, fail;
	fail = 0;

	for (i = 0; i < N; i++)
	{
		if (!(fabs(x1_outputFromGpu[i] - r1[i]) <= PERCENT_DIFF_ERROR_THRESHOLD * (1.0 + fabs(r1[i]))))
			fail++;
		if (!(fabs(x2_outputFromGpu[i] - r2[i]) <= PERCENT_DIFF_ERROR_THRESHOLD * (1.0 + fabs(r2[i]))))
			fail++;
	}
	return fail;
}

__global__ void mvt_kernel1(DATA_TYPE *a, DATA_TYPE *x1, DATA_TYPE *y_1)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
	{
		int j;
		for (j = 0; j < N; j++)
		{
			x1[i] += a[i * N + j] * y_1[j];
		}
	}
}

__global__ void mvt_kernel2(DATA_TYPE *a, DATA_TYPE *x2, DATA_TYPE *y_2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
	{
		DATA_TYPE tmp = x2[i];
		int j;
		for (j = 0; j < N; j++)
		{
			tmp += a[j * N + i] * y_2[j];
		}
		x2[i] = tmp;
	}
}

void mvtCuda(DATA_TYPE *a, DATA_TYPE *x1, DATA_TYPE *x2, DATA_TYPE *y_1, DATA_TYPE *y_2,
             DATA_TYPE *x1_outputFromGpu, DATA_TYPE *x2_outputFromGpu)
{
	DATA_TYPE *a_gpu;
	DATA_TYPE *x1_gpu;
	DATA_TYPE *x2_gpu;
	DATA_TYPE *y_1_gpu;
	DATA_TYPE *y_2_gpu;

	CHECK(cudaMalloc((void **)&a_gpu, sizeof(DATA_TYPE) * N * N));
	CHECK(cudaMalloc((void **)&x1_gpu, sizeof(DATA_TYPE) * N));
	CHECK(cudaMalloc((void **)&x2_gpu, sizeof(DATA_TYPE) * N));
	CHECK(cudaMalloc((void **)&y_1_gpu, sizeof(DATA_TYPE) * N));
	CHECK(cudaMalloc((void **)&y_2_gpu, sizeof(DATA_TYPE) * N));
	CHECK(cudaMemcpy(a_gpu, a, sizeof(DATA_TYPE) * N * N, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(x1_gpu, x1, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(x2_gpu, x2, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(y_1_gpu, y_1, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(y_2_gpu, y_2, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice));

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)ceil((float)N / ((float)DIM_THREAD_BLOCK_X)), 1);

	mvt_kernel1<<<grid, block>>>(a_gpu, x1_gpu, y_1_gpu);
	CHECK(cudaGetLastError());
	mvt_kernel2<<<grid, block>>>(a_gpu, x2_gpu, y_2_gpu);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());

	CHECK(cudaMemcpy(x1_outputFromGpu, x1_gpu, sizeof(DATA_TYPE) * N, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(x2_outputFromGpu, x2_gpu, sizeof(DATA_TYPE) * N, cudaMemcpyDeviceToHost));

	CHECK(cudaFree(a_gpu));
	CHECK(cudaFree(x1_gpu));
	CHECK(cudaFree(x2_gpu));
	CHECK(cudaFree(y_1_gpu));
	CHECK(cudaFree(y_2_gpu));
}

int main()
{
	DATA_TYPE *a = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	DATA_TYPE *x1 = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *x2 = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *x1_outputFromGpu = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *x2_outputFromGpu = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *y_1 = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *y_2 = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	double *r1 = (double *)malloc(N * sizeof(double));
	double *r2 = (double *)malloc(N * sizeof(double));

	init_array(a, x1, x2, y_1, y_2);

	mvtCuda(a, x1, x2, y_1, y_2, x1_outputFromGpu, x2_outputFromGpu);
	runMvt(a, x1, x2, y_1, y_2, r1, r2);

	int fail = compareResults(r1, r2, x1_outputFromGpu, x2_outputFromGpu);
	if (fail)
		printf("FAILED pb_mvt (%d wrong)\n", fail);
	else
		printf("PASSED pb_mvt\n");

	free(a); free(x1); free(x2); free(x1_outputFromGpu); free(x2_outputFromGpu);
	free(y_1); free(y_2); free(r1); free(r2);

	return fail ? 1 : 0;
}
