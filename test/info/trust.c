/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* trust.c: cpucycles-info's trust lines (command/trust*.c) on fixture
   trees: the governor and its limits, turbo (intel_pstate, amd-pstate,
   cpufreq boost), the clocksource, hybrid PMUs and capacities, SMT, the
   NMI watchdog, the affinity line; then hostile bytes in every file they
   read. The expected lines are written here from each fixture: the code
   and what was read, up to the colon that starts the meaning. */
#define _POSIX_C_SOURCE 200809L
#define _DARWIN_C_SOURCE /* mkdtemp, which macOS hides under _POSIX_C_SOURCE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include "check.h"
#include "capture.h"
#include "tree.h"
#include "trust.h"

#define CPU "/sys/devices/system/cpu"
#define CS "/sys/devices/system/clocksource/clocksource0"
#define DIR_HERE 0 /* a file's text: make a directory at its path instead */

static char root[64];

/* A fresh empty tree. */
static void fresh(void)
{
  if (root[0]) tree_remove(root);
  strcpy(root, "/tmp/cpucycles-trust.XXXXXX");
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    exit(1);
  }
}

/* bytes[0..n) at root+path, NULs included; bytes 0: a directory. */
static void put_bytes(const char *path, const char *bytes, size_t n)
{
  char name[512];
  FILE *f;
  snprintf(name, sizeof name, "%s%s", root, path);
  if (tree_put(root, path, "") != 0) {
    fprintf(stderr, "cannot write %s\n", name);
    exit(1);
  }
  if (!bytes) {
    unlink(name);
    mkdir(name, 0755);
    return;
  }
  f = fopen(name, "wb");
  if (!f || fwrite(bytes, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", name);
    exit(1);
  }
}

/* The readers, by what they read; CLOCK and WATCHDOG with the x86 and
   Intel flags set, their _OTHER twins without. */
enum { FREQ, TURBO, CLOCK, CLOCK_OTHER, HYBRID, SMT, WATCHDOG, WATCHDOG_OTHER };

static void call(int which, const int *cpus, int n)
{
  FILE *f = capture_start();
  switch (which) {
  case FREQ: trust_frequency(f, root, cpus, n); break;
  case TURBO: trust_turbo(f, root, cpus[0]); break;
  case CLOCK: trust_clocksource(f, root, 1); break;
  case CLOCK_OTHER: trust_clocksource(f, root, 0); break;
  case HYBRID: trust_hybrid(f, root, cpus, n); break;
  case SMT: trust_smt(f, root, cpus[0]); break;
  case WATCHDOG: trust_watchdog(f, root, 1); break;
  default: trust_watchdog(f, root, 0); break;
  }
  capture_end(f);
}

struct file {
  const char *path, *text; /* text DIR_HERE: a directory */
};

struct fixture {
  const char *what;
  int which;
  int cpus[4], n;       /* the CPUs the process may run on; n 0: {0} */
  struct file files[6];
  const char *lines[4]; /* the beginning of each line that must be printed */
  int count;            /* how many lines in all */
  const char *says[2];  /* a line's beginning, and words its meaning holds */
  const char *never;    /* words no line may hold */
};

static const struct fixture fixtures[] = {
  {"governor and limits, min = max below the hardware's", FREQ, {0, 1}, 2,
   {{CPU "/cpu0/cpufreq/scaling_governor", "performance\n"},
    {CPU "/cpu1/cpufreq/scaling_governor", "performance\n"},
    {CPU "/cpu0/cpufreq/scaling_min_freq", "3000000\n"},
    {CPU "/cpu0/cpufreq/scaling_max_freq", "3000000\n"},
    {CPU "/cpu0/cpufreq/cpuinfo_max_freq", "3500000\n"}},
   {"cpucycles trust governor performance (" CPU "/cpu0/cpufreq/scaling_governor): ",
    "cpucycles trust freq-limits min 3000000 max 3000000 hardware 3500000 kHz (" CPU
    "/cpu0/cpufreq/scaling_min_freq, scaling_max_freq, cpuinfo_max_freq): "},
   2, {"cpucycles trust freq-limits", "holds the core at 3000 MHz; capped below the hardware's "
       "3500 MHz"}, 0},
  {"mixed governors: the CPU that differs, by name", FREQ, {0, 2, 5}, 3,
   {{CPU "/cpu0/cpufreq/scaling_governor", "performance\n"},
    {CPU "/cpu2/cpufreq/scaling_governor", "performance\n"},
    {CPU "/cpu5/cpufreq/scaling_governor", "powersave\n"}},
   {"cpucycles trust governor performance (" CPU "/cpu0/cpufreq/scaling_governor): ",
    "cpucycles trust governor-mixed cpu0 performance cpu5 powersave (" CPU
    "/cpu5/cpufreq/scaling_governor): "},
   2, {0, 0}, 0},
  {"schedutil without a newline, limits without cpuinfo_max_freq", FREQ, {3}, 1,
   {{CPU "/cpu3/cpufreq/scaling_governor", "schedutil"},
    {CPU "/cpu3/cpufreq/scaling_min_freq", "800000"},
    {CPU "/cpu3/cpufreq/scaling_max_freq", "3500000"}},
   {"cpucycles trust governor schedutil (" CPU "/cpu3/cpufreq/scaling_governor): ",
    "cpucycles trust freq-limits min 800000 max 3500000 hardware unknown kHz (" CPU
    "/cpu3/cpufreq/scaling_min_freq, scaling_max_freq, cpuinfo_max_freq): "},
   2, {"cpucycles trust freq-limits", "from 800 to 3500 MHz"}, 0},
  {"no cpufreq for the first allowed CPU: none visible", FREQ, {0, 1}, 2,
   {{CPU "/cpu1/cpufreq/scaling_governor", "powersave\n"}},
   {"cpucycles trust freq-none (" CPU "/cpu0/cpufreq/scaling_governor absent): "}, 1, {0, 0}, 0},

  {"intel_pstate no_turbo 0", TURBO, {0}, 1, {{CPU "/intel_pstate/no_turbo", "0\n"}},
   {"cpucycles trust turbo-on 0 (" CPU "/intel_pstate/no_turbo): "}, 1,
   {"cpucycles trust turbo-on", "write 1 there"}, 0},
  {"intel_pstate no_turbo 1", TURBO, {0}, 1, {{CPU "/intel_pstate/no_turbo", "1\n"}},
   {"cpucycles trust turbo-off 1 (" CPU "/intel_pstate/no_turbo): "}, 1, {0, 0}, 0},
  {"amd-pstate active, boost per policy", TURBO, {2}, 1,
   {{CPU "/amd_pstate/status", "active\n"}, {CPU "/cpu2/cpufreq/boost", "1\n"}},
   {"cpucycles trust amd-pstate active (" CPU "/amd_pstate/status): ",
    "cpucycles trust turbo-on 1 (" CPU "/cpu2/cpufreq/boost): "},
   2, {"cpucycles trust turbo-on", "write 0 there"}, 0},
  {"amd-pstate passive, cpufreq boost 0", TURBO, {0}, 1,
   {{CPU "/amd_pstate/status", "passive\n"}, {CPU "/cpufreq/boost", "0\n"}},
   {"cpucycles trust amd-pstate passive (" CPU "/amd_pstate/status): ",
    "cpucycles trust turbo-off 0 (" CPU "/cpufreq/boost): "},
   2, {0, 0}, 0},
  {"amd-pstate without a boost file: turbo not visible", TURBO, {0}, 1,
   {{CPU "/amd_pstate/status", "active\n"}},
   {"cpucycles trust turbo-none (no " CPU "/intel_pstate/no_turbo, cpufreq/boost or "
    "cpu0/cpufreq/boost): "},
   2, {0, 0}, 0},
  {"an empty tree: turbo not visible", TURBO, {0}, 1, {{0, 0}},
   {"cpucycles trust turbo-none ("}, 1, {0, 0}, 0},

  {"clocksource tsc on x86", CLOCK, {0}, 1,
   {{CS "/current_clocksource", "tsc\n"}, {CS "/available_clocksource", "tsc hpet acpi_pm \n"}},
   {"cpucycles trust clocksource tsc (" CS "/current_clocksource): ",
    "cpucycles trust clocksources tsc hpet acpi_pm (" CS "/available_clocksource): ",
    "cpucycles trust tsc-kernel-uses (clocksource tsc): "},
   3, {0, 0}, 0},
  {"clocksource tsc elsewhere: no TSC verdict", CLOCK_OTHER, {0}, 1,
   {{CS "/current_clocksource", "tsc\n"}, {CS "/available_clocksource", "tsc hpet acpi_pm \n"}},
   {"cpucycles trust clocksource tsc (", "cpucycles trust clocksources tsc hpet acpi_pm ("}, 2,
   {0, 0}, "tsc-kernel"},
  {"kvm-clock chosen over an available TSC", CLOCK, {0}, 1,
   {{CS "/current_clocksource", "kvm-clock\n"}, {CS "/available_clocksource", "kvm-clock tsc hpet\n"}},
   {"cpucycles trust tsc-kernel-passes (clocksource kvm-clock, tsc available): "}, 3, {0, 0}, 0},
  {"no tsc among the available (tsc-early and early_tsc are other words)", CLOCK, {0}, 1,
   {{CS "/current_clocksource", "hpet\n"}, {CS "/available_clocksource", "tsc-early hpet early_tsc\n"}},
   {"cpucycles trust tsc-kernel-abandoned (clocksource hpet, tsc not available): "}, 3,
   {"cpucycles trust tsc-kernel-abandoned", "Marking TSC unstable"}, 0},
  {"arm64's clocksource, no available list", CLOCK_OTHER, {0}, 1,
   {{CS "/current_clocksource", "arch_sys_counter\n"}},
   {"cpucycles trust clocksource arch_sys_counter (" CS "/current_clocksource): "}, 1, {0, 0}, 0},
  {"no clocksource files", CLOCK, {0}, 1, {{0, 0}},
   {"cpucycles trust clocksource-none (no " CS "/current_clocksource): "}, 1, {0, 0}, 0},

  {"hybrid: both PMUs, capacities 1024 1024 512 600", HYBRID, {0, 1, 2, 3}, 4,
   {{"/sys/devices/cpu_core", DIR_HERE}, {"/sys/devices/cpu_atom", DIR_HERE},
    {CPU "/cpu0/cpu_capacity", "1024\n"}, {CPU "/cpu1/cpu_capacity", "1024\n"},
    {CPU "/cpu2/cpu_capacity", "512\n"}, {CPU "/cpu3/cpu_capacity", "600\n"}},
   {"cpucycles trust hybrid-pmus cpu_core cpu_atom (/sys/devices/cpu_core, /sys/devices/cpu_atom): ",
    "cpucycles trust capacity-mixed 512...1024 on 4 CPUs, cpu2 512, cpu0 1024 (" CPU
    "/cpu*/cpu_capacity): "},
   2, {"cpucycles trust hybrid-pmus", "P-cores and E-cores"}, 0},
  {"cpu_core alone; the allowed CPUs' capacities alone", HYBRID, {4, 6}, 2,
   {{"/sys/devices/cpu_core", DIR_HERE}, {CPU "/cpu4/cpu_capacity", "1024"},
    {CPU "/cpu6/cpu_capacity", "1024"}, {CPU "/cpu5/cpu_capacity", "300"}},
   {"cpucycles trust hybrid-pmus cpu_core (",
    "cpucycles trust capacity-equal 1024 on 2 CPUs (" CPU "/cpu*/cpu_capacity): "},
   2, {0, 0}, 0},
  {"no hybrid facts", HYBRID, {0, 1}, 2, {{0, 0}},
   {"cpucycles trust hybrid-none (no /sys/devices/cpu_core or /sys/devices/cpu_atom): ",
    "cpucycles trust capacity-none (no " CPU "/cpu*/cpu_capacity): "},
   2, {0, 0}, 0},

  {"smt active 1 (over the siblings list)", SMT, {0}, 1,
   {{CPU "/smt/active", "1\n"}, {CPU "/cpu0/topology/thread_siblings_list", "0\n"}},
   {"cpucycles trust smt-on 1 (" CPU "/smt/active): "}, 1, {0, 0}, 0},
  {"smt active 0", SMT, {0}, 1, {{CPU "/smt/active", "0\n"}},
   {"cpucycles trust smt-off 0 (" CPU "/smt/active): "}, 1, {0, 0}, 0},
  {"siblings 2,6 without smt/active", SMT, {2}, 1,
   {{CPU "/cpu2/topology/thread_siblings_list", "2,6\n"}},
   {"cpucycles trust smt-on 2,6 (" CPU "/cpu2/topology/thread_siblings_list): "}, 1, {0, 0}, 0},
  {"siblings as a range", SMT, {0}, 1, {{CPU "/cpu0/topology/thread_siblings_list", "0-1\n"}},
   {"cpucycles trust smt-on 0-1 ("}, 1, {0, 0}, 0},
  {"a core with no sibling", SMT, {3}, 1, {{CPU "/cpu3/topology/thread_siblings_list", "3\n"}},
   {"cpucycles trust smt-off 3 (" CPU "/cpu3/topology/thread_siblings_list): "}, 1, {0, 0}, 0},
  {"neither SMT file", SMT, {0}, 1, {{0, 0}},
   {"cpucycles trust smt-unknown (no " CPU "/smt/active, no " CPU
    "/cpu0/topology/thread_siblings_list): "},
   1, {0, 0}, 0},

  {"watchdog on, Intel", WATCHDOG, {0}, 1, {{"/proc/sys/kernel/nmi_watchdog", "1\n"}},
   {"cpucycles trust nmi-watchdog-on 1 (/proc/sys/kernel/nmi_watchdog): "}, 1,
   {"cpucycles trust nmi-watchdog-on", "on Intel the hard-lockup detector holds a PMU counter"}, 0},
  {"watchdog on, not Intel", WATCHDOG_OTHER, {0}, 1, {{"/proc/sys/kernel/nmi_watchdog", "1\n"}},
   {"cpucycles trust nmi-watchdog-on 1 (/proc/sys/kernel/nmi_watchdog): "}, 1,
   {"cpucycles trust nmi-watchdog-on", "kernel.nmi_watchdog=0"}, "Intel"},
  {"watchdog off", WATCHDOG, {0}, 1, {{"/proc/sys/kernel/nmi_watchdog", "0\n"}},
   {"cpucycles trust nmi-watchdog-off 0 (/proc/sys/kernel/nmi_watchdog): "}, 1, {0, 0}, 0},
  {"no watchdog file", WATCHDOG, {0}, 1, {{0, 0}},
   {"cpucycles trust nmi-watchdog-none (no /proc/sys/kernel/nmi_watchdog): "}, 1, {0, 0}, 0},
  {"a directory at nmi_watchdog: absent", WATCHDOG, {0}, 1,
   {{"/proc/sys/kernel/nmi_watchdog", DIR_HERE}},
   {"cpucycles trust nmi-watchdog-none ("}, 1, {0, 0}, 0},
};

static void play(const struct fixture *x)
{
  int i;

  fresh();
  for (i = 0; i < 6 && x->files[i].path; ++i)
    put_bytes(x->files[i].path, x->files[i].text,
              x->files[i].text ? strlen(x->files[i].text) : 0);
  call(x->which, x->cpus, x->n);
  for (i = 0; i < 4 && x->lines[i]; ++i) CAPTURED(x->lines[i], "%s: %s", x->what, x->lines[i]);
  CHECK(capture_lines() == x->count, "%s: %d lines (%d)", x->what, x->count, capture_lines());
  if (x->says[0]) {
    int says = capture_says(x->says[0], x->says[1]);
    CHECK(says, "%s: %s... says %s", x->what, x->says[0], x->says[1]);
    if (!says) capture_dump();
  }
  if (x->never) CHECK(!strstr(capture_out, x->never), "%s: no line says %s", x->what, x->never);
}

static void affinity(void)
{
  int some[7] = {0, 1, 2, 3, 8, 10, 11}, one[1] = {5};
  FILE *f = capture_start();

  trust_affinity(f, some, 7, 16);
  trust_affinity(f, one, 1, 8);
  trust_affinity(f, 0, 0, 4);
  capture_end(f);
  CAPTURED("cpucycles trust affinity 0-3,8,10-11 (sched_getaffinity: 7 CPUs of 16 online): ",
           "seven CPUs as ranges");
  CAPTURED("cpucycles trust affinity 5 (sched_getaffinity: 1 CPU of 8 online): ", "one CPU");
  CAPTURED("cpucycles trust affinity-unknown (no sched_getaffinity here; 4 CPUs online): ",
           "the system would not say");
}

/* Every line one fact: "cpucycles trust <code>", printable ASCII, a
   newline at the end, not endless. */
static int well_formed(void)
{
  const unsigned char *p = (const unsigned char *)capture_out;
  while (*p) {
    const unsigned char *end = (const unsigned char *)strchr((const char *)p, '\n');
    if (!end || strncmp((const char *)p, "cpucycles trust ", 16) != 0 || end - p > 800) return 0;
    for (; p < end; ++p)
      if (*p < ' ' || *p > '~') return 0;
    p = end + 1;
  }
  return 1;
}

/* Each file the readers take, and the reader. */
static const struct {
  const char *path;
  int which;
} targets[] = {
  {CPU "/cpu0/cpufreq/scaling_governor", FREQ},
  {CPU "/cpu0/cpufreq/scaling_min_freq", FREQ},
  {CPU "/cpu0/cpufreq/scaling_max_freq", FREQ},
  {CPU "/cpu0/cpufreq/cpuinfo_max_freq", FREQ},
  {CPU "/intel_pstate/no_turbo", TURBO},
  {CPU "/amd_pstate/status", TURBO},
  {CPU "/cpufreq/boost", TURBO},
  {CPU "/cpu0/cpufreq/boost", TURBO},
  {CS "/current_clocksource", CLOCK},
  {CS "/available_clocksource", CLOCK},
  {CPU "/cpu0/cpu_capacity", HYBRID},
  {CPU "/smt/active", SMT},
  {CPU "/cpu0/topology/thread_siblings_list", SMT},
  {"/proc/sys/kernel/nmi_watchdog", WATCHDOG},
};

/* The files a good fixture holds, so the one under test is the only odd
   one (the limits are read after a good governor, the list after a good
   current clocksource). */
static void good_tree(void)
{
  put_bytes(CPU "/cpu0/cpufreq/scaling_governor", "performance\n", 12);
  put_bytes(CPU "/cpu0/cpufreq/scaling_min_freq", "1000000\n", 8);
  put_bytes(CPU "/cpu0/cpufreq/scaling_max_freq", "2000000\n", 8);
  put_bytes(CPU "/cpu0/cpufreq/cpuinfo_max_freq", "2000000\n", 8);
  put_bytes(CS "/current_clocksource", "tsc\n", 4);
  put_bytes(CS "/available_clocksource", "tsc hpet\n", 9);
}

#define BYTES(s) s, sizeof s - 1
static const struct {
  const char *bytes;
  size_t len;
  const char *what;
  const char *quoted; /* how the odd line quotes it */
} hostile[] = {
  {BYTES("\0\0\0"), "NUL bytes", "???"},
  {BYTES(""), "an empty file", "(empty)"},
  {BYTES("\n\n\n"), "newlines alone", "(empty)"},
  {BYTES("\xff\xfe\x80\x1b[31m\x7f\n"), "bytes beyond ASCII and a terminal escape", "????[31m?"},
  {BYTES("99999999999999999999999\n"), "a number beyond 64 bits", "99999999999999999999999"},
  {BYTES("-1\n"), "a negative number", "-1"},
  {BYTES("1 2\n"), "two numbers", "1 2"},
  {BYTES("1\0" "2"), "a NUL inside a number", "1?2"},
  {BYTES("tsc\0hpet\n"), "a NUL between words", "tsc?hpet"},
  {BYTES("tsc\n-early\n"), "a newline inside a word", "tsc -early"},
};

/* A file far longer than a kernel's: 96 bytes of it are quoted, then
   "..." (written here, not taken from words.h). */
#define WORDS_CUT 96
static char big[100000];

static void hostile_bytes(void)
{
  int cpu0 = 0;
  size_t t, h, nh = sizeof hostile / sizeof hostile[0];

  memset(big, 'A', sizeof big);
  for (t = 0; t < sizeof targets / sizeof targets[0]; ++t) {
    int not_odd = 0, lines_bad = 0;
    for (h = 0; h <= nh; ++h) {
      char want[300], cut[WORDS_CUT + 4];
      const char *what = h < nh ? hostile[h].what : "100000 bytes";
      fresh();
      good_tree();
      if (h < nh) put_bytes(targets[t].path, hostile[h].bytes, hostile[h].len);
      else put_bytes(targets[t].path, big, sizeof big);
      call(targets[t].which, &cpu0, 1);
      if (!well_formed()) {
        ++lines_bad;
        printf("# %s with %s:\n", targets[t].path, what);
        capture_dump();
      }
      /* what no kernel writes there is odd, quoted, by that file's name */
      memset(cut, 'A', WORDS_CUT);
      strcpy(cut + WORDS_CUT, "...");
      snprintf(want, sizeof want, "cpucycles trust odd %s (%s): ", h < nh ? hostile[h].quoted : cut,
               targets[t].path);
      if (!capture_line(want)) {
        ++not_odd;
        printf("# %s with %s, no line %s:\n", targets[t].path, what, want);
        capture_dump();
      }
    }
    CHECK(lines_bad == 0, "hostile bytes in %s: every line one printable fact", targets[t].path);
    CHECK(not_odd == 0, "hostile bytes in %s: each quoted in an odd line by that file's name",
          targets[t].path);
  }

  /* what is odd says nothing, and leaves the rest */
  fresh();
  good_tree();
  put_bytes(CS "/available_clocksource", BYTES("tsc\0hpet\n"));
  call(CLOCK, &cpu0, 1);
  CAPTURED("cpucycles trust clocksource tsc (", "a NUL in the available list leaves the current one");
  CHECK(!capture_line("cpucycles trust tsc-kernel"), "no TSC verdict from an odd list");
  fresh();
  good_tree();
  put_bytes(CPU "/cpu0/cpufreq/scaling_governor", BYTES("\xff\n"));
  call(FREQ, &cpu0, 1);
  CAPTURED("cpucycles trust freq-limits min 1000000 max 2000000 hardware 2000000 kHz (",
           "an odd governor leaves the limits");
  fresh();
  good_tree();
  put_bytes(CPU "/cpu0/cpufreq/scaling_min_freq", BYTES("1 2\n"));
  call(FREQ, &cpu0, 1);
  CHECK(!capture_line("cpucycles trust freq-limits"), "no limits from an odd minimum");

  /* A FIFO with nothing writing it, where a file should be: no file
     there, and the reader must not block on it. */
  fresh();
  tree_put(root, CPU "/smt/x", "");
  {
    char name[256];
    snprintf(name, sizeof name, "%s" CPU "/smt/active", root);
    if (mkfifo(name, 0600) != 0) {
      SKIP("trust: mkfifo refused here, so no FIFO at smt/active");
    } else {
      call(SMT, &cpu0, 1);
      CAPTURED("cpucycles trust smt-unknown (", "a FIFO at smt/active: absent, and no block");
    }
  }
}

int main(void)
{
  size_t i;
  for (i = 0; i < sizeof fixtures / sizeof fixtures[0]; ++i) play(&fixtures[i]);
  affinity();
  hostile_bytes();
  if (root[0]) tree_remove(root);
  return check_done();
}
