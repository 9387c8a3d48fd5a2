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
/* On 32-bit RISC-V the low half can carry into the high half between the
   two reads; a high half that did not change around the low read makes
   them a pair. */
static inline long long cpucycles_rdcycle(void)
{
  unsigned int hi, lo, again;
  do {
    __asm__ __volatile__("rdcycleh %0" : "=r"(hi));
    __asm__ __volatile__("rdcycle %0" : "=r"(lo));
    __asm__ __volatile__("rdcycleh %0" : "=r"(again));
  } while (hi != again);
  return (long long)(((unsigned long long)hi << 32) | lo);
}
#endif

#endif
