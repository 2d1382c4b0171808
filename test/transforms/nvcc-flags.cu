// nvcc-flags: flags that keep results identical are knobs; flags that change
// numerical results are refused unless --allow-fast-math.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: %cro %s --analyze --allow-fast-math | %flatten | FileCheck %s --check-prefix=FAST
// RUN: echo '{"nvcc.dlcm": "ca", "nvcc.ptxas_opt": 2}' > %t.json
// RUN: %cro %s --apply %t.json | %strip-checks | FileCheck %s --check-prefix=APPLIED
// RUN: echo '{"nvcc.use_fast_math": true}' > %t2.json
// RUN: %expect-exit 10 %cro %s --apply %t2.json 2>&1 | %strip-checks | FileCheck %s --check-prefix=REFUSED
// RUN: %cro %s --apply %t2.json --allow-fast-math | %strip-checks | FileCheck %s --check-prefix=FASTAPPLIED
#include <cuda_runtime.h>

__global__ void k(float *v) { v[threadIdx.x] = 1.0f / v[threadIdx.x]; }




// CHECK-DAG: "nvcc.dlcm"
// CHECK-DAG: "nvcc.ptxas_opt"
// CHECK-DAG: reason = "nvcc.use_fast_math changes numerical results; pass --allow-fast-math to tune it"
// CHECK-DAG: reason = "nvcc.prec_div changes numerical results; pass --allow-fast-math to tune it"
// FAST-DAG: "nvcc.use_fast_math"
// FAST-DAG: "nvcc.prec_div"
// APPLIED: // cuda-rewrite-opt: build this variant with nvcc -Xptxas=-dlcm=ca -Xptxas=-O2
// REFUSED: error: unknown knob 'nvcc.use_fast_math'
// FASTAPPLIED: // cuda-rewrite-opt: build this variant with nvcc -use_fast_math
