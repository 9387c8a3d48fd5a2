/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* persecond.c: the chain of sources for the cycles-per-second estimate,
   and the estimate asked for only when someone needs it. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "os.h"

/* The first source that gives a valid figure wins: the administrator's
   file, then the TSC rate CPUID states (exact where it exists, and cheaper
   than any file), then what the OS reports (on FreeBSD the kernel's TSC
   rate, then CPUID's, then the CPU's clock: os-freebsd.c), then the
   environment, then a default.
   root prefixes every path so tests can point the chain at fixtures. */
long long cpucycles_persecond_estimate(const char *root, const char *env)
{
#ifdef _WIN32
  /* Windows has no /etc: the file sits in ProgramData (os-windows.c). */
  long long v = cpucycles_os_override(root);
#else
  long long v = cpucycles_small_file(root, "/etc/cpucyclespersecond", cpucycles_parse_hz);
#endif
  /* CPUID describes this machine, not a tree under root. Where the
     kernel states the TSC's rate, the OS asks CPUID after it (os.h). */
  if (!CPUCYCLES_OS_ASKS_CPUID && !v && !*root) v = cpucycles_tscrate();
  if (!v) v = cpucycles_os_persecond(root);
  if (!v && env) v = cpucycles_parse_hz(env, strlen(env));
  if (!v) v = CPUCYCLES_PERSECOND_DEFAULT;
  return v;
}

/* This machine's and this process's: no root, the environment's figure. */
long long cpucycles_persecond_here(void)
{
  return cpucycles_persecond_estimate("", getenv("cpucyclespersecond"));
}

long long cpucycles_persecond_of(struct cpucycles_persecond_source *ps)
{
  if (!ps->value && ps->fn) ps->value = ps->fn();
  return ps->value;
}
