/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* arm32-1176: the ARM1176's cycle counter (CCNT) through coprocessor 15,
   c15/c12/1, as on the first Raspberry Pi. Needs an ARM1176 and user
   access to its counter, which Linux leaves off (a kernel module turns it
   on); elsewhere the read raises SIGILL. Only 32 bits wide: the library
   extends it. */
#if !defined(__arm__)
#error "arm32-1176 is for 32-bit ARM"
#endif
#include "counter.h"

static long long arm1176_read(void)
{
  unsigned int t;
  __asm__ __volatile__("mrc p15, 0, %0, c15, c12, 1" : "=r"(t));
  return t;
}

__attribute__((cold)) static int arm1176_setup(struct cpucycles_setup *s)
{
  s->access = CPUCYCLES_ACCESS_MODULE;
  s->kind = CPUCYCLES_CORE;
  cpucycles_setup_only32(s);
  return 0;
}

COUNTER_DEFINE(arm1176_read, arm1176_setup, 0);
