/* amd64-perfpmcff: Intel's fixed-function core-cycle counter through
   RDPMC, made readable by a perf_event cycle event. Needs 64-bit Intel with
   architectural performance monitoring version 2+, Linux perf_event with
   perf_event_paranoid at most 2 and /sys/devices/cpu/rdpmc not 0: mapping
   the event's page is what makes the kernel allow user RDPMC, and the
   event keeps the fixed counter counting this thread. Reads no page, so it
   costs just the RDPMC. Other threads read whatever the fixed counter of
   their core holds. */
#if !defined(__x86_64__)
#error "amd64-perfpmcff is for 64-bit x86"
#endif
#include "counter.h"
#include "perf.h"
#include "rdpmc.h"

static struct cpucycles_perf perf;

static long long perfpmcff_read(void)
{
  return (long long)cpucycles_rdpmc(CPUCYCLES_RDPMC_FIXED_CYCLES);
}

static int perfpmcff_setup(struct cpucycles_setup *s)
{
  /* perf first: without a PMU it fails at once, and each CPUID of the
     check costs microseconds in a virtual machine. */
  if (cpucycles_perf_open(&perf, 0, CPUCYCLES_PERF_MAP) != 0) return -1;
  if (!cpucycles_fixed_cycles_present()) {
    cpucycles_perf_close(&perf);
    return -1;
  }
  s->kind = CPUCYCLES_CORE;
  return 0;
}

static void perfpmcff_release(void)
{
  cpucycles_perf_close(&perf);
}

COUNTER_DEFINE(perfpmcff_read, perfpmcff_setup, perfpmcff_release);
