/* default-zero: always 0. It never passes the selection's test; it is what
   cpucycles() returns when nothing else works, because failing is worse. */
#include "counter.h"

static long long zero_read(void)
{
  return 0;
}

static int zero_setup(struct cpucycles_setup *s)
{
  (void)s;
  return 0;
}

COUNTER_DEFINE(zero_read, zero_setup, 0);
