/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* sparc64-rdtick: the SPARC V9 TICK register through RD %tick, a cycle
   counter of the core. Needs 64-bit SPARC with the register's
   non-privileged-trap bit clear (Linux leaves it clear); otherwise the
   read traps and the selection drops it. */
#if !(defined(__sparc__) && defined(__arch64__))
#error "sparc64-rdtick is for 64-bit SPARC"
#endif
#include "counter.h"

static long long tick_read(void)
{
  long long t;
  __asm__ __volatile__("rd %%tick, %0" : "=r"(t));
  return t;
}

__attribute__((cold)) static int tick_setup(struct cpucycles_setup *s)
{
  s->kind = CPUCYCLES_CORE;
  return 0;
}

COUNTER_DEFINE(tick_read, tick_setup, 0);
