#ifndef CONFIG_CUH
#define CONFIG_CUH
#define BLOCK 128
#endif
