/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* disturb.c: after the first call, the published counter keeps counting
   while the program does what programs do next: open more cycle events
   (its own profiling, or another perf user's), start threads, fork. A
   kernel may multiplex an event out, release a register with the event
   that granted it, or hand new threads a counter in another state; none
   of that may freeze the counter or make a thread's readings go back.
   Where no cycles event opens (no PMU, perf forbidden) nothing competes
   with the library for the hardware: the checks of the events skip and
   say why; the threads and the fork are checked all the same. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "forkable.h"
#include "cycles.h"

#define EVENTS 6
#define THREADS 4
#define SECONDS 0.2

struct watch {
  long long first, last, decreases;
  long reads;
};

static long reads_wanted;

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reads the counter for SECONDS of wall-clock time, and at least
   reads_wanted times, counting decreases. */
static void watch(struct watch *w)
{
  double end = now_seconds() + SECONDS;
  long long prev = cpucycles(), now;
  long i;

  w->first = prev;
  w->decreases = 0;
  for (i = 0; i < reads_wanted || (i % 256 != 0 || now_seconds() < end); ++i) {
    now = cpucycles();
    if (now < prev) ++w->decreases;
    prev = now;
  }
  w->last = prev;
  w->reads = i;
}

static void judge(const struct watch *w, const char *what)
{
  CHECK(w->decreases == 0 && w->last > w->first,
        "%s: %ld readings increase and never decrease (%lld to %lld, %lld decreases)", what,
        w->reads, w->first, w->last, w->decreases);
}

static void *thread_main(void *arg)
{
  watch(arg);
  return 0;
}

static void threads(void)
{
  struct watch w[THREADS + 1];
  pthread_t t[THREADS];
  char what[64];
  int started[THREADS], i;

  for (i = 0; i < THREADS; ++i) started[i] = pthread_create(&t[i], 0, thread_main, &w[i]) == 0;
  watch(&w[THREADS]);
  for (i = 0; i < THREADS; ++i)
    if (started[i]) pthread_join(t[i], 0);
  for (i = 0; i < THREADS; ++i) {
    snprintf(what, sizeof what, "thread %d started after the first call", i + 1);
    if (started[i]) judge(&w[i], what);
    else CHECK(0, "%s: pthread_create", what);
  }
  judge(&w[THREADS], "the main thread while they run");
}

static void forked(void)
{
  struct watch parent, child;
  int status = -1;
  pid_t pid;

  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    watch(&child);
    /* exit bits: 1 a decrease, 2 no increase */
    _exit((child.decreases != 0) | (child.last <= child.first) << 1);
  }
  watch(&parent);
  if (pid > 0) waitpid(pid, &status, 0);
  CHECK(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
        "a child forked after the first call reads a counter that increases and never decreases "
        "(status %#x)", status);
  judge(&parent, "the parent while its child runs");
}

int main(void)
{
  struct watch w;
  int fds[EVENTS], opened = 0, first_errno = 0, i;
  const char *name;

  reads_wanted = 1000L * check_reps(200);
  name = cpucycles_implementation();
  printf("# counter %s\n", name);
  watch(&w);
  judge(&w, "after the first call");

  for (i = 0; i < EVENTS; ++i) {
    fds[i] = cycles_open(1, i % 2);
    if (fds[i] >= 0) ++opened;
    else if (!first_errno) first_errno = errno;
  }
  printf("# %d of %d cycles events opened (half of them pinned)\n", opened, EVENTS);
  /* Without an event of ours nothing competes with the library's for the
     hardware: a watch now would repeat the one above under another name. */
  if (opened) {
    watch(&w);
    judge(&w, "with more cycles events open");
  } else {
    SKIP("with more cycles events open: none of %d could be opened here (perf_event_open: %s)",
         EVENTS, strerror(first_errno));
  }
  threads();
  if (fork_works()) forked();
  else SKIP("fork after the first call: fork() does not work here");
  for (i = 0; i < EVENTS; ++i)
    if (fds[i] >= 0) close(fds[i]);
  if (opened) {
    watch(&w);
    judge(&w, "after the other cycles events are closed");
  } else {
    SKIP("after the other cycles events are closed: none was opened");
  }
  CHECK(strcmp(cpucycles_implementation(), name) == 0, "the counter is still %s", name);
  return check_done();
}
