/* arm64-perfpmc: the core's cycle counter PMCCNTR_EL0, read in user mode
   after a perf_event cycle event has asked the kernel for user access.
   Needs 64-bit ARMv8 and Linux 5.17+ with /proc/sys/kernel/perf_user_access
   set to 1. The kernel allows EL0 reads only while a thread has such an
   event, so the event is inherited: threads and children created after the
   first call can read too; a thread that existed before and calls
   cpucycles() would be stopped by SIGILL. */
#if !defined(__aarch64__)
#error "arm64-perfpmc is for 64-bit ARM"
#endif
#include "counter.h"
#include "perf.h"

/* attr.config1 of the arm64 PMU: bit 1 asks for user access, bit 0 for a
   64-bit counter (a cycle event then lands in PMCCNTR_EL0). */
#define USER_ACCESS 2ULL
#define COUNTER_64BIT 1ULL

static struct cpucycles_perf perf;

static long long perfpmc_read(void)
{
  long long t;
  __asm__ __volatile__("mrs %0, PMCCNTR_EL0" : "=r"(t));
  return t;
}

static int perfpmc_setup(struct cpucycles_setup *s)
{
  if (cpucycles_perf_open(&perf, USER_ACCESS | COUNTER_64BIT, CPUCYCLES_PERF_INHERIT) != 0 &&
      cpucycles_perf_open(&perf, USER_ACCESS, CPUCYCLES_PERF_INHERIT) != 0)
    return -1;
  s->kind = CPUCYCLES_CORE;
  return 0;
}

static void perfpmc_release(void)
{
  cpucycles_perf_close(&perf);
}

COUNTER_DEFINE(perfpmc_read, perfpmc_setup, perfpmc_release);
