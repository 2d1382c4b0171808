// Block shape of a program, in its header.
#define TILE_X 32
#define TILE_Y 8
