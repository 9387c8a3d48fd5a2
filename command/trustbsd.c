/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* trustbsd.c: FreeBSD's counterpart of the clocksource lines (trust.h):
   the timecounter the kernel keeps time with, the others it offers, and
   on x86 what it found of the TSC: whether it calls it invariant and
   whether its test at boot found the TSCs of all CPUs in step. Asked by
   name (sysctlbyname); FreeBSD has no files to read under a root. */
#ifdef __FreeBSD__
#include <sys/types.h>
#include <sys/sysctl.h>
#include <string.h>
#include "trust.h"

/* A string sysctl, cut to size; "" when the kernel has no such name. */
static void text(const char *name, char *buf, size_t size)
{
  size_t len = size - 1;
  if (sysctlbyname(name, buf, &len, 0, 0) != 0) len = 0;
  buf[len < size ? len : size - 1] = 0;
}

/* An int sysctl, -1 when the kernel has no such name. */
static int number(const char *name)
{
  int v;
  size_t len = sizeof v;
  return sysctlbyname(name, &v, &len, 0, 0) == 0 && len == sizeof v ? v : -1;
}

void trust_timecounter(FILE *out, int x86)
{
  char cur[64], choice[400], names[400];
  size_t i, k = 0;
  int invariant, smp;

  text("kern.timecounter.hardware", cur, sizeof cur);
  if (!*cur) {
    fprintf(out, "cpucycles trust clocksource-none (no kern.timecounter.hardware): which clock "
                 "the kernel keeps time with is not visible\n");
    return;
  }
  fprintf(out, "cpucycles trust clocksource %s (kern.timecounter.hardware): the kernel's clocks "
               "(CLOCK_MONOTONIC, gettimeofday) read this timecounter\n", cur);
  /* "TSC-low(1000) ACPI-fast(900) i8254(0) dummy(-1000000)": the names
     without their quality, the clocks the kernel may switch to */
  text("kern.timecounter.choice", choice, sizeof choice);
  for (i = 0; choice[i] && k + 1 < sizeof names; ++i) {
    if (choice[i] == '(')
      while (choice[i] && choice[i] != ')') ++i;
    if (!choice[i]) break;
    if (choice[i] != ')') names[k++] = choice[i];
  }
  names[k] = 0;
  if (*names)
    fprintf(out, "cpucycles trust clocksources %s (kern.timecounter.choice): the clocks the "
                 "kernel offers\n", names);
  if (!x86) return;
  invariant = number("kern.timecounter.invariant_tsc");
  smp = number("kern.timecounter.smp_tsc");
  if (strncmp(cur, "TSC", 3) == 0)
    fprintf(out, "cpucycles trust tsc-kernel-uses (timecounter %s; kern.timecounter."
                 "invariant_tsc %d, kern.timecounter.smp_tsc %d): the kernel keeps time with the "
                 "TSC, which it takes for invariant and found in step across CPUs at boot%s\n",
            cur, invariant, smp, smp == 1 ? "" : " (smp_tsc is not 1: it uses it on one CPU only)");
  else if (strstr(choice, "TSC"))
    fprintf(out, "cpucycles trust tsc-kernel-passes (timecounter %s, TSC available; "
                 "kern.timecounter.invariant_tsc %d, kern.timecounter.smp_tsc %d): the kernel "
                 "keeps time with another clock although it offers the TSC\n",
            cur, invariant, smp);
  else
    fprintf(out, "cpucycles trust tsc-kernel-abandoned (timecounter %s, TSC not offered; "
                 "kern.timecounter.invariant_tsc %d, kern.timecounter.smp_tsc %d): the kernel does "
                 "not offer the TSC as a timecounter, most often because it found it variant or "
                 "out of step between CPUs: distrust TSC counts, above all across CPUs\n",
            cur, invariant, smp);
}
#else
/* Elsewhere the clocksource lines are trustkernel.c's. */
typedef int trustbsd_empty;
#endif
