/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* arm64-perfpmc: the count of a perf_event cycle event, read in user mode
   with the cycle counter PMCCNTR_EL0 and the event's mapped page. Needs
   64-bit ARMv8 and Linux 5.17+ with /proc/sys/kernel/perf_user_access set
   to 1, which lets a thread read the PMU registers while it holds an event
   asking for user access (attr.config1 bit 1).

   The register alone is not a count: the kernel starts it from a value of
   its own whenever it puts the event on the counter (each time the thread
   is scheduled in), so it jumps, backwards too. The page says which
   counter holds the event (index 32 for the cycle counter) and what to add
   to it (offset), under a sequence number (lock) that changes whenever the
   kernel rewrites the page; perfpage.h reads it.

   Every thread counts its own cycles with its own event, opened and mapped
   on its first read (perf.c, "each thread's own events"): an inherited
   event has no page, and the kernel lets a thread read the registers only
   while it holds a user-access event itself. */
#if !defined(__aarch64__)
#error "arm64-perfpmc is for 64-bit ARM"
#endif
/* attr.config1 of the arm64 PMU: bit 1 asks for user access, bit 0 for a
   64-bit counter (a cycle event then lands in PMCCNTR_EL0). 64 bits where
   the cycle counter has them, else 32 (pmc_width says). */
#define USER_ACCESS 2ULL
#define COUNTER_64BIT 1ULL
#define PERFUSER_CONFIG1 (USER_ACCESS | COUNTER_64BIT)
#define PERFUSER_CONFIG1_ELSE USER_ACCESS
/* The page's index of PMCCNTR_EL0. */
#define PERFUSER_ONLY 32
#define PERFUSER_ACCESS CPUCYCLES_ACCESS_EVENT

/* PMCCNTR_EL0 is the only counter read here (PERFUSER_ONLY); the page
   names no other for a 64-bit cycle event. */
static unsigned long long perfuser_counter(unsigned int n, void *arg)
{
  unsigned long long t;
  (void)n;
  (void)arg;
  __asm__ __volatile__("mrs %0, PMCCNTR_EL0" : "=r"(t));
  return t;
}

#include "perfuser.h"

/* With perf_user_access 0 the event opens but its page names no counter:
   every read would be a system call. */
static int perfuser_usable(struct cpucycles_setup *s)
{
  return perfuser_page_reads() || perfuser_page_refused(s, 0);
}
