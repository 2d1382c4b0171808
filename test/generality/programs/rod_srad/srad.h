#ifndef SRAD_H
#define SRAD_H

/* Speckle Reducing Anisotropic Diffusion, Rodinia-style configuration. */

#define fp float

/* 2-D kernels: BLOCK_SIZE x BLOCK_SIZE threads; the kernels index with
   BLOCK_SIZE, so this is also the launch block. */
#define BLOCK_SIZE 16

/* 1-D image conversion kernels */
#define NUMBER_THREADS 512

/* Region of interest used for the speckle statistics (inclusive) */
#define R1 0
#define R2 127
#define C1 0
#define C2 127

#endif
