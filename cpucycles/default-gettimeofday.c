/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* default-gettimeofday: microseconds of the wall clock, scaled to cycles.
   Present everywhere, coarse everywhere, and it jumps when the clock is
   set; the selection takes it only when nothing finer works. */
#define _POSIX_C_SOURCE 200809L
/* gettimeofday is XSI: FreeBSD hides it under _POSIX_C_SOURCE alone. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <sys/time.h>
#include "counter.h"

static long long gettimeofday_read(void)
{
  struct timeval tv;
  if (gettimeofday(&tv, 0) != 0) return 0;
  return tv.tv_sec * 1000000LL + tv.tv_usec;
}

__attribute__((cold)) static int gettimeofday_setup(struct cpucycles_setup *s)
{
  struct timeval tv;
  if (gettimeofday(&tv, 0) != 0) return cpucycles_refuse(s, CPUCYCLES_REFUSED_OSCLOCK, errno, 0, 0);
  s->kind = CPUCYCLES_OSCLOCK;
  s->hz = 1000000;
  return 0;
}

COUNTER_DEFINE(gettimeofday_read, gettimeofday_setup, 0);
