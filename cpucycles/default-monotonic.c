/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* default-monotonic: CLOCK_MONOTONIC in nanoseconds, scaled to cycles.
   Needs clock_gettime (old glibc: -lrt in the caller). Through the vDSO it
   can be nearly as fine as a cycle counter; through a system call, far
   coarser. */
#ifdef _WIN32
#error "Windows: MinGW's clock_gettime is winpthread's, a DLL to ship (default-qpc reads the clock behind it)"
#endif
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <time.h>
#include "counter.h"

static long long monotonic_read(void)
{
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

__attribute__((cold)) static int monotonic_setup(struct cpucycles_setup *s)
{
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
    return cpucycles_refuse(s, CPUCYCLES_REFUSED_OSCLOCK, errno, 0, 0);
  s->kind = CPUCYCLES_OSCLOCK;
  s->hz = 1000000000;
  return 0;
}

COUNTER_DEFINE(monotonic_read, monotonic_setup, 0);
