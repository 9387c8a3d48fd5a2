/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* x86-tscasm: inline RDTSC on 32-bit x86, where the "A" constraint names
   the edx:eax pair that RDTSC fills. */
#if !defined(__i386__)
#error "x86-tscasm is for 32-bit x86"
#endif
#include "counter.h"

static long long tscasm32_read(void)
{
  long long t;
  __asm__ __volatile__("rdtsc" : "=A"(t));
  return t;
}

__attribute__((cold)) static int tscasm32_setup(struct cpucycles_setup *s)
{
  s->kind = CPUCYCLES_OFFCORE;
  return 0;
}

COUNTER_DEFINE(tscasm32_read, tscasm32_setup, 0);
