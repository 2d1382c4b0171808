// Sizes and block shape of a program, in its own header.
#define BLOCK_SIZE 16
#define N_ROWS 1024
typedef float real_t;
