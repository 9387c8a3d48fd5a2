/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* amd64-perfpmcff: Intel's fixed-function core-cycle counter through
   RDPMC, made readable by a perf_event cycle event. Needs 64-bit Intel with
   architectural performance monitoring version 2+, Linux perf_event with
   perf_event_paranoid at most 2 and /sys/devices/cpu/rdpmc not 0: mapping
   the event's page is what makes the kernel allow user RDPMC. The kernel
   restarts the counter from a value of its own each time it puts the event
   back on it, so the raw register is not a count: the page's offset is
   added under its sequence number (perfpage.h), and RDPMC is executed only
   while the page says the event is on fixed counter 1. Every thread counts
   its own cycles with its own event, opened and mapped on its first read
   (perf.c, "each thread's own events"). Where the kernel put the event on
   another counter (the NMI watchdog may hold the fixed one), setup refuses
   and amd64-perfpmc, which reads whichever counter the page names, is
   next. */
#if !defined(__x86_64__)
#error "amd64-perfpmcff is for 64-bit x86"
#endif
#include "counter.h"
#include "internal.h"
#include "perfpage.h"
#include "rdpmc.h"

/* The page's index of fixed counter 1: its RDPMC number plus one. */
#define FIXED_INDEX (CPUCYCLES_RDPMC_FIXED_CYCLES + 1)

static CPUCYCLES_THREAD_LOCAL struct cpucycles_perf_own own;
static struct cpucycles_perf_own *mine(void) { return &own; }

static unsigned long long fixed_cycles(unsigned int n, void *arg)
{
  (void)n;
  (void)arg;
  return cpucycles_rdpmc(CPUCYCLES_RDPMC_FIXED_CYCLES);
}

static struct cpucycles_perf_owner owner = {
  PERFABI_TYPE_HARDWARE, PERFABI_COUNT_HW_CPU_CYCLES, 0, CPUCYCLES_PERF_MAP, mine, fixed_cycles, FIXED_INDEX
};

static long long perfpmcff_read(void)
{
  long long c;
  if (own.perf.n == 1 && cpucycles_perfpage_count_at(own.perf.page[0], FIXED_INDEX, fixed_cycles, 0, &c))
    return c + own.shift;
  return cpucycles_perf_own_count(&owner);
}

static int perfpmcff_setup(struct cpucycles_setup *s)
{
  long long c;
  /* perf first: without a PMU it fails at once, and each CPUID of the
     check costs microseconds in a virtual machine. */
  if (cpucycles_perf_own_open(&owner) != 0) return -1;
  if (own.perf.n != 1 || !cpucycles_fixed_cycles_present() ||
      !cpucycles_perfpage_count_at(own.perf.page[0], FIXED_INDEX, fixed_cycles, 0, &c)) {
    cpucycles_perf_own_close(&owner);
    return -1;
  }
  s->kind = CPUCYCLES_CORE;
  return 0;
}

static void perfpmcff_release(void)
{
  cpucycles_perf_own_close(&owner);
}

COUNTER_DEFINE(perfpmcff_read, perfpmcff_setup, perfpmcff_release);
