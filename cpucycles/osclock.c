/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* osclock.c: the OS clock the selection measures other clocks against. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include <sys/time.h>
#include "internal.h"

long long cpucycles_os_ns(void)
{
  struct timespec ts;
  struct timeval tv;

  /* CLOCK_MONOTONIC does not jump when the wall clock is set; old systems
     without it still have gettimeofday. */
  if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
  if (gettimeofday(&tv, 0) == 0)
    return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL;
  return 0;
}
