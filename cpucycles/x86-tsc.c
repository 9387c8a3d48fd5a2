/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* x86-tsc: amd64-tsc for 32-bit x86: __rdtsc() from the compiler. */
#if !defined(__i386__)
#error "x86-tsc is for 32-bit x86"
#endif
#include <x86intrin.h>
#include "counter.h"

static long long tsc32_read(void)
{
  return (long long)__rdtsc();
}

__attribute__((cold)) static int tsc32_setup(struct cpucycles_setup *s)
{
  s->kind = CPUCYCLES_OFFCORE;
  return 0;
}

COUNTER_DEFINE(tsc32_read, tsc32_setup, 0);
