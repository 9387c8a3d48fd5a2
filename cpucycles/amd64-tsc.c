/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* amd64-tsc: the time-stamp counter through the compiler's __rdtsc().
   Needs 64-bit x86 with RDTSC allowed to user code (the default). On
   current CPUs it ticks at a fixed rate off the core: cycles only while
   the core runs at its nominal frequency. */
#if !defined(__x86_64__)
#error "amd64-tsc is for 64-bit x86"
#endif
#include <x86intrin.h>
#include "counter.h"

static long long tsc_read(void)
{
  return (long long)__rdtsc();
}

__attribute__((cold)) static int tsc_setup(struct cpucycles_setup *s)
{
  s->kind = CPUCYCLES_OFFCORE;
  return 0;
}

COUNTER_DEFINE(tsc_read, tsc_setup, 0);
