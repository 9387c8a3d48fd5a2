/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* amd64-perfpmc: the count of a perf_event cycle event, read in user mode:
   the event's mapped page names the hardware counter holding it and the
   offset to add, and RDPMC reads that counter. Needs 64-bit x86 (Intel or
   AMD), Linux perf_event with perf_event_paranoid at most 2 and
   /sys/devices/cpu/rdpmc not 0. When the page names no counter (the
   thread runs on a core type whose PMU has not got the event) the
   descriptor is read instead, which costs a system call. Every thread
   counts its own cycles with its own events, opened and mapped on its
   first read (perf.c, "each thread's own events"): another thread's page
   describes that thread's event, not the counter this thread would read. */
#if !defined(__x86_64__)
#error "amd64-perfpmc is for 64-bit x86"
#endif
#include "counter.h"
#include "internal.h"
#include "perfpage.h"
#include "rdpmc.h"

static CPUCYCLES_THREAD_LOCAL struct cpucycles_perf_own own;
static struct cpucycles_perf_own *mine(void) { return &own; }

static unsigned long long counter(unsigned int n, void *arg)
{
  (void)arg;
  return cpucycles_rdpmc(n);
}

static struct cpucycles_perf_owner owner = {
  PERFABI_TYPE_HARDWARE, PERFABI_COUNT_HW_CPU_CYCLES, 0, CPUCYCLES_PERF_MAP, mine, counter, 0
};

static long long perfpmc_read(void)
{
  long long c;
  /* One core PMU: the page alone; hybrid: the slow path adds them up. */
  if (own.perf.n == 1 && cpucycles_perfpage_count(own.perf.page[0], counter, 0, &c))
    return c + own.shift;
  return cpucycles_perf_own_count(&owner);
}

static int perfpmc_setup(struct cpucycles_setup *s)
{
  if (cpucycles_perf_own_open(&owner) != 0) return -1;
  if (!cpucycles_perf_user_read(&own.perf)) {
    cpucycles_perf_own_close(&owner);
    return -1;
  }
  s->kind = CPUCYCLES_CORE;
  return 0;
}

static void perfpmc_release(void)
{
  cpucycles_perf_own_close(&owner);
}

COUNTER_DEFINE(perfpmc_read, perfpmc_setup, perfpmc_release);
