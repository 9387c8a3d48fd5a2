/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* tscrate.c: the time-stamp counter's rate as CPUID states it, for the
   cycles-per-second estimate. The decisions are a pure function of the
   leaves a cpuid() callback answers, so tests can play known CPUs and see
   which leaves were asked; the real instruction needs x86 and is a stub
   elsewhere. */
#include <string.h>
#include "internal.h"

static long long in_range(unsigned long long hz)
{
  return hz >= CPUCYCLES_PERSECOND_MIN && hz <= CPUCYCLES_PERSECOND_MAX ? (long long)hz : 0;
}

/* Leaf 0's EBX, EDX, ECX spell the vendor. AMD's manuals document no leaf
   0x15 or 0x16 (sandpile.org's table marks both as Intel's frequency
   leaves; Linux asks them only of Intel, in arch/x86/kernel/tsc.c), and
   Hygon's CPUs follow AMD's layout: their answer there is zero, so not
   asking leaves the estimate as it was. Any other vendor is asked, as
   before, whenever its maximum leaf allows. */
static int without_frequency_leaves(const unsigned int r[4])
{
  return (r[1] == 0x68747541 && r[3] == 0x69746e65 && r[2] == 0x444d4163) || /* AuthenticAMD */
         (r[1] == 0x6f677948 && r[3] == 0x6e65476e && r[2] == 0x656e6975);   /* HygonGenuine */
}

/* Each CPUID in a virtual machine is an exit to the hypervisor (4.5 to 6.5
   us each on the 2-core development VM), so leaves are asked only when an
   earlier one says they can answer, and the sources that can give a rate
   come before the check that the rate would mean anything:
   - the hypervisor's own statement (leaf 0x40000010 EAX, in kHz; the
     hypervisor leaves proposed on LKML in October 2008), asked only when
     CPUID.1 ECX bit 31 says there is a hypervisor and its leaf 0x40000000
     offers that leaf: it knows how it scaled the guest's TSC, so it comes
     first;
   - the TSC/crystal ratio of leaf 0x15 (EBX/EAX) times the crystal in ECX,
     which some CPUs leave 0;
   - leaf 0x16's base frequency in MHz, the TSC's rate on the CPUs that
     have it.
   Only an invariant TSC (leaf 0x80000007 EDX bit 8) keeps one rate
   through frequency and sleep-state changes, so a rate found is kept only
   then. A leaf above its range's maximum returns another leaf's values on
   Intel, so every maximum is checked first. On an AMD guest without the
   hypervisor leaf this is three leaves, 0, 1 and 0x40000000. */
long long cpucycles_tscrate_asking(cpucycles_cpuid_fn *cpuid, void *ctx)
{
  unsigned int r[4], max_basic;
  long long hz = 0;

  cpuid(ctx, 0, r);
  max_basic = r[0];
  /* as if the frequency leaves were beyond the maximum */
  if (without_frequency_leaves(r) && max_basic > 0x14) max_basic = 0x14;
  if (max_basic < 1) return 0;
  cpuid(ctx, 1, r);
  if (r[2] & (1U << 31)) {
    cpuid(ctx, 0x40000000, r);
    if (r[0] >= 0x40000010 && r[0] <= 0x400000ff) {
      cpuid(ctx, 0x40000010, r);
      hz = in_range((unsigned long long)r[0] * 1000);
    }
  }
  if (!hz && max_basic >= 0x15) {
    cpuid(ctx, 0x15, r);
    if (r[0] && r[1] && r[2]) hz = in_range((unsigned long long)r[2] * r[1] / r[0]);
  }
  if (!hz && max_basic >= 0x16) {
    cpuid(ctx, 0x16, r);
    hz = in_range((unsigned long long)(r[0] & 0xffff) * 1000000);
  }
  if (!hz) return 0;
  cpuid(ctx, 0x80000000, r);
  if (r[0] < 0x80000007 || r[0] > 0x800000ff) return 0;
  cpuid(ctx, 0x80000007, r);
  return r[3] & (1U << 8) ? hz : 0;
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static void instruction(void *ctx, unsigned int leaf, unsigned int r[4])
{
  (void)ctx;
  __cpuid_count(leaf, 0, r[0], r[1], r[2], r[3]);
}

/* A 32-bit x86 without CPUID (a 486 or older) cannot toggle EFLAGS bit 21,
   the ID flag, and would fault on the instruction. The flags are put back
   as found. */
static int cpuid_exists(void)
{
#ifdef __i386__
  unsigned int before, after;
  __asm__ __volatile__("pushfl\n\t"
                       "popl %0\n\t"
                       "movl %0, %1\n\t"
                       "xorl $0x200000, %1\n\t"
                       "pushl %1\n\t"
                       "popfl\n\t"
                       "pushfl\n\t"
                       "popl %1\n\t"
                       "pushl %0\n\t"
                       "popfl"
                       : "=&r"(before), "=&r"(after)
                       :
                       : "cc");
  return ((before ^ after) & 0x200000) != 0;
#else
  return 1;
#endif
}

long long cpucycles_tscrate(void)
{
  return cpuid_exists() ? cpucycles_tscrate_asking(instruction, 0) : 0;
}
#else
long long cpucycles_tscrate(void)
{
  return 0;
}
#endif
