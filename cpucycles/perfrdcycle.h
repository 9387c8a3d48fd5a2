/* perfrdcycle.h: the body of riscv64-perfrdcycle and riscv32-perfrdcycle,
   which differ only in the width rdcycle.h reads: a mapped perf_event
   cycle event makes the cycle CSR readable, then rdcycle reads it. Each
   counter file includes it once, after its architecture check. */
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
