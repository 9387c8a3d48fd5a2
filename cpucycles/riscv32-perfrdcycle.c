/* riscv32-perfrdcycle: riscv64-perfrdcycle for 32-bit RISC-V, where the
   cycle CSR is read in two halves. */
#if !(defined(__riscv) && __riscv_xlen == 32)
#error "riscv32-perfrdcycle is for 32-bit RISC-V"
#endif
#include "counter.h"
#include "perf.h"

static struct cpucycles_perf perf;

/* The high half is read on both sides of the low half: when they differ
   the low half wrapped in between, and the pair is read again. */
static long long perfrdcycle_read(void)
{
  unsigned int hi, lo, again;
  do {
    __asm__ __volatile__("rdcycleh %0" : "=r"(hi));
    __asm__ __volatile__("rdcycle %0" : "=r"(lo));
    __asm__ __volatile__("rdcycleh %0" : "=r"(again));
  } while (hi != again);
  return (long long)((unsigned long long)hi << 32 | lo);
}

static int perfrdcycle_setup(struct cpucycles_setup *s)
{
  if (cpucycles_perf_open(&perf, 0, CPUCYCLES_PERF_MAP) != 0) return -1;
  s->kind = CPUCYCLES_CORE;
  return 0;
}

static void perfrdcycle_release(void)
{
  cpucycles_perf_close(&perf);
}

COUNTER_DEFINE(perfrdcycle_read, perfrdcycle_setup, perfrdcycle_release);
