/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* default-zero: always 0, what cpucycles() returns when nothing else
   works, because failing is worse. A counter that never moves can never
   pass the selection's test, so its setup says so at once instead of
   spending 10 tries of 1000 reads (25 us of a first call) to find out;
   api.c falls back to reading 0 under this name by itself. */
#include "counter.h"

static long long zero_read(void)
{
  return 0;
}

__attribute__((cold)) static int zero_setup(struct cpucycles_setup *s)
{
  return cpucycles_refuse(s, CPUCYCLES_REFUSED_NOCLOCK, 0, 0, 0);
}

COUNTER_DEFINE(zero_read, zero_setup, 0);
