/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* loong64-rdtime: the LoongArch stable counter through RDTIME.D, scaled
   to cycles. Readable from user code. It ticks at a constant rate off the
   core; the rate is measured against the OS clock. Compiled but untested:
   Debian has no loongarch64 cross compiler. */
#if !defined(__loongarch64)
#error "loong64-rdtime is for 64-bit LoongArch"
#endif
#include "counter.h"

static long long rdtime_read(void)
{
  long long t, id;
  /* the second operand receives the counter's ID, of no use here */
  __asm__ __volatile__("rdtime.d %0, %1" : "=r"(t), "=r"(id));
  return t;
}

__attribute__((cold)) static int rdtime_setup(struct cpucycles_setup *s)
{
  cpucycles_setup_rate(s, 0);
  return 0;
}

COUNTER_DEFINE(rdtime_read, rdtime_setup, 0);
