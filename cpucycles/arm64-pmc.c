/* arm64-pmc: the core's cycle counter, PMCCNTR_EL0, read with MRS.
   Needs 64-bit ARMv8-A and a kernel that lets user code read the PMU
   (PMUSERENR_EL0, off by default in Linux; a kernel module or a perf
   setting turns it on). Where it is off, the read raises SIGILL and the
   selection drops this counter. */
#if !defined(__aarch64__)
#error "arm64-pmc is for 64-bit ARM"
#endif
#include "counter.h"

static long long pmc_read(void)
{
  long long t;
  __asm__ __volatile__("mrs %0, PMCCNTR_EL0" : "=r"(t));
  return t;
}

static int pmc_setup(struct cpucycles_setup *s)
{
  s->kind = CPUCYCLES_CORE;
  return 0;
}

COUNTER_DEFINE(pmc_read, pmc_setup, 0);
