// coarsen shrinks the grid whatever form its ceil takes: where the extent
// is written once it is divided, else the whole grid g = ceil(n / B) is, as
// ceil(g / F) = ceil(n / (B * F)); through a helper that returns the whole
// shape, the extent is divided in the call.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"bump.coarsen": "x4"}' > %t.json
// RUN: %cro %s --apply %t.json | %strip-checks | FileCheck %s --check-prefix=APPLY
// RUN: echo '{"clear.coarsen": "x2"}' > %t3.json
// RUN: %cro %s --apply %t3.json | %strip-checks | FileCheck %s --check-prefix=ROUNDED
// RUN: echo '{"drop.coarsen": "x2"}' > %t2.json
// RUN: %cro %s --apply %t2.json | %strip-checks | FileCheck %s --check-prefix=HELPER
#include <cuda_runtime.h>

#define WIDTH 128

__global__ void bump(int *cells, int count) {
  int c = blockIdx.x * WIDTH + threadIdx.x;
  if (c >= count)
    return;
  cells[c] += 1;
}

__global__ void drop(int *cells, int count) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < count)
    cells[c] -= 1;
}

// Rounded up by a statement of its own: dividing n there would leave the
// statement testing n % WIDTH, too few blocks for some n (n = 384: 1).
__global__ void clear(int *cells, int count) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < count)
    cells[c] = 0;
}

static dim3 shape_for(int items, int width) {
  return dim3(items / width + (items % width == 0 ? 0 : 1));
}

void step(int *cells, int count) {
  int groups = count / WIDTH + ((count % WIDTH == 0) ? 0 : 1);
  bump<<<groups, WIDTH>>>(cells, count);
  drop<<<shape_for(count, WIDTH), WIDTH>>>(cells, count);
  int rounds = count / WIDTH;
  if (count % WIDTH)
    rounds++;
  clear<<<rounds, WIDTH>>>(cells, count);
}

// CHECK-DAG: knobs[{{[0-9]+}}].id = "bump.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "drop.coarsen"

// APPLY: int groups = ((count / WIDTH + ((count % WIDTH == 0) ? 0 : 1)) + 4 - 1) / 4;
// APPLY-NEXT: bump<<<groups, WIDTH>>>(cells, count);

// HELPER: drop<<<shape_for(((count) + 2 - 1) / 2, WIDTH), WIDTH>>>(cells, count);

// The launch divides its own argument instead.
// ROUNDED: int rounds = count / WIDTH;
// ROUNDED-NEXT: if (count % WIDTH)
// ROUNDED-NEXT: rounds++;
// ROUNDED-NEXT: clear<<<((rounds) + 2 - 1) / 2, WIDTH>>>(cells, count);
