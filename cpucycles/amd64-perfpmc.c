/* amd64-perfpmc: the count of a perf_event cycle event, read in user mode:
   the event's mapped page names the hardware counter holding it and the
   offset to add, and RDPMC reads that counter. Needs 64-bit x86 (Intel or
   AMD), Linux perf_event with perf_event_paranoid at most 2 and
   /sys/devices/cpu/rdpmc not 0. When the page names no counter (the event
   is not scheduled, or the thread runs on a core type whose PMU has not got
   it) the descriptor is read instead, which costs a system call. The event
   counts the thread that made the first call. */
#if !defined(__x86_64__)
#error "amd64-perfpmc is for 64-bit x86"
#endif
#include "counter.h"
#include "perfpage.h"
#include "rdpmc.h"

static struct cpucycles_perf perf;

static unsigned long long counter(unsigned int n, void *arg)
{
  (void)arg;
  return cpucycles_rdpmc(n);
}

static long long perfpmc_read(void)
{
  return cpucycles_perfpage_total(&perf, counter, 0);
}

static int perfpmc_setup(struct cpucycles_setup *s)
{
  if (cpucycles_perf_open(&perf, 0, CPUCYCLES_PERF_MAP) != 0) return -1;
  if (!cpucycles_perf_user_read(&perf)) {
    cpucycles_perf_close(&perf);
    return -1;
  }
  s->kind = CPUCYCLES_CORE;
  return 0;
}

static void perfpmc_release(void)
{
  cpucycles_perf_close(&perf);
}

COUNTER_DEFINE(perfpmc_read, perfpmc_setup, perfpmc_release);
