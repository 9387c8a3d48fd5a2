/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* rdcycle.h: the RISC-V cycle CSR as a 64-bit count, for the counters
   that read it directly and those that read it after perf_event made it
   readable. */
#ifndef CPUCYCLES_RDCYCLE_H
#define CPUCYCLES_RDCYCLE_H

#if __riscv_xlen == 64
static inline long long cpucycles_rdcycle(void)
{
  long long t;
  __asm__ __volatile__("rdcycle %0" : "=r"(t));
  return t;
}
#else
#include "hilo.h"
CPUCYCLES_HILO_READ(cpucycles_rdcycle, "rdcycleh", "rdcycle")
#endif

#endif
