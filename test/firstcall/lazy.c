/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* lazy.c: the estimate of cycles per second is read only when something
   needs it. Every source of the estimate but CPUID is a file, and the
   chain always tries /etc/cpucyclespersecond first, so the files the
   library opens show when the estimate was read: this program defines
   open() itself, which the archive it links then calls, and counts.

   It brings its own table of counters (as once.c does), so both cases
   happen on any machine, each in a process of its own:
   - a cycle counter wins unscaled: the first cpucycles() and
     cpucycles_implementation() open nothing; the first
     cpucycles_persecond() reads the estimate, and gives what the chain
     gives, not a default; later calls read nothing more;
   - only a counter that ticks at another rate works: the selection needs
     the estimate to scale it, reads it once, and cpucycles_persecond()
     then reads nothing more.
   The second case is also the proof that the count sees the library's
   reads at all. */
#define _POSIX_C_SOURCE 200809L
#undef _FORTIFY_SOURCE /* its inline open() would clash with ours */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "forkable.h"
#include "internal.h"
#include <cpucycles.h>

#define ADMIN_FILE "/etc/cpucyclespersecond"

static int opened;       /* files the library opened (or tried to) */
static int admin_opened; /* of them, the chain's first source */

/* Ours replaces libc's for the library linked into this program; the
   file is then opened with openat, which we leave alone. */
int open(const char *path, int flags, ...)
{
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  ++opened;
  admin_opened += strcmp(path, ADMIN_FILE) == 0;
  return openat(AT_FDCWD, path, flags, mode);
}

/* The two counters. Which one works is set before the first call. */
static int cycles_works;
static long long ticks;
static long long cycles_read(void) { return ++ticks; }
static int cycles_setup(struct cpucycles_setup *s)
{
  if (!cycles_works) return -1;
  s->kind = CPUCYCLES_CORE;
  return 0;
}
static long long ns_read(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
static int ns_setup(struct cpucycles_setup *s)
{
  cpucycles_setup_rate(s, 1000000000);
  return 0;
}
static const struct cpucycles_counter cycles_counter = { cycles_read, cycles_setup, 0 };
static const struct cpucycles_counter ns_counter = { ns_read, ns_setup, 0 };
const struct cpucycles_option cpucycles_options[] = {
  { "lazy-cycles", &cycles_counter, 0, 0 },
  { "lazy-ns", &ns_counter, 0, 0 },
};
const int cpucycles_noptions = 2;
struct cpucycles_trial cpucycles_trials[2]; /* the first call's, one per counter */
int cpucycles_ntrials = 2;

/* What the chain says, read outside the count. */
static long long chain(void)
{
  int before = opened, admin_before = admin_opened;
  long long v = cpucycles_persecond_estimate("", getenv("cpucyclespersecond"));
  opened = before;
  admin_opened = admin_before;
  return v;
}

/* A later call: the same answer, and no file opened for it. */
static void again(long long first, int files)
{
  long long got = cpucycles_persecond();
  CHECK(got == first && opened == files,
        "the next cpucycles_persecond() gives the same (%lld) without opening a file (%d)", got,
        opened - files);
}

static void cycles_wins(void)
{
  long long t0, t1, got, expected;
  int files;

  CHECK(opened == 0, "nothing opened a file before the first call (%d)", opened);
  t0 = cpucycles();
  t1 = cpucycles();
  CHECK(t1 > t0, "cpucycles() reads the unscaled cycle counter (%lld, then %lld)", t0, t1);
  CHECK(strcmp(cpucycles_implementation(), "lazy-cycles") == 0, "and it won (%s)",
        cpucycles_implementation());
  CHECK(opened == 0, "the first cpucycles() and cpucycles_implementation() left the estimate "
        "unread: %d files opened", opened);
  got = cpucycles_persecond();
  files = opened;
  expected = chain();
  CHECK(admin_opened == 1 && files >= 1,
        "the first cpucycles_persecond() read the estimate: %s opened %d time(s), %d file(s) "
        "in all", ADMIN_FILE, admin_opened, files);
  CHECK(got == expected, "and gives the chain's %lld, not a default (%lld)", expected, got);
  again(got, files);
}

static int ns_wins(void)
{
  long long t0, t1, got, expected;
  int files;

  t0 = cpucycles();
  t1 = cpucycles();
  files = opened;
  CHECK(strcmp(cpucycles_implementation(), "lazy-ns") == 0 && t1 >= t0,
        "only the nanosecond counter works: it won (%s)", cpucycles_implementation());
  CHECK(admin_opened == 1 && files >= 1,
        "the selection, which scales it, read the estimate once: %s opened %d time(s), %d "
        "file(s) in all", ADMIN_FILE, admin_opened, files);
  got = cpucycles_persecond();
  expected = chain();
  CHECK(got == expected && opened == files,
        "cpucycles_persecond() then gives the chain's %lld (%lld) without opening a file (%d)",
        expected, got, opened - files);
  again(got, files);
  return check_failures;
}

int main(void)
{
  int status = -1;
  pid_t pid;

  if (fork_works()) {
    fflush(stdout);
    pid = fork();
    if (pid == 0) _exit(ns_wins());
    if (pid > 0) waitpid(pid, &status, 0);
    CHECK(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "the process where the selection needs the estimate ended well (status %#x)", status);
  } else {
    SKIP("a selection that needs the estimate: it runs in a child and fork() does not work "
         "here");
  }
  cycles_works = 1;
  cycles_wins();
  return check_done();
}
