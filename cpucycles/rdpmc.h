/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * rdpmc.h: RDPMC and the CPUID check for Intel's fixed-function cycle
 * counter, for the amd64 counters that read performance counters.
 */
#ifndef CPUCYCLES_RDPMC_H
#define CPUCYCLES_RDPMC_H

#include <cpuid.h>

/* RDPMC's ecx for fixed-function counter 1, unhalted core cycles: bit 30
   selects the fixed-function counters. */
#define CPUCYCLES_RDPMC_FIXED_CYCLES ((1U << 30) | 1)

static inline unsigned long long cpucycles_rdpmc(unsigned int counter)
{
  unsigned int lo, hi;
  __asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
  return (unsigned long long)hi << 32 | lo;
}

/* CPUID leaf 0xA: architectural performance monitoring version 2 or later
   has fixed-function counters; counter 1 exists when EDX[4:0] counts more
   than one of them or, from version 5, ECX bit 1 says so. Other vendors
   report version 0, and their RDPMC would fault on this ecx. What the
   leaf said goes to *version and *fixed (0 without the leaf), for a
   refusal's account of it. */
static inline int cpucycles_fixed_cycles_present(int *version, int *fixed)
{
  unsigned int eax, ebx, ecx, edx;
  *version = *fixed = 0;
  if (__get_cpuid_max(0, 0) < 0xa) return 0;
  __cpuid_count(0xa, 0, eax, ebx, ecx, edx);
  (void)ebx;
  *version = (int)(eax & 0xff);
  *fixed = (int)(edx & 0x1f);
  if (*version < 2) return 0;
  return *fixed > 1 || (ecx & 2) != 0;
}

#endif
