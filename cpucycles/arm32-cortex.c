/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* arm32-cortex: the ARMv7-A cycle counter (PMCCNTR) through coprocessor
   15, c9/c13/0. Needs 32-bit ARM and user access to the PMU (PMUSERENR,
   off by default in Linux; a kernel module turns it on); without it the
   read raises SIGILL. Only 32 bits wide: the library extends it. */
#if !defined(__arm__)
#error "arm32-cortex is for 32-bit ARM"
#endif
#include "counter.h"

static long long cortex_read(void)
{
  unsigned int t;
  __asm__ __volatile__("mrc p15, 0, %0, c9, c13, 0" : "=r"(t));
  return t;
}

__attribute__((cold)) static int cortex_setup(struct cpucycles_setup *s)
{
  s->access = CPUCYCLES_ACCESS_MODULE;
  s->kind = CPUCYCLES_CORE;
  cpucycles_setup_only32(s);
  return 0;
}

COUNTER_DEFINE(cortex_read, cortex_setup, 0);
