/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* trustkernel.c: what the kernel decided about the clocks and counters:
   the clocksource it reads time from (a TSC it dropped is one it found
   unreliable), and the NMI watchdog, which keeps a PMU counter busy. */
#include <string.h>
#include "sysfile.h"
#include "trust.h"
#include "words.h"

#define CS_DIR "/sys/devices/system/clocksource/clocksource0"

/* Names of clocksources are words of letters, digits, '_' and '-', each
   starting with a letter ("tsc", "kvm-clock", "arch_sys_counter",
   "MIPS"); the available list is such words with one space between. */
static int letter(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int names(const char *w)
{
  int start = 1;
  if (!*w) return 0;
  for (; *w; ++w) {
    if (*w == ' ') {
      start = 1;
      continue;
    }
    if (start && !letter(*w)) return 0;
    if (!letter(*w) && !(*w >= '0' && *w <= '9') && *w != '_' && *w != '-') return 0;
    start = 0;
  }
  return 1;
}

void trust_clocksource(FILE *out, const char *root, int x86)
{
  static const char current[] = CS_DIR "/current_clocksource";
  static const char available[] = CS_DIR "/available_clocksource";
  char buf[SYSFILE_MAX], cur[WORDS_MAX + 4], avail[WORDS_MAX + 4];
  long n = sysfile_read(root, current, buf), m;

  if (n < 0) {
    fprintf(out, "cpucycles trust clocksource-none (no %s): which clock the kernel keeps time "
                 "with is not visible\n", current);
    return;
  }
  words_clean(buf, (size_t)n, cur);
  if (!names(cur) || strchr(cur, ' ')) {
    trust_odd(out, current, buf, n);
    return;
  }
  fprintf(out, "cpucycles trust clocksource %s (%s): the kernel's clocks (CLOCK_MONOTONIC, "
               "gettimeofday) read %s\n", cur, current, cur);
  m = sysfile_read(root, available, buf);
  if (m < 0) return;
  words_clean(buf, (size_t)m, avail);
  if (!names(avail)) {
    trust_odd(out, available, buf, m);
    return;
  }
  fprintf(out, "cpucycles trust clocksources %s (%s): the clocks the kernel still trusts\n",
          avail, available);
  if (!x86) return;
  if (strcmp(cur, "tsc") == 0)
    fprintf(out, "cpucycles trust tsc-kernel-uses (clocksource tsc): the kernel checked the TSC "
                 "against other clocks at boot and keeps time with it: it found it steady and "
                 "in step across CPUs\n");
  else if (words_has(avail, "tsc"))
    fprintf(out, "cpucycles trust tsc-kernel-passes (clocksource %s, tsc available): the kernel "
                 "keeps time with another clock although the TSC is usable (a boot option, or a "
                 "hypervisor's clock rated higher)\n", cur);
  else
    fprintf(out, "cpucycles trust tsc-kernel-abandoned (clocksource %s, tsc not available): the "
                 "kernel dropped the TSC, most often because it found it unsteady or out of step "
                 "between CPUs (dmesg: \"Marking TSC unstable\"): distrust TSC counts, above all "
                 "across CPUs\n", cur);
}

void trust_watchdog(FILE *out, const char *root, int intel)
{
  static const char path[] = "/proc/sys/kernel/nmi_watchdog";
  char buf[SYSFILE_MAX];
  long long v;
  long n = sysfile_read(root, path, buf);

  if (n < 0) {
    fprintf(out, "cpucycles trust nmi-watchdog-none (no %s): this kernel has no hard-lockup "
                 "detector to hold a PMU counter\n", path);
    return;
  }
  if (!words_number(buf, (size_t)n, &v) || v < 0) {
    trust_odd(out, path, buf, n);
    return;
  }
  if (!v)
    fprintf(out, "cpucycles trust nmi-watchdog-off 0 (%s): no PMU counter is held by the "
                 "kernel's hard-lockup detector\n", path);
  else if (intel)
    fprintf(out, "cpucycles trust nmi-watchdog-on %lld (%s): on Intel the hard-lockup detector "
                 "holds a PMU counter (a cycle event, usually the fixed cycle counter) on every "
                 "CPU: one counter fewer for perf, and amd64-perfpmcff refuses an event placed "
                 "elsewhere; sysctl kernel.nmi_watchdog=0 frees it until the next boot\n", v, path);
  else
    fprintf(out, "cpucycles trust nmi-watchdog-on %lld (%s): where the kernel drives a PMU, the "
                 "hard-lockup detector keeps a cycle event on every CPU (a counter fewer for "
                 "perf); sysctl kernel.nmi_watchdog=0 frees it\n", v, path);
}
