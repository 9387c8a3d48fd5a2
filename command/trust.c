/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* trust.c: the trust lines in their order, and the line every reader
   gives for a file it cannot make sense of. */
#include <stdlib.h>
#include "sysfile.h"
#include "trust.h"
#include "words.h"

void trust_odd(FILE *out, const char *path, const char *buf, long n)
{
  char text[WORDS_MAX + 4];
  words_clean(buf, n > 0 ? (size_t)n : 0, text);
  fprintf(out, "cpucycles trust odd %s (%s): not what this file holds on the kernels "
               "cpucycles-info knows, so it says nothing of it\n", text, path);
}

/* Per-CPU files are read for the CPUs the process may run on; when the
   system would not say which, for the first ones online (capped: a
   line's worth of files is enough to see a pattern). */
#define FALLBACK_CPUS 256

void trust_report(FILE *out, const char *root, const int *cpus, int n, long online,
                  const struct x86id *id)
{
  trust_affinity(out, cpus, n, online);
#ifdef __linux__
  {
    int fallback[FALLBACK_CPUS], i, m = n;
    const int *where = cpus;
    if (n <= 0) {
      m = online > 0 ? (online < FALLBACK_CPUS ? (int)online : FALLBACK_CPUS) : 1;
      for (i = 0; i < m; ++i) fallback[i] = i;
      where = fallback;
    }
    trust_smt(out, root, where[0]);
    trust_hybrid(out, root, where, m);
    trust_frequency(out, root, where, m);
    trust_turbo(out, root, where[0]);
    x86id_report(out, id);
    trust_clocksource(out, root, id->present);
    trust_watchdog(out, root, x86id_intel(id));
  }
#else
  (void)root;
  fprintf(out, "cpucycles trust sysfs-none (not Linux): SMT, core types, frequency, turbo, the "
               "clocksource and the NMI watchdog are read from Linux's /sys and /proc, which this "
               "system does not have\n");
  x86id_report(out, id);
#ifdef __FreeBSD__
  trust_timecounter(out, id->present);
#endif
#endif
}
