/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* once.c: the first call under contention. This program brings its own
   table of counters (its cpucycles_options replaces the generated one when
   linked with the static library), so it can count how often selection
   ran and hold the selection at a known point. Each scenario runs in a
   fresh child process, since a process has only one first call:
   - THREADS threads released by a barrier call all three entry points at
     once, in REPS fresh processes: exactly one selection each, every
     thread with the same counter and estimate, no reading going back;
   - a signal handler calling cpucycles() inside its own thread's
     selection gets 0, the default estimate and default-zero at once,
     rather than a deadlock;
   - a child forked by another thread mid-selection selects for itself;
   - a thread cancelled mid-selection still completes it for all. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "barrier.h"
#include "forkable.h"
#include "internal.h"
#include "stall.h"

#define THREADS 64
#define REPS check_reps(200)
#define NAME "test-clock"

static volatile int setups;       /* how many times our setup ran */
/* One selection sets the only counter up twice: its trial, then the
   winner's confirmation once the trial gave everything back. */
#define PER_SELECTION 2
static volatile int hold;         /* 1: setup waits for `release` */
static volatile int in_setup, release_setup;
static volatile pid_t holder;     /* only this process's setup holds */
static int sleep_in_setup;

static long long clock_read(void) { return cpucycles_os_ns(); }
static int clock_setup(struct cpucycles_setup *s)
{
  __atomic_add_fetch(&setups, 1, __ATOMIC_SEQ_CST);
  if (hold && getpid() == holder) {
    stall_raise(&in_setup);
    if (!stall_await(&release_setup, 10)) return -1;
  }
  if (sleep_in_setup) {
    struct timespec ts = { 0, 2000000 };
    nanosleep(&ts, 0); /* a cancellation point, and a wide window */
  }
  s->kind = CPUCYCLES_CORE;
  return 0;
}
static const struct cpucycles_counter test_clock = { clock_read, clock_setup, 0 };
const struct cpucycles_option cpucycles_options[] = { { NAME, &test_clock, 0, 0 } };
const int cpucycles_noptions = 1;
struct cpucycles_trial cpucycles_trials[1]; /* the first call's, one per counter */
int cpucycles_ntrials = 1;

/* Runs fn in a child with a deadline; its exit status (0: all held). */
static int in_child(int (*fn)(void))
{
  int status = -1;
  pid_t pid;
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    alarm(20);
    _exit(fn());
  }
  if (pid > 0) waitpid(pid, &status, 0);
  return status;
}

/* The exit code, or 256 + the signal that killed it (the alarm: a hang). */
static int exited_with(int status)
{
  return WIFEXITED(status) ? WEXITSTATUS(status) : 256 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* ---- every thread makes the first call at once ---- */

static struct barrier start;
struct seen {
  int entry; /* which function makes this thread's first call */
  const char *name;
  long long persecond;
  long long decreases;
};

static void *racer(void *arg)
{
  struct seen *s = arg;
  long long prev, now;
  int i;
  barrier_wait(&start);
  switch (s->entry % 3) {
  case 0: prev = cpucycles(); break;
  case 1: s->persecond = cpucycles_persecond(); prev = cpucycles(); break;
  default: s->name = cpucycles_implementation(); prev = cpucycles(); break;
  }
  for (i = 0; i < 1000; ++i) {
    now = cpucycles();
    s->decreases += now < prev;
    prev = now;
  }
  if (!s->name) s->name = cpucycles_implementation();
  if (!s->persecond) s->persecond = cpucycles_persecond();
  return 0;
}

/* Exit status bits: 1 selection ran other than once, 2 threads disagree
   on the counter or the estimate, 4 a decrease, 8 threads failed. */
static int race_once(void)
{
  pthread_t t[THREADS];
  struct seen s[THREADS];
  int i, bad = 0, started = 0;

  memset(s, 0, sizeof s);
  if (barrier_init(&start, THREADS) != 0) return 8;
  for (i = 0; i < THREADS; ++i) {
    s[i].entry = i;
    started += pthread_create(&t[i], 0, racer, &s[i]) == 0;
  }
  if (started != THREADS) return 8; /* the barrier would never open */
  for (i = 0; i < THREADS; ++i) pthread_join(t[i], 0);
  if (setups != PER_SELECTION) bad |= 1;
  for (i = 0; i < THREADS; ++i) {
    if (!s[i].name || strcmp(s[i].name, NAME) != 0 || s[i].persecond != s[0].persecond) bad |= 2;
    if (s[i].decreases) bad |= 4;
  }
  return bad;
}

static void race(void)
{
  int r, bits = 0, failed = 0;
  for (r = 0; r < REPS; ++r) {
    int st;
    sleep_in_setup = r % 2; /* half the time the others pile up waiting */
    st = exited_with(in_child(race_once));
    if (st) {
      ++failed;
      bits |= st;
    }
  }
  CHECK(failed == 0, "%d threads x %d processes: every first call came back (%d processes failed, bits %#x)",
        THREADS, REPS, failed, bits);
  CHECK(!(bits & 1), "exactly one selection ran in each process");
  CHECK(!(bits & 2), "every thread got the same counter and the same persecond");
  CHECK(!(bits & 4), "no thread saw its readings decrease");
}

/* ---- a signal handler calls us from inside our own selection ---- */

static volatile long long in_handler_cycles = -1, in_handler_persecond = -1;
static const char *volatile in_handler_name;
static volatile int handler_done;

static void on_usr1(int sig)
{
  (void)sig;
  in_handler_cycles = cpucycles();
  in_handler_persecond = cpucycles_persecond();
  in_handler_name = cpucycles_implementation();
  stall_raise(&handler_done);
}

static pthread_t selector;
static void *signal_selector(void *arg)
{
  (void)arg;
  if (stall_await(&in_setup, 10)) pthread_kill(selector, SIGUSR1);
  stall_await(&handler_done, 10);
  stall_raise(&release_setup);
  return 0;
}

static int reentry_once(void)
{
  pthread_t t;
  const char *name;
  int bad = 0;
  signal(SIGUSR1, on_usr1);
  hold = 1;
  holder = getpid();
  selector = pthread_self();
  pthread_create(&t, 0, signal_selector, 0);
  name = cpucycles_implementation();
  pthread_join(t, 0);
  if (!handler_done) bad |= 1;
  if (in_handler_cycles != 0 || in_handler_persecond != 2399987654LL ||
      !in_handler_name || strcmp(in_handler_name, "default-zero") != 0)
    bad |= 2;
  if (strcmp(name, NAME) != 0 || strcmp(cpucycles_implementation(), NAME) != 0) bad |= 4;
  return bad;
}

static void reentry(void)
{
  int st = exited_with(in_child(reentry_once));
  CHECK(st < 256, "a signal handler calling cpucycles() inside the selection does not deadlock (%#x)", st);
  CHECK(st == 0, "it gets 0, the default persecond and default-zero; "
        "the selection then completes with the real counter (bits %#x)", st);
}

/* ---- another thread forks while the selection is held ---- */

static volatile int grandchild_status = -1;
static struct sigaction original_segv;
static int grandchild(void)
{
  struct sigaction now;
  const char *name = cpucycles_implementation();
  int bad = 0;
  if (strcmp(name, NAME) != 0) bad |= 1;
  if (setups != 1 + PER_SELECTION) bad |= 2; /* the parent's held one, copied, plus its own */
  sigaction(SIGSEGV, 0, &now);
  /* the flags a program sets (see guard.c on the restorer flag libc adds) */
  if (now.sa_sigaction != original_segv.sa_sigaction ||
      ((now.sa_flags ^ original_segv.sa_flags) & (SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_NODEFER)))
    bad |= 4;
  return bad;
}

static void *fork_meanwhile(void *arg)
{
  (void)arg;
  if (stall_await(&in_setup, 10)) grandchild_status = in_child(grandchild);
  stall_raise(&release_setup);
  return 0;
}

static int fork_once(void)
{
  pthread_t t;
  const char *name;
  hold = 1;
  holder = getpid();
  sigaction(SIGSEGV, 0, &original_segv);
  pthread_create(&t, 0, fork_meanwhile, 0);
  name = cpucycles_implementation();
  pthread_join(t, 0);
  if (strcmp(name, NAME) != 0) return 8;
  return exited_with(grandchild_status);
}

static void fork_midway(void)
{
  int st = exited_with(in_child(fork_once));
  CHECK(st < 256, "a child forked while another thread selects does not hang (%#x)", st);
  CHECK(st == 0, "it selects for itself, gets the counter and SIGSEGV back as it was, "
        "and the parent's held selection completes (bits %#x)", st);
}

/* ---- the selecting thread is cancelled inside the selection ---- */

static void *cancelled_caller(void *arg)
{
  (void)arg;
  cpucycles();
  pthread_testcancel();
  return 0;
}

static int cancel_once(void)
{
  pthread_t t;
  void *ret = 0;
  hold = 1;
  holder = getpid();
  sleep_in_setup = 1;
  pthread_create(&t, 0, cancelled_caller, 0);
  if (!stall_await(&in_setup, 10)) return 1;
  pthread_cancel(t);
  stall_raise(&release_setup);
  pthread_join(t, &ret);
  if (strcmp(cpucycles_implementation(), NAME) != 0) return 2;
  return setups == PER_SELECTION ? 0 : 4;
}

static void cancel(void)
{
  int st = exited_with(in_child(cancel_once));
  CHECK(st == 0, "a thread cancelled during its first call still completes the selection "
        "for everyone, once (bits %#x)", st);
}

int main(void)
{
  if (fork_skipped("first-call tests")) return 0;
  race();
  reentry();
  fork_midway();
  cancel();
  return check_done();
}
