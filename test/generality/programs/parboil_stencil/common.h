/***************************************************************************
 *
 *  Parboil-style 7-point stencil: shared definitions.
 *
 ***************************************************************************/

#ifndef _COMMON_H_
#define _COMMON_H_

/* linear offset of element (i,j,k) in an nx x ny x nz grid, x fastest */
#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))

#endif
