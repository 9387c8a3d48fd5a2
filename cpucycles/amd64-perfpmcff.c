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
#include "rdpmc.h"

/* The page's index of fixed counter 1: its RDPMC number plus one. */
#define PERFUSER_ONLY (CPUCYCLES_RDPMC_FIXED_CYCLES + 1)
#define PERFUSER_CONFIG1 0
#define PERFUSER_ACCESS CPUCYCLES_ACCESS_RDPMC

static unsigned long long perfuser_counter(unsigned int n, void *arg)
{
  (void)n;
  (void)arg;
  return cpucycles_rdpmc(CPUCYCLES_RDPMC_FIXED_CYCLES);
}

#include "perfuser.h"

/* perf opened first: without a PMU it fails at once, and each CPUID of
   the check costs microseconds in a virtual machine. */
static int perfuser_usable(struct cpucycles_setup *s)
{
  int version, fixed;
  if (own.perf.n != 1) {
    cpucycles_refuse(s, CPUCYCLES_REFUSED_HYBRID, own.perf.n, 0, 0);
    return 0;
  }
  if (!cpucycles_fixed_cycles_present(&version, &fixed)) {
    cpucycles_refuse(s, CPUCYCLES_REFUSED_CPUID, version, fixed, 0);
    return 0;
  }
  return perfuser_page_reads() || perfuser_page_refused(s, 0);
}
