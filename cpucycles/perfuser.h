/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * perfuser.h: the body of a counter that reads a perf_event cycle event's
 * hardware counter in user mode (amd64-perfpmc, amd64-perfpmcff,
 * arm64-perfpmc, perfrdcycle.h). Every thread counts with its own event,
 * opened and mapped on its first read (perf.c, "each thread's own
 * events"); a read goes through the event's page when the thread has one
 * event and the page names the counter the file reads (perfpage.h), and
 * through perf.c's slow path otherwise. Inline in each counter file, so
 * that the fast path is the file's own read instruction between the
 * page's loads, with no call.
 *
 * What is the file's own it gives before including this, once:
 * - PERFUSER_ONLY: the page's index of the one counter it reads (0: any);
 * - PERFUSER_CONFIG1: the event's attr.config1, and optionally
 *   PERFUSER_CONFIG1_ELSE, tried when the kernel refuses the first;
 * - perfuser_counter(n, arg): reads hardware counter n (the page's index
 *   minus 1), the file's instruction;
 * - PERFUSER_ACCESS: what grants user mode its read (counter.h's enum
 *   cpucycles_access);
 * - perfuser_usable(s): after its events opened, whether it can count the
 *   way the file reads, saying why not in s (defined after the include;
 *   perfuser_page_reads(), perfuser_page_refused() and the thread's state
 *   `own` are there for it).
 */
#ifndef CPUCYCLES_PERFUSER_H
#define CPUCYCLES_PERFUSER_H

#include "counter.h"
#include "internal.h"
#include "perfpage.h"
#pragma GCC visibility push(hidden) /* see internal.h */

static unsigned long long perfuser_counter(unsigned int n, void *arg);
static int perfuser_usable(struct cpucycles_setup *s);

static CPUCYCLES_THREAD_LOCAL struct cpucycles_perf_own own;
static struct cpucycles_perf_own *perfuser_mine(void) { return &own; }

static struct cpucycles_perf_owner owner = {
  PERFABI_TYPE_HARDWARE, PERFABI_COUNT_HW_CPU_CYCLES, PERFUSER_CONFIG1, CPUCYCLES_PERF_MAP,
  perfuser_mine, perfuser_counter, PERFUSER_ONLY
};

/* One event and its page names the file's counter: a count comes without
   a system call. */
static inline int perfuser_page_reads(void)
{
  long long c;
  return own.perf.n == 1 &&
         cpucycles_perfpage_count_at(own.perf.page[0], PERFUSER_ONLY, perfuser_counter, 0, &c);
}

/* Why event i's page does not let the file read: it names no counter
   user mode may read, or another counter than the file's. Returns 0, for
   perfuser_usable. */
static int perfuser_page_refused(struct cpucycles_setup *s, int i)
{
  volatile struct perfabi_page *page = own.perf.page[i];
  if (!page->index || !page->cap_user_rdpmc)
    cpucycles_refuse(s, CPUCYCLES_REFUSED_CLOSED, 1, (int)page->index, (int)page->cap_user_rdpmc);
  else cpucycles_refuse(s, CPUCYCLES_REFUSED_ELSEWHERE, (int)page->index, PERFUSER_ONLY, 0);
  return 0;
}

static long long perfuser_read(void)
{
  long long c;
  /* Hybrid x86 (two events) and pages naming another counter: the slow
     path adds up or asks the descriptors. */
  if (own.perf.n == 1 &&
      cpucycles_perfpage_count_at(own.perf.page[0], PERFUSER_ONLY, perfuser_counter, 0, &c))
    return c + own.shift;
  return cpucycles_perf_own_count(&owner);
}

static int perfuser_open(void)
{
  owner.config1 = PERFUSER_CONFIG1;
  if (cpucycles_perf_own_open(&owner) == 0) return 0;
#ifdef PERFUSER_CONFIG1_ELSE
  owner.config1 = PERFUSER_CONFIG1_ELSE;
  if (cpucycles_perf_own_open(&owner) == 0) return 0;
#endif
  return -1;
}

__attribute__((cold)) static int perfuser_setup(struct cpucycles_setup *s)
{
  s->access = PERFUSER_ACCESS;
  if (perfuser_open() != 0) return cpucycles_perf_refused(&own.perf, s);
  if (!perfuser_usable(s)) {
    cpucycles_perf_own_close(&owner);
    return -1;
  }
  s->kind = CPUCYCLES_CORE;
  return 0;
}

static void perfuser_release(void)
{
  cpucycles_perf_own_close(&owner);
}

COUNTER_DEFINE(perfuser_read, perfuser_setup, perfuser_release);

#pragma GCC visibility pop
#endif
