/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* trusttopo.c: the CPUs a measurement may land on: which ones the
   process may use, whether their cores run other threads beside it
   (SMT), and whether they are of one kind (hybrid P/E cores,
   big.LITTLE). */
#include <string.h>
#include "cpus.h"
#include "sysfile.h"
#include "trust.h"
#include "words.h"

#define CPU_DIR "/sys/devices/system/cpu"

void trust_affinity(FILE *out, const int *cpus, int n, long online)
{
  char list[200];

  if (n <= 0) {
    fprintf(out, "cpucycles trust affinity-unknown (no " CPUS_ASKED " here; %ld CPUs "
                 "online): on which CPUs this process runs is the system's choice, so it may "
                 "migrate mid-measurement\n", online);
    return;
  }
  cpus_format(cpus, n, list, sizeof list);
  if (n == 1)
    fprintf(out, "cpucycles trust affinity %s (" CPUS_ASKED ": 1 CPU of %ld online): the "
                 "process runs on this CPU only and does not migrate\n", list, online);
  else
    fprintf(out, "cpucycles trust affinity %s (" CPUS_ASKED ": %d CPUs of %ld online): "
                 "unpinned, the process may migrate between them mid-measurement (see crosscore "
                 "below); taskset -c %d pins it\n", list, n, online, cpus[n - 1]);
}

/* A kernel's CPU list: numbers, each a CPU (7 digits at most), joined by
   ',' or, for a range, '-' ("0,4", "0-1"). */
static int cpu_list(const char *w)
{
  int digits = 0;
  for (; *w; ++w) {
    if (*w >= '0' && *w <= '9') {
      if (++digits > 7) return 0;
    } else if ((*w == ',' || *w == '-') && digits) {
      digits = 0;
    } else {
      return 0;
    }
  }
  return digits > 0;
}

static const char smt_on[] =
    "cores run two or more hardware threads: a sibling thread's work takes the core's cycles "
    "from the measured one; pin to a core whose siblings are idle, or turn SMT off "
    "(echo off > " CPU_DIR "/smt/control)";
static const char smt_off[] = "each core runs one thread: no sibling shares it";

void trust_smt(FILE *out, const char *root, int cpu)
{
  static const char active[] = CPU_DIR "/smt/active";
  char buf[SYSFILE_MAX], path[128], w[WORDS_MAX + 4];
  long long v;
  long n = sysfile_read(root, active, buf);

  if (n >= 0) {
    if (!words_number(buf, (size_t)n, &v) || (v != 0 && v != 1))
      trust_odd(out, active, buf, n);
    else if (v)
      fprintf(out, "cpucycles trust smt-on %lld (%s): %s\n", v, active, smt_on);
    else
      fprintf(out, "cpucycles trust smt-off %lld (%s): %s\n", v, active, smt_off);
    return;
  }
  /* kernels before 4.19, and those built without SMT control */
  snprintf(path, sizeof path, CPU_DIR "/cpu%d/topology/thread_siblings_list", cpu);
  n = sysfile_read(root, path, buf);
  if (n < 0) {
    fprintf(out, "cpucycles trust smt-unknown (no %s, no %s): whether cores run more than one "
                 "thread is not visible\n", active, path);
    return;
  }
  words_clean(buf, (size_t)n, w);
  if (!cpu_list(w)) {
    trust_odd(out, path, buf, n);
    return;
  }
  /* a list of one CPU is a core with no sibling */
  if (strpbrk(w, ",-"))
    fprintf(out, "cpucycles trust smt-on %s (%s): %s\n", w, path, smt_on);
  else
    fprintf(out, "cpucycles trust smt-off %s (%s): %s\n", w, path, smt_off);
}

static void pmus(FILE *out, const char *root)
{
  int core = sysfile_dir(root, "/sys/devices/cpu_core");
  int atom = sysfile_dir(root, "/sys/devices/cpu_atom");

  if (!core && !atom) {
    fprintf(out, "cpucycles trust hybrid-none (no /sys/devices/cpu_core or /sys/devices/"
                 "cpu_atom): no Intel hybrid PMUs, so no P-cores and E-cores here\n");
    return;
  }
  fprintf(out, "cpucycles trust hybrid-pmus%s%s (/sys/devices/cpu_core, /sys/devices/cpu_atom): "
               "%s\n", core ? " cpu_core" : "", atom ? " cpu_atom" : "",
          core && atom ? "P-cores and E-cores: the same code takes different cycles and time on "
                         "each kind, so pin a measurement to one kind (taskset -c with CPUs of "
                         "one PMU's cpus file)"
                       : "a hybrid Intel CPU with one core type's PMU alone: the other type is "
                         "off or absent");
}

/* cpu_capacity is the kernel's relative speed of each CPU (1024 for the
   fastest); different values are cores of different kinds. */
#define CAPACITY_READS 4096

void trust_hybrid(FILE *out, const char *root, const int *cpus, int n)
{
  long long lo = 0, hi = 0, v;
  int seen = 0, i, lo_cpu = 0, hi_cpu = 0;
  char path[128], buf[SYSFILE_MAX];

  pmus(out, root);
  for (i = 0; i < n && i < CAPACITY_READS; ++i) {
    long r;
    snprintf(path, sizeof path, CPU_DIR "/cpu%d/cpu_capacity", cpus[i]);
    r = sysfile_read(root, path, buf);
    if (r < 0) continue;
    if (!words_number(buf, (size_t)r, &v) || v < 0) {
      trust_odd(out, path, buf, r);
      continue;
    }
    if (!seen || v < lo) lo = v, lo_cpu = cpus[i];
    if (!seen || v > hi) hi = v, hi_cpu = cpus[i];
    ++seen;
  }
  if (!seen)
    fprintf(out, "cpucycles trust capacity-none (no " CPU_DIR "/cpu*/cpu_capacity): the kernel "
                 "states no relative speeds of cores\n");
  else if (lo == hi)
    fprintf(out, "cpucycles trust capacity-equal %lld on %d CPUs (" CPU_DIR "/cpu*/cpu_capacity): "
                 "the kernel sees every core this process may use as equally fast\n", lo, seen);
  else
    fprintf(out, "cpucycles trust capacity-mixed %lld...%lld on %d CPUs, cpu%d %lld, cpu%d %lld ("
                 CPU_DIR "/cpu*/cpu_capacity): cores of different speeds (big and little, P and "
                 "E): the same code takes different cycles and time on each, so pin a "
                 "measurement to cores of one capacity\n", lo, hi, seen, lo_cpu, lo, hi_cpu, hi);
}
