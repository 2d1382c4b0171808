#ifndef _LAY_INCLUDED_KERNELS_
#define _LAY_INCLUDED_KERNELS_

/* Block shapes used by the launches in lay_included_cu.cu */
#define BLOCK_SIZE_X 16
#define BLOCK_SIZE_Y 16
#define RED_BLOCK_SIZE 256

/* Weights of the 5-point smoother */
#define CENTER_W 0.6f
#define NEIGHBOR_W 0.1f

/*
 * One Jacobi-style smoothing step: interior points only, the border of
 * 'dst' is never written (both buffers carry the same border).
 */
__global__ void
smooth5_kernel(float *dst, float *src, int nx, int ny)
{
	int bx = blockIdx.x;
	int by = blockIdx.y;
	int tx = threadIdx.x;
	int ty = threadIdx.y;

	int i = bx * BLOCK_SIZE_X + tx;
	int j = by * BLOCK_SIZE_Y + ty;

	if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1) {
		int idx = j * nx + i;
		dst[idx] = CENTER_W * src[idx]
			 + NEIGHBOR_W * (src[idx - 1] + src[idx + 1] +
					 src[idx - nx] + src[idx + nx]);
	}
}

/*
 * Per-block partial sums of (a - b)^2 over n elements.
 */
__global__ void
diff_norm_kernel(float *a, float *b, float *partial, int n)
{
	__shared__ float sdata[RED_BLOCK_SIZE];

	int tid = threadIdx.x;
	int gid = blockIdx.x * RED_BLOCK_SIZE + tid;

	float d = 0.0f;
	if (gid < n) {
		d = a[gid] - b[gid];
		d = d * d;
	}
	sdata[tid] = d;
	__syncthreads();

	for (int s = RED_BLOCK_SIZE / 2; s > 0; s >>= 1) {
		if (tid < s)
			sdata[tid] += sdata[tid + s];
		__syncthreads();
	}

	if (tid == 0)
		partial[blockIdx.x] = sdata[0];
}

#endif
