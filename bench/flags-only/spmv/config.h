// Build configuration shared by the project's sources. The project supports
// nvcc only and stops any other compiler early.
#pragma once
#if defined(__clang__)
#error "spmv is built with nvcc; clang is not supported"
#endif

typedef float real_t;
#define ROWS_PER_BLOCK 128
