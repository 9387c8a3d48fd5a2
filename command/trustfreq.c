/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* trustfreq.c: the frequency a core runs at, as Linux's cpufreq shows it:
   governor, limits, turbo. A core whose frequency moves turns a fixed
   count of cycles into a varying time, and an off-core clock's ticks
   into a varying count of cycles. */
#include <string.h>
#include "sysfile.h"
#include "trust.h"
#include "words.h"

#define CPU_DIR "/sys/devices/system/cpu"

/* A governor's name is one word of lower-case letters, digits, '_' and
   '-', starting with a letter, on every kernel; anything else is not
   one. */
static int governor_name(const char *w)
{
  if (!(*w >= 'a' && *w <= 'z')) return 0;
  for (; *w; ++w)
    if (!((*w >= 'a' && *w <= 'z') || (*w >= '0' && *w <= '9') || *w == '_' || *w == '-'))
      return 0;
  return 1;
}

static const char *governor_meaning(const char *g)
{
  if (strcmp(g, "performance") == 0)
    return "the kernel asks for the highest frequency allowed (freq-limits), so the core stays "
           "there unless turbo or heat move it";
  if (strcmp(g, "powersave") == 0)
    return "the lowest frequency allowed, or, under intel_pstate or amd-pstate in active mode, "
           "the CPU's own choice with the load: cycles per second vary; the performance "
           "governor holds them (cpupower frequency-set -g performance)";
  if (strcmp(g, "userspace") == 0)
    return "a program sets the frequency (scaling_setspeed): steady while it leaves it alone";
  return "the kernel moves the frequency with the load, so cycles per second vary during a "
         "run; the performance governor holds them (cpupower frequency-set -g performance)";
}

/* The governor of cpu as a word in w: 1, 0 when there is no file, -1
   when it holds no governor's name (reported as odd). */
static int governor(FILE *out, const char *root, int cpu, char w[WORDS_MAX + 4], char *path,
                    size_t size)
{
  char buf[SYSFILE_MAX];
  long n;

  snprintf(path, size, CPU_DIR "/cpu%d/cpufreq/scaling_governor", cpu);
  n = sysfile_read(root, path, buf);
  if (n < 0) return 0;
  words_clean(buf, (size_t)n, w);
  if (governor_name(w)) return 1;
  trust_odd(out, path, buf, n);
  return -1;
}

/* A number of kHz from cpu's cpufreq/<name>: 1 with *khz, 0 when absent,
   -1 when odd (reported). */
static int khz(FILE *out, const char *root, int cpu, const char *name, long long *khz)
{
  char path[128], buf[SYSFILE_MAX];
  long n;

  snprintf(path, sizeof path, CPU_DIR "/cpu%d/cpufreq/%s", cpu, name);
  n = sysfile_read(root, path, buf);
  if (n < 0) return 0;
  if (words_number(buf, (size_t)n, khz) && *khz >= 0) return 1;
  trust_odd(out, path, buf, n);
  return -1;
}

static void limits(FILE *out, const char *root, int cpu)
{
  long long lo, hi, hw = 0;
  int have_lo = khz(out, root, cpu, "scaling_min_freq", &lo);
  int have_hi = khz(out, root, cpu, "scaling_max_freq", &hi);
  int have_hw = khz(out, root, cpu, "cpuinfo_max_freq", &hw) == 1;
  char hardware[32];

  if (have_lo != 1 || have_hi != 1) return;
  if (have_hw) snprintf(hardware, sizeof hardware, "%lld", hw);
  else strcpy(hardware, "unknown");
  fprintf(out, "cpucycles trust freq-limits min %lld max %lld hardware %s kHz (" CPU_DIR
               "/cpu%d/cpufreq/scaling_min_freq, scaling_max_freq, cpuinfo_max_freq): ",
          lo, hi, hardware, cpu);
  if (lo == hi)
    fprintf(out, "the kernel holds the core at %lld MHz", lo / 1000);
  else
    fprintf(out, "the kernel may run the core anywhere from %lld to %lld MHz, so cycles per "
                 "second may vary by a factor of %.1f", lo / 1000, hi / 1000,
            lo > 0 ? (double)hi / (double)lo : 0.0);
  if (have_hw && hw > hi) fprintf(out, "; capped below the hardware's %lld MHz", hw / 1000);
  fprintf(out, "\n");
}

/* Governors can differ between CPUs; a process that migrates meets each.
   The first that differs from cpus[0]'s is named. */
#define GOVERNOR_READS 256

void trust_frequency(FILE *out, const char *root, const int *cpus, int n)
{
  char first[WORDS_MAX + 4], other[WORDS_MAX + 4], path[128], path2[128];
  int got, i;

  got = governor(out, root, cpus[0], first, path, sizeof path);
  if (got == 0) {
    fprintf(out, "cpucycles trust freq-none (" CPU_DIR "/cpu%d/cpufreq/scaling_governor absent): "
                 "no frequency control is visible, as in most virtual machines, where the host "
                 "sets the frequency unseen: the observed cycles per second above are all there "
                 "is to go by\n", cpus[0]);
    return;
  }
  if (got == 1)
    fprintf(out, "cpucycles trust governor %s (%s): %s\n", first, path, governor_meaning(first));
  for (i = 1; i < n && i < GOVERNOR_READS; ++i) {
    int g = governor(out, root, cpus[i], other, path2, sizeof path2);
    if (g == -1) break;
    if (g == 0) strcpy(other, "(absent)");
    if (got != 1 || strcmp(first, other) != 0) {
      if (got == 1)
        fprintf(out, "cpucycles trust governor-mixed cpu%d %s cpu%d %s (%s): CPUs this process "
                     "may run on scale their frequency differently, so a migration can change "
                     "cycles per second mid-run: pin the process, or set one governor on all\n",
                cpus[0], first, cpus[i], other, path2);
      break;
    }
  }
  limits(out, root, cpus[0]);
}

/* One boost switch: value on means turbo allowed, unless inverted (the
   intel_pstate file is "no_turbo"). Returns whether the file exists. */
static int boost_file(FILE *out, const char *root, const char *path, int inverted)
{
  char buf[SYSFILE_MAX];
  long long v;
  long n = sysfile_read(root, path, buf);

  if (n < 0) return 0;
  if (!words_number(buf, (size_t)n, &v) || (v != 0 && v != 1)) {
    trust_odd(out, path, buf, n);
    return 1;
  }
  if ((v == 1) != inverted)
    fprintf(out, "cpucycles trust turbo-on %lld (%s): the core may run above its base frequency "
                 "while power and heat allow, so cycles per second change with load, "
                 "temperature and what other cores do; turn it off (write %d there) for steady "
                 "numbers\n", v, path, inverted ? 1 : 0);
  else
    fprintf(out, "cpucycles trust turbo-off %lld (%s): the core stays at or below its base "
                 "frequency\n", v, path);
  return 1;
}

static void amd_pstate(FILE *out, const char *root)
{
  static const char path[] = CPU_DIR "/amd_pstate/status";
  char buf[SYSFILE_MAX], w[WORDS_MAX + 4];
  const char *meaning;
  long n = sysfile_read(root, path, buf);

  if (n < 0) return;
  words_clean(buf, (size_t)n, w);
  if (strcmp(w, "active") == 0)
    meaning = "the CPU picks each core's frequency itself (CPPC), guided by the governor's "
              "energy preference: cycles per second follow the load";
  else if (strcmp(w, "passive") == 0 || strcmp(w, "guided") == 0)
    meaning = "the kernel's governor asks the CPU for a frequency (guided: within limits the CPU "
              "may leave)";
  else if (strcmp(w, "disable") == 0)
    meaning = "amd-pstate is off; another driver, if any, sets the frequency";
  else {
    trust_odd(out, path, buf, n);
    return;
  }
  fprintf(out, "cpucycles trust amd-pstate %s (%s): %s\n", w, path, meaning);
}

void trust_turbo(FILE *out, const char *root, int cpu)
{
  char policy[128];
  int found = 0;

  found |= boost_file(out, root, CPU_DIR "/intel_pstate/no_turbo", 1);
  amd_pstate(out, root);
  found |= boost_file(out, root, CPU_DIR "/cpufreq/boost", 0);
  /* amd-pstate (Linux 6.11 and later) keeps its switch per policy */
  snprintf(policy, sizeof policy, CPU_DIR "/cpu%d/cpufreq/boost", cpu);
  found |= boost_file(out, root, policy, 0);
  if (!found)
    fprintf(out, "cpucycles trust turbo-none (no " CPU_DIR "/intel_pstate/no_turbo, cpufreq/boost "
                 "or cpu%d/cpufreq/boost): whether the core may run above its base frequency is "
                 "not visible here (in a virtual machine, the host decides)\n", cpu);
}
