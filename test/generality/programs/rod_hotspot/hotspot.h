#ifndef _HOTSPOT_H_
#define _HOTSPOT_H_

/* Rodinia-style HotSpot: thermal simulation of a chip floorplan. */

#define BLOCK_SIZE 16

#define STR_SIZE 256

/* maximum power density possible (say 300W for a 10mm x 10mm chip) */
#define MAX_PD (3.0e6)
/* required precision in degrees */
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
/* capacitance fitting factor */
#define FACTOR_CHIP 0.5

/* chip parameters */
#define T_CHIP 0.0005
#define CHIP_HEIGHT 0.016
#define CHIP_WIDTH 0.016
/* ambient temperature, assuming no package at all */
#define AMB_TEMP 80.0

#endif
