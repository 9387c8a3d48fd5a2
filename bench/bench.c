/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* bench.c: what a reading costs, counter by counter, and what the first
   call costs in a fresh process.

   Usage: bench [RUNNER...] FIRST, where FIRST is bench/bin/first (run as
   RUNNER... FIRST, so an emulator prefix works); the first call's floor,
   bench/bin/floor, is run the same way from FIRST's directory.

   Every counter compiled for this host goes through the library's own
   selection, alone, so it is set up under the signal guard and must pass
   the monotonicity test before it is read here; those that fail are
   listed and skipped. Readings are taken back to back, in rounds that
   alternate between sources so that a burst of noise from the rest of the
   machine lands on all of them alike; the report is the median and the
   interquartile range of the differences, in cycles (scaled counters are
   scaled as the library would). A counter that ticks in steps coarser than
   a read (the TSC of some virtual machines, the microseconds of
   gettimeofday) has a median that is a whole number of steps; the mean of
   each round (its span over its length) resolves below a step, and the
   median of those means is reported beside it. */
#define _DEFAULT_SOURCE /* getloadavg */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <cpucycles.h>
#include "internal.h"
#include "child.h"
#include "floor.h"
#include "stats.h"

#define SAMPLES (BENCH_ROUNDS * BENCH_READS)
#define PROCESSES 31
#define CHILD_SECONDS 60
#define MAX_OPTIONS 64

/* The targets of issues 7 and 21 for this benchmark; missing them is
   reported, not an error: a loaded machine misses them without the library
   being wrong. The first call's limit in microseconds is this development
   machine's (a 2-core EPYC VM); its ratio to the floor measured here is
   the one that travels. */
#define TARGET_GAP_CYCLES 1.0
#define TARGET_FIRST_US 20.0
#define TARGET_FIRST_RATIO 1.25

static long long readings[BENCH_READS + 1];

/* Where the measured figures of one source go. */
struct figures {
  double *samples;
  double means[BENCH_ROUNDS];
  struct bench_summary s, mean;
};

/* A counter of the table, measured alone. */
struct source {
  const char *name;
  struct cpucycles_trial trial;
  double scale;
  struct figures f;
};


static double *samples_or_die(void)
{
  double *p = malloc(SAMPLES * sizeof *p);
  if (!p) {
    fprintf(stderr, "bench: out of memory\n");
    exit(1);
  }
  return p;
}

static void row(const char *name, const char *precision, const char *scaling,
                const struct bench_summary *s, const struct bench_summary *mean)
{
  printf("  %-24s %9s %12s", name, precision, scaling);
  if (!s) {
    printf("  does not work here\n");
    return;
  }
  printf("\t");
  bench_print_figure(stdout, s->median);
  printf("\t");
  bench_print_figure(stdout, s->iqr);
  printf("\t");
  if (mean) bench_print_figure(stdout, mean->median);
  printf("\n");
}

/* One machine-readable line; mean (the median of the round means) only
   where there are rounds. */
static void figure_line(const char *what, const struct bench_summary *s,
                        const struct bench_summary *mean, const char *unit)
{
  printf("bench %s median=", what);
  bench_print_figure(stdout, s->median);
  printf(" iqr=");
  bench_print_figure(stdout, s->iqr);
  if (mean) {
    printf(" mean=");
    bench_print_figure(stdout, mean->median);
  }
  printf(" unit=%s\n", unit);
}

/* The first call's floor (floor.c) for the counter name, in
   microseconds: the whole and its parts (the guard's system calls, the
   perf probe, the 1000 reads), one fresh process after each first call's,
   so that the same load weighs on both. The program is FIRST's directory
   and "floor" in place of FIRST's own name. */
struct floor_figures {
  struct bench_summary total, guard, perf, reads;
};
struct floor_run {
  char **argv, *path;
  const char *name;
  int ok;
  double total[PROCESSES], guard[PROCESSES], perf[PROCESSES], reads[PROCESSES];
};

static void floor_start(struct floor_run *fl, char **child, int nchild, const char *name)
{
  const char *first = child[nchild - 1], *slash = strrchr(first, '/');
  size_t dir = slash ? (size_t)(slash - first + 1) : 0;
  fl->argv = calloc((size_t)nchild + 2, sizeof *fl->argv);
  fl->path = malloc(dir + sizeof "floor");
  fl->name = name;
  fl->ok = fl->argv && fl->path;
  if (!fl->ok) return;
  memcpy(fl->path, first, dir);
  memcpy(fl->path + dir, "floor", sizeof "floor");
  memcpy(fl->argv, child, (size_t)nchild * sizeof *fl->argv);
  fl->argv[nchild - 1] = fl->path;
  fl->argv[nchild] = (char *)name;
}

static void floor_one(struct floor_run *fl, int i)
{
  char out[256];
  long long t, g, p, r;
  if (!fl->ok) return;
  if (bench_child(fl->argv, out, sizeof out, CHILD_SECONDS) != 0 ||
      sscanf(out, "floor %lld %lld %lld %lld", &t, &g, &p, &r) != 4) {
    fprintf(stderr, "bench: %s did not report a floor for %s\n", fl->path, fl->name);
    fl->ok = 0;
    return;
  }
  fl->total[i] = (double)t / 1000;
  fl->guard[i] = (double)g / 1000;
  fl->perf[i] = (double)p / 1000;
  fl->reads[i] = (double)r / 1000;
}

static int floor_finish(struct floor_run *fl, struct floor_figures *f)
{
  if (fl->ok) {
    bench_summarize(fl->total, PROCESSES, &f->total);
    bench_summarize(fl->guard, PROCESSES, &f->guard);
    bench_summarize(fl->perf, PROCESSES, &f->perf);
    bench_summarize(fl->reads, PROCESSES, &f->reads);
  }
  free(fl->path);
  free(fl->argv);
  return fl->ok && f->total.median > 0 ? 0 : -1;
}

/* One fresh process's first call: its wall and CPU time in us. */
static int first_call(char **argv, double *us, double *cpu_us)
{
  char out[256];
  long long ns, cpu_ns;
  if (bench_child(argv, out, sizeof out, CHILD_SECONDS) != 0 ||
      sscanf(out, "first %lld %lld", &ns, &cpu_ns) != 2)
    return -1;
  *us = (double)ns / 1000;
  *cpu_us = (double)cpu_ns / 1000;
  return 0;
}

/* The first call's wall and CPU time in PROCESSES fresh processes, in
   microseconds, each followed by its floor's (fl) and by one beside a
   runtime's handlers (runtime), and the hot path through the shared
   library from one more. */
static int first_calls(char **child, int nchild, struct bench_summary *first,
                       struct bench_summary *first_cpu, struct bench_summary *runtime,
                       struct bench_summary *hot, struct bench_summary *hot_mean,
                       struct floor_run *fl)
{
  char **argv = calloc((size_t)nchild + 2, sizeof *argv);
  double us[PROCESSES], cpu_us[PROCESSES], rt_us[PROCESSES], rt_cpu;
  char out[256];
  int i;

  if (!argv) return -1;
  memcpy(argv, child, (size_t)nchild * sizeof *argv);
  for (i = 0; i < PROCESSES; ++i) {
    argv[nchild] = 0;
    if (first_call(argv, &us[i], &cpu_us[i]) != 0) break;
    floor_one(fl, i);
    argv[nchild] = "runtime";
    if (first_call(argv, &rt_us[i], &rt_cpu) != 0) break;
  }
  if (i < PROCESSES) {
    fprintf(stderr, "bench: %s did not report a first call\n", child[nchild - 1]);
    free(argv);
    return -1;
  }
  bench_summarize(us, PROCESSES, first);
  bench_summarize(cpu_us, PROCESSES, first_cpu);
  bench_summarize(rt_us, PROCESSES, runtime);
  argv[nchild] = "hot";
  if (bench_child(argv, out, sizeof out, CHILD_SECONDS) != 0 ||
      sscanf(out, "%*[^\n]\nhot %lf %lf %lf", &hot->median, &hot->iqr, &hot_mean->median) != 3) {
    fprintf(stderr, "bench: %s did not report the hot path\n", child[nchild - 1]);
    free(argv);
    return -1;
  }
  free(argv);
  return 0;
}

/* The "model name" line of /proc/cpuinfo, to say what was measured. */
static void cpu_model(char *model, size_t len)
{
  char line[512];
  FILE *f = fopen("/proc/cpuinfo", "r");

  snprintf(model, len, "unknown cpu");
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    char *colon = strchr(line, ':');
    if (strncmp(line, "model name", 10) == 0 && colon) {
      snprintf(model, len, "%s", colon + 2);
      model[strcspn(model, "\n")] = 0;
      break;
    }
  }
  fclose(f);
}

int main(int argc, char **argv)
{
  struct source src[MAX_OPTIONS];
  struct figures api_f;
#ifdef BENCH_FLOOR
  struct figures floor_f;
#endif
  struct bench_summary first_s, first_cpu, runtime_s, hot_s, hot_mean;
  struct floor_figures floor_s;
  struct floor_run floor_run;
  int n = cpucycles_noptions < MAX_OPTIONS ? cpucycles_noptions : MAX_OPTIONS;
  long long persecond;
  int i, j, r, have_first, have_floor;
  double ratio = 0;
  struct utsname u;
  char model[256], text[96];
  double load = -1;

  if (argc < 2) {
    fprintf(stderr, "usage: bench [RUNNER...] FIRST\n");
    return 1;
  }
  /* The library's own estimate, from the same chain it uses for itself,
     without making the selection in this process yet. */
  persecond = cpucycles_persecond_estimate("", getenv("cpucyclespersecond"));
  /* Other processes' load changes every figure here; it is reported. */
  if (getloadavg(&load, 1) != 1) load = -1;

  for (i = 0; i < n; ++i) {
    src[i].name = cpucycles_options[i].name;
    src[i].f.samples = 0;
    if (cpucycles_select(&cpucycles_options[i], 1, persecond, 0, &src[i].trial) != 0) continue;
    src[i].scale = cpucycles_scale_value(&src[i].trial.scale);
    src[i].f.samples = samples_or_die();
  }
  for (r = 0; r < BENCH_ROUNDS; ++r)
    for (i = 0; i < n; ++i) {
      double *x = src[i].f.samples + r * BENCH_READS;
      if (!src[i].f.samples) continue;
      for (j = 0; j <= BENCH_READS; ++j) readings[j] = cpucycles_options[i].counter->read();
      bench_diffs(x, readings, BENCH_READS, src[i].scale, src[i].trial.only32);
      src[i].f.means[r] = bench_mean(x, BENCH_READS);
    }
  /* Given back before cpucycles() sets up its own choice, which may be one
     of these with the same file-level state. */
  for (i = 0; i < n; ++i)
    if (src[i].f.samples) {
      if (cpucycles_options[i].counter->release) cpucycles_options[i].counter->release();
      bench_summarize(src[i].f.samples, SAMPLES, &src[i].f.s);
      bench_summarize(src[i].f.means, BENCH_ROUNDS, &src[i].f.mean);
    }

  cpucycles(); /* the selection, outside the measurement */
#ifdef BENCH_FLOOR
  floor_f.samples = samples_or_die();
#endif
  api_f.samples = samples_or_die();
  for (r = 0; r < BENCH_ROUNDS; ++r) {
    double *x;
#ifdef BENCH_FLOOR
    x = floor_f.samples + r * BENCH_READS;
    for (j = 0; j <= BENCH_READS; ++j) readings[j] = bench_floor_read();
    bench_diffs(x, readings, BENCH_READS, 1.0, 0);
    floor_f.means[r] = bench_mean(x, BENCH_READS);
#endif
    x = api_f.samples + r * BENCH_READS;
    for (j = 0; j <= BENCH_READS; ++j) readings[j] = cpucycles();
    bench_diffs(x, readings, BENCH_READS, 1.0, 0);
    api_f.means[r] = bench_mean(x, BENCH_READS);
  }
#ifdef BENCH_FLOOR
  bench_summarize(floor_f.samples, SAMPLES, &floor_f.s);
  bench_summarize(floor_f.means, BENCH_ROUNDS, &floor_f.mean);
#endif
  bench_summarize(api_f.samples, SAMPLES, &api_f.s);
  bench_summarize(api_f.means, BENCH_ROUNDS, &api_f.mean);
  floor_start(&floor_run, argv + 1, argc - 1, cpucycles_implementation());
  have_first = first_calls(argv + 1, argc - 1, &first_s, &first_cpu, &runtime_s, &hot_s,
                           &hot_mean, &floor_run) == 0;
  have_floor = floor_finish(&floor_run, &floor_s) == 0 && have_first;
  if (have_floor) ratio = first_s.median / floor_s.total.median;

  cpu_model(model, sizeof model);
  if (uname(&u) != 0) strcpy(u.machine, "unknown");
  printf("libcpucycles %s bench on %s (%s), %ld CPUs online\n", cpucycles_version(), model,
         u.machine, sysconf(_SC_NPROCESSORS_ONLN));
  printf("persecond %lld, chosen %s, load average %.2f at the start\n\n", cpucycles_persecond(),
         cpucycles_implementation(), load);
  printf("back-to-back differences in cycles, %d rounds of %d per source\n"
         "(mean: the median over rounds of each round's mean difference):\n",
         BENCH_ROUNDS, BENCH_READS);
  printf("  %-24s %9s %12s\t%s\t%s\t%s\n", "source", "precision", "scaling", "median", "IQR",
         "mean");
  for (i = 0; i < n; ++i) {
    char precision[32];
    snprintf(precision, sizeof precision, "%lld", src[i].trial.precision);
    snprintf(text, sizeof text, "%f", src[i].f.samples ? src[i].scale : 0.0);
    row(src[i].name, src[i].f.samples ? precision : "-", src[i].f.samples ? text : "-",
        src[i].f.samples ? &src[i].f.s : 0, &src[i].f.mean);
  }
#ifdef BENCH_FLOOR
  row(BENCH_FLOOR " (floor)", "", "", &floor_f.s, &floor_f.mean);
#else
  printf("  %-24s no inline floor on this architecture\n", "floor");
#endif
  row("cpucycles() static", "", "", &api_f.s, &api_f.mean);
  if (have_first) {
    row("cpucycles() shared", "", "", &hot_s, &hot_mean);
    printf("\nfirst call of cpucycles() in %d fresh processes (shared library,\n"
           "timed inside each): wall (CLOCK_MONOTONIC) median ", PROCESSES);
    bench_print_figure(stdout, first_s.median);
    printf(" us, IQR ");
    bench_print_figure(stdout, first_s.iqr);
    printf(" us;\nCPU time of the thread (CLOCK_THREAD_CPUTIME_ID) median ");
    bench_print_figure(stdout, first_cpu.median);
    printf(" us, IQR ");
    bench_print_figure(stdout, first_cpu.iqr);
    printf(" us;\nbeside a runtime's fault handlers (full mask, SA_ONSTACK), each made\n"
           "after one of those: median ");
    bench_print_figure(stdout, runtime_s.median);
    printf(" us, IQR ");
    bench_print_figure(stdout, runtime_s.iqr);
    printf(" us\n");
  }
  if (have_floor) {
    printf("its floor (bench/floor.c: what a selection keeping the rules cannot\n"
           "skip), timed the same way in %d fresh processes, each run after one of\n"
           "the first call's: median ", PROCESSES);
    bench_print_figure(stdout, floor_s.total.median);
    printf(" us:\nthe guard's system calls ");
    bench_print_figure(stdout, floor_s.guard.median);
    printf(" us, the perf probe ");
    bench_print_figure(stdout, floor_s.perf.median);
    printf(" us, 1000 reads of %s ", cpucycles_implementation());
    bench_print_figure(stdout, floor_s.reads.median);
    printf(" us;\nfirst call / floor %.2f (limit %g; load average %.2f at the start)\n", ratio,
           TARGET_FIRST_RATIO, load);
  }
  printf("\n");

  printf("bench load=%.2f\n", load);
  for (i = 0; i < n; ++i) {
    if (!src[i].f.samples) {
      printf("bench counter=%s works=no\n", src[i].name);
      continue;
    }
    snprintf(text, sizeof text, "counter=%s", src[i].name);
    figure_line(text, &src[i].f.s, &src[i].f.mean, "cycles");
  }
#ifdef BENCH_FLOOR
  figure_line("floor=" BENCH_FLOOR, &floor_f.s, &floor_f.mean, "cycles");
#else
  printf("bench floor=none\n");
#endif
  snprintf(text, sizeof text, "cpucycles=%s link=static", cpucycles_implementation());
  figure_line(text, &api_f.s, &api_f.mean, "cycles");
  if (have_first) {
    snprintf(text, sizeof text, "cpucycles=%s link=shared", cpucycles_implementation());
    figure_line(text, &hot_s, &hot_mean, "cycles");
    snprintf(text, sizeof text, "firstcall link=shared processes=%d timing=inside", PROCESSES);
    figure_line(text, &first_s, 0, "microseconds");
    snprintf(text, sizeof text, "firstcall-cpu link=shared processes=%d timing=inside", PROCESSES);
    figure_line(text, &first_cpu, 0, "microseconds");
    snprintf(text, sizeof text, "firstcall-runtime link=shared processes=%d timing=inside",
             PROCESSES);
    figure_line(text, &runtime_s, 0, "microseconds");
  }
  if (have_floor) {
    snprintf(text, sizeof text, "firstcall-floor counter=%s processes=%d timing=inside",
             cpucycles_implementation(), PROCESSES);
    figure_line(text, &floor_s.total, 0, "microseconds");
    figure_line("firstcall-floor part=guard", &floor_s.guard, 0, "microseconds");
    figure_line("firstcall-floor part=perf", &floor_s.perf, 0, "microseconds");
    figure_line("firstcall-floor part=reads", &floor_s.reads, 0, "microseconds");
  }
#ifdef BENCH_FLOOR
  {
    /* The worse of the two links, on the mean: the median of a counter
       with coarse steps cannot show a difference below a step. */
    double gap = api_f.mean.median - floor_f.mean.median;
    if (have_first && hot_mean.median - floor_f.mean.median > gap)
      gap = hot_mean.median - floor_f.mean.median;
    printf("bench target=cpucycles-floor gap=");
    bench_print_figure(stdout, gap);
    printf(" limit=%g met=%s unit=cycles\n", TARGET_GAP_CYCLES,
           gap <= TARGET_GAP_CYCLES ? "yes" : "no");
  }
#endif
  if (have_first) {
    printf("bench target=firstcall median=");
    bench_print_figure(stdout, first_s.median);
    printf(" limit=%g met=%s unit=microseconds\n", TARGET_FIRST_US,
           first_s.median <= TARGET_FIRST_US ? "yes" : "no");
  }
  if (have_floor) {
    printf("bench target=firstcall-floor ratio=%.2f limit=%g met=%s load=%.2f\n", ratio,
           TARGET_FIRST_RATIO,
           ratio <= TARGET_FIRST_RATIO ? "yes" : "no", load);
  }
  return have_first && have_floor ? 0 : 1;
}
