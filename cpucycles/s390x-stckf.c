/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* s390x-stckf: the z/Architecture TOD clock through STORE CLOCK FAST,
   scaled to cycles. Needs the store-clock-fast facility (z9 and later);
   readable from user code. Bit 51 of the clock ticks once a microsecond,
   so the whole 64-bit value runs at 4096 MHz, off the core. */
#if !defined(__s390x__)
#error "s390x-stckf is for 64-bit z/Architecture"
#endif
#include "counter.h"

static long long stckf_read(void)
{
  unsigned long long t;
  __asm__ __volatile__("stckf %0" : "=Q"(t) : : "cc");
  return (long long)t;
}

__attribute__((cold)) static int stckf_setup(struct cpucycles_setup *s)
{
  s->kind = CPUCYCLES_RATE;
  s->hz = 4096000000LL;
  return 0;
}

COUNTER_DEFINE(stckf_read, stckf_setup, 0);
