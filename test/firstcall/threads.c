/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* threads.c: the real library's first call made by many threads at once,
   released together by a barrier, in a fresh process each time. Selection
   runs once per process if the trace shows each counter tried once. Every
   thread must get the same counter, and its 10^4 readings after the call
   must never decrease. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "barrier.h"
#include "forkable.h"

#define THREADS 32
#define REPS check_reps(200)

static struct barrier start;
struct seen {
  const char *name;
  long long first, last, decreases;
};

static void *racer(void *arg)
{
  struct seen *s = arg;
  long long prev, now;
  int i;
  barrier_wait(&start);
  prev = s->first = cpucycles();
  for (i = 0; i < 10000; ++i) {
    now = cpucycles();
    s->decreases += now < prev;
    prev = now;
  }
  s->last = prev;
  s->name = cpucycles_implementation();
  return 0;
}

/* In the child, stdout is the trace file. Exit bits: 2 threads disagree
   on the counter, 4 a decrease, 8 threads could not start. */
static int race_once(void)
{
  pthread_t t[THREADS];
  struct seen s[THREADS];
  int i, bad = 0;

  memset(s, 0, sizeof s);
  cpucycles_tracesetup();
  if (barrier_init(&start, THREADS) != 0) return 8;
  for (i = 0; i < THREADS; ++i)
    if (pthread_create(&t[i], 0, racer, &s[i]) != 0) return 8;
  for (i = 0; i < THREADS; ++i) pthread_join(t[i], 0);
  for (i = 0; i < THREADS; ++i) {
    if (strcmp(s[i].name, s[0].name) != 0) bad |= 2;
    if (s[i].decreases || s[i].last < s[i].first) bad |= 4;
  }
  fflush(stdout);
  return bad;
}

/* How many lines of the file start with `prefix`. */
static int count_lines(FILE *f, const char *prefix)
{
  char line[512];
  int n = 0;
  rewind(f);
  while (fgets(line, sizeof line, f))
    n += strncmp(line, prefix, strlen(prefix)) == 0;
  return n;
}

int main(void)
{
  int r, failed = 0, bits = 0, traced_once = 0;

  if (fork_skipped("thread tests")) return 0;
  for (r = 0; r < REPS; ++r) {
    FILE *trace = tmpfile();
    int status = -1;
    pid_t pid;
    if (!trace) break;
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
      alarm(60);
      dup2(fileno(trace), 1);
      _exit(race_once());
    }
    if (pid > 0) waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      ++failed;
      bits |= WIFEXITED(status) ? WEXITSTATUS(status) : 256;
    }
    traced_once += count_lines(trace, "cpucycles tracesetup 0 ") == 1;
    fclose(trace);
  }
  CHECK(r == REPS && failed == 0, "%d threads x %d processes: every thread's first call came back "
        "(%d failed, bits %#x)", THREADS, REPS, failed, bits);
  CHECK(traced_once == REPS, "the selection ran exactly once in each process (%d of %d)", traced_once, REPS);
  CHECK(!(bits & 2), "all threads got the same counter");
  CHECK(!(bits & 4), "no thread saw a decrease over 10^4 readings");
  return check_done();
}
