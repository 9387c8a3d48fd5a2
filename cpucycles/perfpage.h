/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * perfpage.h: the count of a perf event from its mapped page and a user-
 * mode read of the hardware counter the page names. A pure function of the
 * page and the read, so tests drive it with a simulated page; inline so the
 * counter file's read compiles to straight-line code around its RDPMC.
 */
#ifndef CPUCYCLES_PERFPAGE_H
#define CPUCYCLES_PERFPAGE_H

#include "perf.h"

#define CPUCYCLES_PERFPAGE_TRIES 1000

/* Sets *count and returns 1 when the page names a counter user mode may
   read; returns 0 when it does not (index 0: the event is not on a
   counter right now, or not on this core type, or the page is not ours)
   or keeps changing, and the caller must ask the descriptor instead.
   counter(n, arg) reads hardware counter n (the page's index minus 1).

   The kernel rewrites the page between two increments of lock, so a
   snapshot is good when lock did not move across it. The hardware counter
   holds only pmc_width bits and the kernel starts it negative, so its top
   bit is a sign: offset plus the sign-extended counter is the count.

   only: for a reader that can read one hardware counter alone, its index
   as the page gives it (0: any). Where the page names another, nothing is
   read and the caller asks the descriptor. The kernel gives arm64's cycle
   counter PMCCNTR_EL0 index 32 (31 + 1) and RISC-V's cycle CSR index 1. */
static inline int cpucycles_perfpage_count_at(const volatile struct perfabi_page *pg,
                                              unsigned int only,
                                              unsigned long long (*counter)(unsigned int, void *),
                                              void *arg, long long *count)
{
  int tries;

  for (tries = 0; tries < CPUCYCLES_PERFPAGE_TRIES; ++tries) {
    unsigned int seq = pg->lock, index, width;
    unsigned long long value, raw;

    __asm__ __volatile__("" ::: "memory");
    index = pg->index;
    width = pg->pmc_width;
    if (!index || (only && index != only) || !pg->cap_user_rdpmc || width == 0 || width > 64)
      return 0;
    value = (unsigned long long)pg->offset;
    raw = counter(index - 1, arg);
    if (width < 64) raw = (unsigned long long)((long long)(raw << (64 - width)) >> (64 - width));
    __asm__ __volatile__("" ::: "memory");
    if (pg->lock == seq) {
      *count = (long long)(value + raw);
      return 1;
    }
  }
  return 0;
}

/* Any hardware counter the page names. */
static inline int cpucycles_perfpage_count(const volatile struct perfabi_page *pg,
                                           unsigned long long (*counter)(unsigned int, void *),
                                           void *arg, long long *count)
{
  return cpucycles_perfpage_count_at(pg, 0, counter, arg, count);
}

#endif
