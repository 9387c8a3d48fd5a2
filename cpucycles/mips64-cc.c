/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* mips64-cc: the MIPS cycle counter, hardware register 2 (CC) through
   RDHWR, times hardware register 3 (CCRes, how many cycles one count
   stands for). Needs 64-bit MIPS Release 2 with the kernel allowing user
   RDHWR of both (Linux does). Only 32 bits wide: the library extends it.
   Emulators may keep it at 0; the selection then drops it. */
#if !defined(__mips64)
#error "mips64-cc is for 64-bit MIPS"
#endif
#include "counter.h"

static unsigned int resolution;

static long long cc_read(void)
{
  unsigned long long count;
  __asm__ __volatile__(".set push\n\t.set mips32r2\n\trdhwr %0, $2\n\t.set pop" : "=r"(count));
  return (long long)(unsigned int)((unsigned int)count * resolution);
}

__attribute__((cold)) static int cc_setup(struct cpucycles_setup *s)
{
  unsigned long long res;
  __asm__ __volatile__(".set push\n\t.set mips32r2\n\trdhwr %0, $3\n\t.set pop" : "=r"(res));
  resolution = (unsigned int)res;
  if (resolution == 0) return cpucycles_refuse(s, CPUCYCLES_REFUSED_CCRES, 0, 0, 0);
  s->kind = CPUCYCLES_CORE;
  cpucycles_setup_only32(s);
  return 0;
}

COUNTER_DEFINE(cc_read, cc_setup, 0);
