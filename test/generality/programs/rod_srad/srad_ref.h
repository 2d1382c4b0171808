#ifndef SRAD_REF_H
#define SRAD_REF_H

/* Host side of rod_srad: ROI speckle statistics and the CPU reference. */

#include <math.h>
#include <stdlib.h>

#include "srad.h"

static fp roi_q0sqr(const fp *J, int cols)
{
  double sum = 0, sum2 = 0;
  for (int i = R1; i <= R2; i++)
    for (int j = C1; j <= C2; j++) {
      double tmp = J[(size_t)i * cols + j];
      sum += tmp;
      sum2 += tmp * tmp;
    }
  double size_R = (double)(R2 - R1 + 1) * (C2 - C1 + 1);
  double meanROI = sum / size_R;
  double varROI = (sum2 / size_R) - meanROI * meanROI;
  return (fp)(varROI / (meanROI * meanROI));
}

static void srad_cpu(fp *J, int rows, int cols, int niter, fp lambda)
{
  size_t Ne = (size_t)rows * cols;
  fp *d = (fp *)malloc(sizeof(fp) * Ne * 5), *c = d + 4 * Ne; /* N, S, W, E, c */
  for (size_t k = 0; k < Ne; k++) J[k] = expf(J[k] / 255);
  for (int iter = 0; iter < niter; iter++) {
    fp q0sqr = roi_q0sqr(J, cols);
    for (size_t k = 0; k < Ne; k++) {
      int i = (int)(k / cols), j = (int)(k % cols);
      fp Jc = J[k];
      fp n = J[i == 0 ? k : k - cols] - Jc, s = J[i == rows - 1 ? k : k + cols] - Jc;
      fp w = J[j == 0 ? k : k - 1] - Jc, e = J[j == cols - 1 ? k : k + 1] - Jc;
      fp g2 = (n * n + s * s + w * w + e * e) / (Jc * Jc);
      fp l = (n + s + w + e) / Jc;
      fp num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
      fp den = 1 + (.25f * l);
      fp qsqr = num / (den * den);
      den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
      fp cv = 1.0f / (1.0f + den);
      c[k] = cv < 0 ? 0 : (cv > 1 ? 1 : cv);
      d[k] = n; d[Ne + k] = s; d[2 * Ne + k] = w; d[3 * Ne + k] = e;
    }
    for (size_t k = 0; k < Ne; k++) {
      int i = (int)(k / cols), j = (int)(k % cols);
      fp cs = c[i == rows - 1 ? k : k + cols], ce = c[j == cols - 1 ? k : k + 1];
      J[k] = J[k] + 0.25f * lambda * (c[k] * d[k] + cs * d[Ne + k] + c[k] * d[2 * Ne + k] + ce * d[3 * Ne + k]);
    }
  }
  for (size_t k = 0; k < Ne; k++) J[k] = logf(J[k]) * 255;
  free(d);
}

#endif
