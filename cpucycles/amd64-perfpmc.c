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
#include "rdpmc.h"

/* Whichever counter the page names. */
#define PERFUSER_ONLY 0
#define PERFUSER_CONFIG1 0
#define PERFUSER_ACCESS CPUCYCLES_ACCESS_RDPMC

static unsigned long long perfuser_counter(unsigned int n, void *arg)
{
  (void)arg;
  return cpucycles_rdpmc(n);
}

#include "perfuser.h"

/* Every page (one per core PMU on hybrid x86) allows user-mode reads;
   else the first that does not says so. */
static int perfuser_usable(struct cpucycles_setup *s)
{
  int i;
  if (cpucycles_perf_user_read(&own.perf)) return 1;
  for (i = 0; i + 1 < own.perf.n && own.perf.page[i]->cap_user_rdpmc; ++i) {}
  return perfuser_page_refused(s, i);
}
