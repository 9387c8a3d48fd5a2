/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* ppc32-mftb: the 64-bit PowerPC time base on 32-bit PowerPC, MFTBU for
   the upper half and MFTB for the lower, scaled to cycles. Always
   readable from user code; off the core, at the rate /proc/cpuinfo
   states, or measured when it does not. */
#if !defined(__powerpc__) || defined(__powerpc64__)
#error "ppc32-mftb is for 32-bit PowerPC"
#endif
#include "timebase.h"

/* The lower half can carry into the upper half between the two reads; an
   upper half that did not change around the lower read makes them a pair. */
static long long mftb32_read(void)
{
  unsigned int hi, lo, again;
  do {
    __asm__ __volatile__("mftbu %0" : "=r"(hi));
    __asm__ __volatile__("mftb %0" : "=r"(lo));
    __asm__ __volatile__("mftbu %0" : "=r"(again));
  } while (hi != again);
  return (long long)(((unsigned long long)hi << 32) | lo);
}

COUNTER_DEFINE(mftb32_read, cpucycles_timebase_setup, 0);
