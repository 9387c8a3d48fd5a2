/* riscv32-rdcycle: the 64-bit cycle CSR on 32-bit RISC-V, RDCYCLEH for
   the high half and RDCYCLE for the low. Needs a kernel that lets user
   code read the counter (Linux 6.6 and later refuse by default: SIGILL,
   and the selection drops it). Compiled but untested: Debian has no
   riscv32 cross compiler. */
#if !(defined(__riscv) && __riscv_xlen == 32)
#error "riscv32-rdcycle is for 32-bit RISC-V"
#endif
#include "counter.h"

/* The low half can carry into the high half between the two reads; a
   high half that did not change around the low read makes them a pair. */
static long long rdcycle32_read(void)
{
  unsigned int hi, lo, again;
  do {
    __asm__ __volatile__("rdcycleh %0" : "=r"(hi));
    __asm__ __volatile__("rdcycle %0" : "=r"(lo));
    __asm__ __volatile__("rdcycleh %0" : "=r"(again));
  } while (hi != again);
  return (long long)(((unsigned long long)hi << 32) | lo);
}

static int rdcycle32_setup(struct cpucycles_setup *s)
{
  s->kind = CPUCYCLES_CORE;
  return 0;
}

COUNTER_DEFINE(rdcycle32_read, rdcycle32_setup, 0);
