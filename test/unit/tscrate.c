/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* tscrate.c: the TSC rate from CPUID register values. The Intel values are
   those public CPUID dumps show for the named CPUs; the AMD one is this
   development VM's. */
#include <string.h>
#include "check.h"
#include "internal.h"

#define INVARIANT (1U << 8)
#define HYPERVISOR (1U << 31)

/* Pentium G4600 (Kaby Lake, 3.60 GHz): leaf 0x15 gives the ratio 300/2
   but no crystal, so leaf 0x16's 3600 MHz base is the rate. */
static const struct cpucycles_cpuid_tsc g4600 = {
  0x16, 0x4ffaebbf, 2, 0x12c, 0, 0xe10, 0, 0, 0x80000008, INVARIANT
};

/* Core i7-12700K (Alder Lake): crystal 38.4 MHz times 188/2 is 3609.6 MHz,
   a little above the 3600 MHz base that leaf 0x16 gives. */
static const struct cpucycles_cpuid_tsc i7_12700k = {
  0x20, 0x7ffafbff, 2, 0xbc, 0x0249f000, 0xe10, 0, 0, 0x80000008, INVARIANT
};

/* This VM: AMD EPYC under bhyve; invariant TSC, but neither leaf 0x15/0x16
   nor the hypervisor's 0x40000010 exists. */
static const struct cpucycles_cpuid_tsc epyc_bhyve = {
  0xd, 0xfed83203, 0, 0, 0, 0, 0x40000000, 0, 0x80000021, INVARIANT
};

/* The rate from a CPU's registers with one of them changed. */
#define ALTERED(cpu, reg, value) (r = (cpu), r.reg = (value), cpucycles_tscrate_from_cpuid(&r))

int main(void)
{
  struct cpucycles_cpuid_tsc r;

  CHECK(cpucycles_tscrate_from_cpuid(&g4600) == 3600000000LL,
        "Pentium G4600: no crystal in leaf 0x15, base 3600 MHz from leaf 0x16");
  CHECK(cpucycles_tscrate_from_cpuid(&i7_12700k) == 3609600000LL,
        "Core i7-12700K: 38.4 MHz crystal * 188 / 2 = 3609.6 MHz");
  CHECK(cpucycles_tscrate_from_cpuid(&epyc_bhyve) == 0, "AMD EPYC VM: no rate stated");

  CHECK(ALTERED(i7_12700k, ext7_edx, 0) == 0, "TSC not invariant: no rate");
  CHECK(ALTERED(i7_12700k, max_extended, 0x80000006) == 0, "leaf 0x80000007 beyond the maximum: no rate");
  CHECK(ALTERED(i7_12700k, max_basic, 0x14) == 0, "leaves 0x15/0x16 beyond the maximum are not read");
  CHECK(ALTERED(i7_12700k, max_basic, 0x15) == 3609600000LL, "leaf 0x15 alone suffices");
  CHECK(ALTERED(i7_12700k, leaf15_eax, 0) == 3600000000LL, "zero denominator: falls to leaf 0x16");
  CHECK(ALTERED(i7_12700k, leaf15_ebx, 0) == 3600000000LL, "zero numerator: falls to leaf 0x16");
  CHECK(ALTERED(g4600, leaf16_eax, 0xffff0e10) == 3600000000LL, "leaf 0x16: only EAX[15:0] is MHz");
  CHECK(ALTERED(g4600, leaf16_eax, 0) == 0, "leaf 0x16 zero: no rate");
  r = i7_12700k;
  r.leaf15_ecx = 0xffffffff;
  r.leaf15_ebx = 0xffffffff;
  r.leaf15_eax = 1;
  CHECK(cpucycles_tscrate_from_cpuid(&r) == 3600000000LL,
        "absurd leaf 0x15 product (about 1.8e19) is rejected without overflow");

  /* A guest whose hypervisor states 2918400 kHz, on a host CPU whose leaf
     0x15 would say something else. */
  r = i7_12700k;
  r.leaf1_ecx |= HYPERVISOR;
  r.max_hyper = 0x40000010;
  r.hyper10_eax = 2918400;
  CHECK(cpucycles_tscrate_from_cpuid(&r) == 2918400000LL, "hypervisor leaf 0x40000010 comes first");
  r.leaf1_ecx &= ~HYPERVISOR;
  CHECK(cpucycles_tscrate_from_cpuid(&r) == 3609600000LL,
        "without the hypervisor bit, 0x40000010 holds nothing of the kind");
  r.leaf1_ecx |= HYPERVISOR;
  r.max_hyper = 0x4000000f;
  CHECK(cpucycles_tscrate_from_cpuid(&r) == 3609600000LL, "hypervisor offering fewer leaves");
  r.max_hyper = 0x40000010;
  r.hyper10_eax = 0;
  CHECK(cpucycles_tscrate_from_cpuid(&r) == 3609600000LL, "hypervisor leaf zero: passed over");

  memset(&r, 0, sizeof r);
  CHECK(cpucycles_tscrate_from_cpuid(&r) == 0, "all zero: no rate");

  CHECK_DONE();
}
