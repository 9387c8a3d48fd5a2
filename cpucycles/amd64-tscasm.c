/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* amd64-tscasm: the time-stamp counter through inline RDTSC, for compilers
   whose __rdtsc() is missing or slow. Off-core, like amd64-tsc. */
#if !defined(__x86_64__)
#error "amd64-tscasm is for 64-bit x86"
#endif
#include "counter.h"

static long long tscasm_read(void)
{
  unsigned int lo, hi;
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
  return (long long)(((unsigned long long)hi << 32) | lo);
}

__attribute__((cold)) static int tscasm_setup(struct cpucycles_setup *s)
{
  s->kind = CPUCYCLES_OFFCORE;
  return 0;
}

COUNTER_DEFINE(tscasm_read, tscasm_setup, 0);
