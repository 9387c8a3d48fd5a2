/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* x86id.h: what CPUID says about the time-stamp counter and about a
   hypervisor underneath, and the trust lines that say it. */
#ifndef X86ID_H
#define X86ID_H
#include <stdio.h>

struct x86id {
  int present;           /* 0: no CPUID here (not x86, or a 486) */
  char vendor[13];       /* leaf 0, "GenuineIntel", "AuthenticAMD", ... */
  unsigned max_ext;      /* leaf 0x80000000 EAX */
  int invariant_known;   /* the CPU has leaf 0x80000007 */
  unsigned power_edx;    /* its EDX: bit 8, the invariant TSC */
  int hypervisor;        /* leaf 1 ECX bit 31 */
  unsigned leaf1_ecx;
  unsigned hv_max;       /* leaf 0x40000000 EAX */
  char hv_vendor[13];    /* its EBX ECX EDX, as the hypervisor spells them */
};

/* Answers one leaf (subleaf 0) in r[0..3] = EAX EBX ECX EDX. */
typedef void x86id_cpuid_fn(void *ctx, unsigned leaf, unsigned r[4]);

/* The facts from the leaves cpuid() answers: a pure function, so tests
   play any CPU. Asks leaves 0, 1, 0x80000000 and, where they say they
   exist, 0x80000007 and 0x40000000. */
void x86id_ask(x86id_cpuid_fn *cpuid, void *ctx, struct x86id *id);

/* The same from this CPU's instruction; present 0 where there is none. */
void x86id_read(struct x86id *id);

/* Whether leaf 0 names Intel (whose NMI watchdog holds a PMU counter). */
int x86id_intel(const struct x86id *id);

/* The tsc-* and hypervisor* lines (doc/trust.md); nothing for the TSC
   where there is no CPUID. */
void x86id_report(FILE *out, const struct x86id *id);
#endif
