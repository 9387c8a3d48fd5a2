/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* arm64-vct: the generic timer's virtual count, CNTVCT_EL0, scaled to
   cycles. Needs 64-bit ARMv8-A; Linux lets user code read it. It ticks
   off the core, commonly at 24 MHz (1 GHz from ARMv8.6 on); CNTFRQ_EL0
   holds the rate firmware programmed, measured instead when it reads 0. */
#if !defined(__aarch64__)
#error "arm64-vct is for 64-bit ARM"
#endif
#include "counter.h"

/* Without the ISB the timer may be read before earlier instructions
   finish, which would charge part of the measured code to the caller. */
static long long vct_read(void)
{
  long long t;
  __asm__ __volatile__("isb\n\tmrs %0, CNTVCT_EL0" : "=r"(t) : : "memory");
  return t;
}

__attribute__((cold)) static int vct_setup(struct cpucycles_setup *s)
{
  long long hz;
  __asm__ __volatile__("mrs %0, CNTFRQ_EL0" : "=r"(hz));
  /* only the low 32 bits of CNTFRQ_EL0 are defined */
  cpucycles_setup_rate(s, hz & 0xffffffffLL);
  return 0;
}

COUNTER_DEFINE(vct_read, vct_setup, 0);
