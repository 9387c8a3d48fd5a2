/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* ppc64-mftb: the 64-bit PowerPC time base through MFTB, scaled to
   cycles. Always readable from user code. It ticks off the core (512 MHz
   on POWER9, often tens of MHz on smaller chips); the rate comes from
   /proc/cpuinfo, or is measured when that does not say. */
#if !defined(__powerpc64__)
#error "ppc64-mftb is for 64-bit PowerPC"
#endif
#include "timebase.h"

static long long mftb_read(void)
{
  long long t;
  __asm__ __volatile__("mftb %0" : "=r"(t));
  return t;
}

COUNTER_DEFINE(mftb_read, cpucycles_timebase_setup, 0);
