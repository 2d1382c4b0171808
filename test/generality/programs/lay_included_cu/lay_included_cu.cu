/*
 * lay_included_cu: Rodinia-style layout where the main .cu file #includes
 * the .cu file that holds the kernels and their block-size macros. The host
 * iterates a 5-point smoother with ping-pong buffers, then measures the
 * change of the last step with a reduction kernel (partials summed on host).
 *
 * Usage: lay_included_cu [nx] [ny] [iterations]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda.h>

#include "kernels/lay_included_kernels.cu"

void cpu_smooth(float *dst, const float *src, int nx, int ny)
{
	for (int j = 1; j < ny - 1; j++)
		for (int i = 1; i < nx - 1; i++) {
			int idx = j * nx + i;
			dst[idx] = CENTER_W * src[idx]
				 + NEIGHBOR_W * (src[idx - 1] + src[idx + 1] +
						 src[idx - nx] + src[idx + nx]);
		}
}

void check_error(const char *msg)
{
	cudaError_t err = cudaGetLastError();
	if (cudaSuccess != err) {
		fprintf(stderr, "Cuda error: %s: %s.\n", msg, cudaGetErrorString(err));
		exit(EXIT_FAILURE);
	}
}

int main(int argc, char **argv)
{
	int nx = 2050, ny = 1531, iters = 10;
	if (argc == 4) {
		nx = atoi(argv[1]);
		ny = atoi(argv[2]);
		iters = atoi(argv[3]);
	}
	int size = nx * ny;

	float *h_a = (float *)malloc(sizeof(float) * size);
	float *h_b = (float *)malloc(sizeof(float) * size);
	float *ref_a = (float *)malloc(sizeof(float) * size);
	float *ref_b = (float *)malloc(sizeof(float) * size);

	srand(7);
	for (int k = 0; k < size; k++)
		h_a[k] = (float)rand() / RAND_MAX;
	memcpy(ref_a, h_a, sizeof(float) * size);
	memcpy(ref_b, h_a, sizeof(float) * size);

	float *d_a, *d_b, *d_partial;
	int red_blocks = size / RED_BLOCK_SIZE + (size % RED_BLOCK_SIZE == 0 ? 0 : 1);
	cudaMalloc((void **)&d_a, sizeof(float) * size);
	cudaMalloc((void **)&d_b, sizeof(float) * size);
	cudaMalloc((void **)&d_partial, sizeof(float) * red_blocks);
	cudaMemcpy(d_a, h_a, sizeof(float) * size, cudaMemcpyHostToDevice);
	cudaMemcpy(d_b, h_a, sizeof(float) * size, cudaMemcpyHostToDevice);
	check_error("setup");

	dim3 dimBlock(BLOCK_SIZE_X, BLOCK_SIZE_Y);
	dim3 dimGrid(nx / BLOCK_SIZE_X + (nx % BLOCK_SIZE_X == 0 ? 0 : 1),
		     ny / BLOCK_SIZE_Y + (ny % BLOCK_SIZE_Y == 0 ? 0 : 1));

	/* ping-pong: after the loop 'cur' holds the last step, 'prev' the one before */
	float *cur = d_a, *prev = d_b;
	for (int t = 0; t < iters; t++) {
		float *tmp = prev;
		prev = cur;
		cur = tmp;
		smooth5_kernel<<<dimGrid, dimBlock>>>(cur, prev, nx, ny);
	}
	check_error("smooth5_kernel");

	diff_norm_kernel<<<red_blocks, RED_BLOCK_SIZE>>>(cur, prev, d_partial, size);
	check_error("diff_norm_kernel");

	float *h_partial = (float *)malloc(sizeof(float) * red_blocks);
	cudaMemcpy(h_b, cur, sizeof(float) * size, cudaMemcpyDeviceToHost);
	cudaMemcpy(h_partial, d_partial, sizeof(float) * red_blocks, cudaMemcpyDeviceToHost);
	check_error("copy back");
	double gpu_norm = 0.0;
	for (int k = 0; k < red_blocks; k++)
		gpu_norm += h_partial[k];

	/* CPU reference, same ping-pong */
	float *rcur = ref_a, *rprev = ref_b;
	for (int t = 0; t < iters; t++) {
		float *tmp = rprev;
		rprev = rcur;
		rcur = tmp;
		cpu_smooth(rcur, rprev, nx, ny);
	}
	double cpu_norm = 0.0;
	for (int k = 0; k < size; k++) {
		double d = (double)rcur[k] - (double)rprev[k];
		cpu_norm += d * d;
	}

	int errors = 0;
	for (int k = 0; k < size; k++)
		if (fabsf(h_b[k] - rcur[k]) > 1e-5f * (1.0f + fabsf(rcur[k])))
			errors++;
	if (iters > 0 && fabs(gpu_norm - cpu_norm) > 1e-3 * cpu_norm)
		errors++;
	printf("grid %d x %d, %d iterations, last-step change %g (ref %g)\n",
	       nx, ny, iters, gpu_norm, cpu_norm);

	cudaFree(d_a);
	cudaFree(d_b);
	cudaFree(d_partial);
	free(h_a);
	free(h_b);
	free(ref_a);
	free(ref_b);
	free(h_partial);

	if (errors) {
		printf("FAILED lay_included_cu (%d wrong)\n", errors);
		return 1;
	}
	printf("PASSED lay_included_cu\n");
	return 0;
}
