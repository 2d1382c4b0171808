/**
 * fdtd2d.cu: 2-D FDTD, three kernels per time step launched from a host
 * time loop.
 *
 * PolyBench/GPU style. Usage: pb_fdtd2d [nx] [ny]
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "fdtd2d.cuh"

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

void init_arrays(int nx, int ny, DATA_TYPE *_fict_, DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz)
{
	int i;

	srand(2000);
	for (i = 0; i < TMAX; i++)
		_fict_[i] = (DATA_TYPE)i;
	for (i = 0; i < nx * (ny + 1); i++)
		ex[i] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
	for (i = 0; i < (nx + 1) * ny; i++)
		ey[i] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
	for (i = 0; i < nx * ny; i++)
		hz[i] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX;
}

/* Reference in double precision */
void runFdtd(int nx, int ny, DATA_TYPE *_fict_, double *ex, double *ey, double *hz)
{
	int t, i, j;

	for (t = 0; t < TMAX; t++)
	{
		for (j = 0; j < ny; j++)
			ey[0 * ny + j] = _fict_[t];

		for (i = 1; i < nx; i++)
			for (j = 0; j < ny; j++)
				ey[i * ny + j] = ey[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);

		for (i = 0; i < nx; i++)
			for (j = 1; j < ny; j++)
				ex[i * (ny + 1) + j] = ex[i * (ny + 1) + j] - 0.5 * (hz[i * ny + j] - hz[i * ny + (j - 1)]);

		for (i = 0; i < nx; i++)
			for (j = 0; j < ny; j++)
				hz[i * ny + j] = hz[i * ny + j] - 0.7 * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
	}
}

__global__ void fdtd_step1_kernel(DATA_TYPE *_fict_, DATA_TYPE *ey, DATA_TYPE *hz, int t, int nx, int ny)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < nx) && (j < ny) && (i > 0))
	{
		ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
	}
	else if ((i == 0) && (j < ny))
	{
		ey[i * ny + j] = _fict_[t];
	}
}

__global__ void fdtd_step2_kernel(DATA_TYPE *ex, DATA_TYPE *hz, int nx, int ny)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < nx) && (j < ny) && (j > 0))
	{
		ex[i * (ny + 1) + j] = ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
	}
}

__global__ void fdtd_step3_kernel(DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, int nx, int ny)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < nx) && (j < ny))
	{
		hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
	}
}

int main(int argc, char *argv[])
{
	int nx = argc > 1 ? atoi(argv[1]) : NX;
	int ny = argc > 2 ? atoi(argv[2]) : NY;
	int t, i;

	size_t exN = (size_t)nx * (ny + 1), eyN = (size_t)(nx + 1) * ny, hzN = (size_t)nx * ny;
	DATA_TYPE *_fict_ = (DATA_TYPE *)malloc(TMAX * sizeof(DATA_TYPE));
	DATA_TYPE *ex = (DATA_TYPE *)malloc(exN * sizeof(DATA_TYPE));
	DATA_TYPE *ey = (DATA_TYPE *)malloc(eyN * sizeof(DATA_TYPE));
	DATA_TYPE *hz = (DATA_TYPE *)malloc(hzN * sizeof(DATA_TYPE));
	DATA_TYPE *hz_outputFromGpu = (DATA_TYPE *)malloc(hzN * sizeof(DATA_TYPE));

	init_arrays(nx, ny, _fict_, ex, ey, hz);

	DATA_TYPE *fict_gpu, *ex_gpu, *ey_gpu, *hz_gpu;
	CHECK(cudaMalloc((void **)&fict_gpu, sizeof(DATA_TYPE) * TMAX));
	CHECK(cudaMalloc((void **)&ex_gpu, sizeof(DATA_TYPE) * exN));
	CHECK(cudaMalloc((void **)&ey_gpu, sizeof(DATA_TYPE) * eyN));
	CHECK(cudaMalloc((void **)&hz_gpu, sizeof(DATA_TYPE) * hzN));
	CHECK(cudaMemcpy(fict_gpu, _fict_, sizeof(DATA_TYPE) * TMAX, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(ex_gpu, ex, sizeof(DATA_TYPE) * exN, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(ey_gpu, ey, sizeof(DATA_TYPE) * eyN, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(hz_gpu, hz, sizeof(DATA_TYPE) * hzN, cudaMemcpyHostToDevice));

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)ceil(((float)ny) / ((float)block.x)), (size_t)ceil(((float)nx) / ((float)block.y)));

	for (t = 0; t < TMAX; t++)
	{
		fdtd_step1_kernel<<<grid, block>>>(fict_gpu, ey_gpu, hz_gpu, t, nx, ny);
		fdtd_step2_kernel<<<grid, block>>>(ex_gpu, hz_gpu, nx, ny);
		fdtd_step3_kernel<<<grid, block>>>(ex_gpu, ey_gpu, hz_gpu, nx, ny);
	}
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(hz_outputFromGpu, hz_gpu, sizeof(DATA_TYPE) * hzN, cudaMemcpyDeviceToHost));

	/* CPU reference */
	double *exd = (double *)malloc(exN * sizeof(double));
	double *eyd = (double *)malloc(eyN * sizeof(double));
	double *hzd = (double *)malloc(hzN * sizeof(double));
	for (size_t q = 0; q < exN; q++) exd[q] = ex[q];
	for (size_t q = 0; q < eyN; q++) eyd[q] = ey[q];
	for (size_t q = 0; q < hzN; q++) hzd[q] = hz[q];
	runFdtd(nx, ny, _fict_, exd, eyd, hzd);

	int fail = 0;
	for (i = 0; i < nx * ny; i++)
	{
		if (!(fabs(hz_outputFromGpu[i] - hzd[i]) <= PERCENT_DIFF_ERROR_THRESHOLD * (1.0 + fabs(hzd[i]))))
			fail++;
	}
	if (fail)
		printf("FAILED pb_fdtd2d (%d wrong)\n", fail);
	else
		printf("PASSED pb_fdtd2d\n");

	CHECK(cudaFree(fict_gpu));
	CHECK(cudaFree(ex_gpu));
	CHECK(cudaFree(ey_gpu));
	CHECK(cudaFree(hz_gpu));
	free(_fict_); free(ex); free(ey); free(hz); free(hz_outputFromGpu);
	free(exd); free(eyd); free(hzd);

	return fail ? 1 : 0;
}
