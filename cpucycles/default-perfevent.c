/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* default-perfevent: the kernel's count of this thread's CPU cycles, read
   through perf_event descriptors. Needs Linux perf_event with a hardware
   cycle event (a PMU the kernel can use, perf_event_paranoid allowing it).
   Every read is a system call (two on hybrid x86, one event per core
   type), hence the off-core penalty. Every thread reads its own events,
   opened on its first read (perf.c, "each thread's own events"): another
   thread's descriptor would give that thread's count, frozen while it
   waits. */
#include "counter.h"
#include "internal.h"
#include "perf.h"

static CPUCYCLES_THREAD_LOCAL struct cpucycles_perf_own own;
static struct cpucycles_perf_own *mine(void) { return &own; }

static struct cpucycles_perf_owner owner = {
  PERFABI_TYPE_HARDWARE, PERFABI_COUNT_HW_CPU_CYCLES, 0, 0, mine, 0, 0
};

static long long perfevent_read(void)
{
  return cpucycles_perf_own_count(&owner);
}

__attribute__((cold)) static int perfevent_setup(struct cpucycles_setup *s)
{
  if (cpucycles_perf_own_open(&owner) != 0) return cpucycles_perf_refused(&own.perf, s);
  s->kind = CPUCYCLES_OFFCORE;
  return 0;
}

static void perfevent_release(void)
{
  cpucycles_perf_own_close(&owner);
}

COUNTER_DEFINE(perfevent_read, perfevent_setup, perfevent_release);
