/* riscv64-perfrdcycle: the cycle CSR through rdcycle, made readable by a
   mapped perf_event cycle event. Needs 64-bit RISC-V and Linux 6.6+, whose
   default (/proc/sys/kernel/perf_user_access 1) lets user mode read only
   the counters of events the process has mapped. */
#if !(defined(__riscv) && __riscv_xlen == 64)
#error "riscv64-perfrdcycle is for 64-bit RISC-V"
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
