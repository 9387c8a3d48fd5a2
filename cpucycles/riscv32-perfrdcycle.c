/* riscv32-perfrdcycle: riscv64-perfrdcycle for 32-bit RISC-V, where the
   cycle CSR is read in two halves. */
#if !(defined(__riscv) && __riscv_xlen == 32)
#error "riscv32-perfrdcycle is for 32-bit RISC-V"
#endif
#include "counter.h"
#include "rdcycle.h"
#include "perf.h"

static struct cpucycles_perf perf;

static long long perfrdcycle_read(void)
{
  return cpucycles_rdcycle();
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
