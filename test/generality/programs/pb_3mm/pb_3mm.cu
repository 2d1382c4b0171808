/**
 * 3mm.cu: three matrix products in sequence, E := A*B, F := C*D, G := E*F.
 *
 * PolyBench/GPU style; sizes come from 3mm.cuh (compile with
 * -DSMALL_DATASET / -DLARGE_DATASET to change them).
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "3mm.cuh"

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

#define RAND_INIT(p, n)                                                      \
	for (int q_ = 0; q_ < (n); q_++)                                         \
		(p)[q_] = (DATA_TYPE)rand() / (DATA_TYPE)RAND_MAX

/* Reference product (double): X[ni x nj] = Y[ni x nk] * Z[nk x nj] */
void mm_cpu(int ni, int nj, int nk, const double *Y, const double *Z, double *X)
{
	for (int i = 0; i < ni; i++)
	{
		for (int j = 0; j < nj; j++)
			X[i * nj + j] = 0.0;
		for (int k = 0; k < nk; k++)
		{
			double y = Y[i * nk + k];
			for (int j = 0; j < nj; j++)
				X[i * nj + j] += y * Z[k * nj + j];
		}
	}
}

double *to_double(const DATA_TYPE *p, int n)
{
	double *d = (double *)malloc(sizeof(double) * n);
	for (int i = 0; i < n; i++)
		d[i] = p[i];
	return d;
}

/* E := A*B */
__global__ void mm3_kernel1(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *E)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NJ))
	{
		int k;
		E[i * NJ + j] = 0;
		for (k = 0; k < NK; k++)
		{
			E[i * NJ + j] += A[i * NK + k] * B[k * NJ + j];
		}
	}
}

/* F := C*D */
__global__ void mm3_kernel2(DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *F)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NJ) && (j < NL))
	{
		int k;
		F[i * NL + j] = 0;
		for (k = 0; k < NM; k++)
		{
			F[i * NL + j] += C[i * NM + k] * D[k * NL + j];
		}
	}
}

/* G := E*F */
__global__ void mm3_kernel3(DATA_TYPE *E, DATA_TYPE *F, DATA_TYPE *G)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NL))
	{
		int k;
		G[i * NL + j] = 0;
		for (k = 0; k < NJ; k++)
		{
			G[i * NL + j] += E[i * NJ + k] * F[k * NL + j];
		}
	}
}

void mm3Cuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *G_outputFromGpu)
{
	DATA_TYPE *A_gpu, *B_gpu, *C_gpu, *D_gpu, *E_gpu, *F_gpu, *G_gpu;

	CHECK(cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NK));
	CHECK(cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NK * NJ));
	CHECK(cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NJ * NM));
	CHECK(cudaMalloc((void **)&D_gpu, sizeof(DATA_TYPE) * NM * NL));
	CHECK(cudaMalloc((void **)&E_gpu, sizeof(DATA_TYPE) * NI * NJ));
	CHECK(cudaMalloc((void **)&F_gpu, sizeof(DATA_TYPE) * NJ * NL));
	CHECK(cudaMalloc((void **)&G_gpu, sizeof(DATA_TYPE) * NI * NL));

	CHECK(cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI * NK, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NK * NJ, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * NJ * NM, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(D_gpu, D, sizeof(DATA_TYPE) * NM * NL, cudaMemcpyHostToDevice));

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid1((size_t)(ceil(((float)NJ) / ((float)DIM_THREAD_BLOCK_X))), (size_t)(ceil((float)NI / ((float)DIM_THREAD_BLOCK_Y))));
	dim3 grid2((size_t)(ceil(((float)NL) / ((float)DIM_THREAD_BLOCK_X))), (size_t)(ceil((float)NJ / ((float)DIM_THREAD_BLOCK_Y))));
	dim3 grid3((size_t)(ceil(((float)NL) / ((float)DIM_THREAD_BLOCK_X))), (size_t)(ceil((float)NI / ((float)DIM_THREAD_BLOCK_Y))));

	mm3_kernel1<<<grid1, block>>>(A_gpu, B_gpu, E_gpu);
	CHECK(cudaGetLastError());
	mm3_kernel2<<<grid2, block>>>(C_gpu, D_gpu, F_gpu);
	CHECK(cudaGetLastError());
	mm3_kernel3<<<grid3, block>>>(E_gpu, F_gpu, G_gpu);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());

	CHECK(cudaMemcpy(G_outputFromGpu, G_gpu, sizeof(DATA_TYPE) * NI * NL, cudaMemcpyDeviceToHost));

	CHECK(cudaFree(A_gpu));
	CHECK(cudaFree(B_gpu));
	CHECK(cudaFree(C_gpu));
	CHECK(cudaFree(D_gpu));
	CHECK(cudaFree(E_gpu));
	CHECK(cudaFree(F_gpu));
	CHECK(cudaFree(G_gpu));
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;

	DATA_TYPE *A = (DATA_TYPE *)malloc(NI * NK * sizeof(DATA_TYPE));
	DATA_TYPE *B = (DATA_TYPE *)malloc(NK * NJ * sizeof(DATA_TYPE));
	DATA_TYPE *C = (DATA_TYPE *)malloc(NJ * NM * sizeof(DATA_TYPE));
	DATA_TYPE *D = (DATA_TYPE *)malloc(NM * NL * sizeof(DATA_TYPE));
	DATA_TYPE *G_outputFromGpu = (DATA_TYPE *)malloc(NI * NL * sizeof(DATA_TYPE));

	srand(3);
	RAND_INIT(A, NI * NK);
	RAND_INIT(B, NK * NJ);
	RAND_INIT(C, NJ * NM);
	RAND_INIT(D, NM * NL);

	mm3Cuda(A, B, C, D, G_outputFromGpu);

	double *Ad = to_double(A, NI * NK), *Bd = to_double(B, NK * NJ);
	double *Cd = to_double(C, NJ * NM), *Dd = to_double(D, NM * NL);
	double *E = (double *)malloc(NI * NJ * sizeof(double));
	double *F = (double *)malloc(NJ * NL * sizeof(double));
	double *G = (double *)malloc(NI * NL * sizeof(double));
	mm_cpu(NI, NJ, NK, Ad, Bd, E);
	mm_cpu(NJ, NL, NM, Cd, Dd, F);
	mm_cpu(NI, NL, NJ, E, F, G);

	int fail = 0;
	for (int i = 0; i < NI * NL; i++)
		if (!(fabs(G_outputFromGpu[i] - G[i]) <= PERCENT_DIFF_ERROR_THRESHOLD * (1.0 + fabs(G[i]))))
			fail++;

	if (fail)
		printf("FAILED pb_3mm (%d wrong)\n", fail);
	else
		printf("PASSED pb_3mm\n");

	free(A); free(B); free(C); free(D); free(G_outputFromGpu);
	free(Ad); free(Bd); free(Cd); free(Dd); free(E); free(F); free(G);
	return fail ? 1 : 0;
}
