/* The legality self-check's second input for programs that draw their data
 * from rand(): preloaded (LD_PRELOAD) into the program, it mixes
 * $CRO_RESEED into every srand() seed, and seeds programs that never call
 * srand() the same way, so the same program with the same arguments runs on
 * other data -- which its own CPU reference check still validates. The
 * first call of rand() or srand() appends a line to $CRO_RESEED_LOG, so the
 * check can say which programs this changed (std::mt19937 and friends are
 * not touched).
 *
 *   cc -O2 -fPIC -shared reseed.c -o libcro-reseed.so -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static void (*real_srand)(unsigned);
static int (*real_rand)(void);
static int noted;

static unsigned mixed(unsigned seed) {
  const char *k = getenv("CRO_RESEED");
  unsigned key = k ? (unsigned)strtoul(k, NULL, 10) : 1u;
  return seed ^ (key * 2654435761u) ^ 0x9e3779b9u;
}

static void note(const char *what) {
  const char *path = getenv("CRO_RESEED_LOG");
  if (noted || !path || !*path)
    return;
  noted = 1;
  FILE *f = fopen(path, "a");
  if (f) {
    fprintf(f, "%s\n", what);
    fclose(f);
  }
}

static void resolve(void) {
  if (!real_srand) {
    real_srand = (void (*)(unsigned))dlsym(RTLD_NEXT, "srand");
    real_rand = (int (*)(void))dlsym(RTLD_NEXT, "rand");
  }
}

__attribute__((constructor)) static void seed_at_start(void) {
  resolve();
  if (real_srand)
    real_srand(mixed(1u)); /* rand() without srand() starts from seed 1 */
}

void srand(unsigned seed) {
  resolve();
  note("srand");
  real_srand(mixed(seed));
}

int rand(void) {
  resolve();
  note("rand");
  return real_rand();
}
