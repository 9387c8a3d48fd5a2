/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* riscv64-rdcycle: the cycle CSR through RDCYCLE. Needs 64-bit RISC-V
   and a kernel that lets user code read the counter (Linux 6.6 and later
   refuse by default: the read raises SIGILL and the selection drops it). */
#if !(defined(__riscv) && __riscv_xlen == 64)
#error "riscv64-rdcycle is for 64-bit RISC-V"
#endif
#include "counter.h"
#include "rdcycle.h"

static long long rdcycle_read(void)
{
  return cpucycles_rdcycle();
}

__attribute__((cold)) static int rdcycle_setup(struct cpucycles_setup *s)
{
  s->access = CPUCYCLES_ACCESS_ALL;
  s->kind = CPUCYCLES_CORE;
  return 0;
}

COUNTER_DEFINE(rdcycle_read, rdcycle_setup, 0);
