/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* tscrate.c: the time-stamp counter's rate as CPUID states it, for the
   cycles-per-second estimate. The arithmetic is a pure function of the
   register values so tests can feed it those of known CPUs; gathering
   them needs x86 and is a stub elsewhere. */
#include <string.h>
#include "internal.h"

static long long in_range(unsigned long long hz)
{
  return hz >= CPUCYCLES_PERSECOND_MIN && hz <= CPUCYCLES_PERSECOND_MAX ? (long long)hz : 0;
}

/* Only an invariant TSC (leaf 0x80000007 EDX bit 8) ticks at one rate
   through frequency and sleep-state changes, so only then does a stated
   rate describe it. A hypervisor's own statement (leaf 0x40000010 EAX, in
   kHz, when CPUID.1 ECX bit 31 says there is a hypervisor and it offers
   that leaf) comes first: it knows how it scaled the guest's TSC. Then the
   TSC/crystal ratio of leaf 0x15 (EBX/EAX) times the crystal in ECX, which
   some CPUs leave 0; then leaf 0x16's base frequency in MHz, which is the
   TSC's rate on the CPUs that have it. A leaf above its range's maximum
   returns another leaf's values on Intel, so the maxima are checked. */
long long cpucycles_tscrate_from_cpuid(const struct cpucycles_cpuid_tsc *r)
{
  long long hz;

  if (r->max_extended < 0x80000007 || r->max_extended > 0x800000ff) return 0;
  if (!(r->ext7_edx & (1U << 8))) return 0;
  if ((r->leaf1_ecx & (1U << 31)) && r->max_hyper >= 0x40000010 && r->max_hyper <= 0x400000ff)
    if ((hz = in_range((unsigned long long)r->hyper10_eax * 1000))) return hz;
  if (r->max_basic >= 0x15 && r->leaf15_eax && r->leaf15_ebx && r->leaf15_ecx)
    if ((hz = in_range((unsigned long long)r->leaf15_ecx * r->leaf15_ebx / r->leaf15_eax)))
      return hz;
  if (r->max_basic >= 0x16) return in_range((unsigned long long)(r->leaf16_eax & 0xffff) * 1000000);
  return 0;
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* Each CPUID leaves the virtual machine this library often runs in (6.5 us
   a leaf on the 2-core development VM), so only the leaves the arithmetic
   will look at are asked for, in the order it needs them; the others stay
   zero, which it reads as absent. */
long long cpucycles_tscrate(void)
{
  struct cpucycles_cpuid_tsc r;
  unsigned int a, b, c, d;

  memset(&r, 0, sizeof r);
  r.max_extended = __get_cpuid_max(0x80000000, 0);
  if (r.max_extended < 0x80000007 || r.max_extended > 0x800000ff) return 0;
  __cpuid(0x80000007, a, b, c, r.ext7_edx);
  if (!(r.ext7_edx & (1U << 8))) return 0;
  r.max_basic = __get_cpuid_max(0, 0);
  if (r.max_basic >= 1) __cpuid(1, a, b, r.leaf1_ecx, d);
  if (r.leaf1_ecx & (1U << 31)) {
    __cpuid(0x40000000, r.max_hyper, b, c, d);
    if (r.max_hyper >= 0x40000010 && r.max_hyper <= 0x400000ff)
      __cpuid(0x40000010, r.hyper10_eax, b, c, d);
  }
  if (r.max_basic >= 0x15) __cpuid(0x15, r.leaf15_eax, r.leaf15_ebx, r.leaf15_ecx, d);
  if (r.max_basic >= 0x16) __cpuid(0x16, r.leaf16_eax, b, c, d);
  return cpucycles_tscrate_from_cpuid(&r);
}
#else
long long cpucycles_tscrate(void)
{
  return 0;
}
#endif
