/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* riscv32-rdcycle: the 64-bit cycle CSR on 32-bit RISC-V, RDCYCLEH for
   the high half and RDCYCLE for the low. Needs a kernel that lets user
   code read the counter (Linux 6.6 and later refuse by default: SIGILL,
   and the selection drops it). Compiled but untested: Debian has no
   riscv32 cross compiler. */
#if !(defined(__riscv) && __riscv_xlen == 32)
#error "riscv32-rdcycle is for 32-bit RISC-V"
#endif
#include "counter.h"
#include "rdcycle.h"

static long long rdcycle32_read(void)
{
  return cpucycles_rdcycle();
}

__attribute__((cold)) static int rdcycle32_setup(struct cpucycles_setup *s)
{
  s->access = CPUCYCLES_ACCESS_ALL;
  s->kind = CPUCYCLES_CORE;
  return 0;
}

COUNTER_DEFINE(rdcycle32_read, rdcycle32_setup, 0);
