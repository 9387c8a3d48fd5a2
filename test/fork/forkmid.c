/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* forkmid.c: a child forked by another thread while the selection has its
   signal guard up ends with exactly the dispositions the program had, and
   the forking thread's mask; the kernel copies the guard's handlers into
   it, and the selecting thread, which would give them back, is not copied.

   First with the guard held up by a counter whose setup waits while the
   other thread forks again and again; then around real first calls, each
   in a fresh process, with a thread forking all through them. Every child
   checks itself at once and says so in its exit status. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "forkable.h"
#include "internal.h"
#include "sigcmp.h"
#include "probe.h"
#include "stall.h"

#define PERSECOND 2400000000LL
#define HELD_FORKS 20
#define PROCESSES 20

static const int faults[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };
static struct sigaction program[4]; /* the program's dispositions */

static void on_ill(int sig) { (void)sig; }
static void on_segv(int sig, siginfo_t *info, void *ctx) { (void)sig; (void)info; (void)ctx; }

/* Four different dispositions: a plain handler, ignored, the default, and
   an SA_SIGINFO handler with flags and a mask. SIGUSR2 blocked. */
static void set_program_state(void)
{
  struct sigaction sa;
  sigset_t block;
  int i;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = on_ill;
  sigaction(SIGILL, &sa, 0);
  sa.sa_handler = SIG_IGN;
  sigaction(SIGFPE, &sa, 0);
  sa.sa_handler = SIG_DFL;
  sigaction(SIGBUS, &sa, 0);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  sigaddset(&sa.sa_mask, SIGUSR1);
  sigaction(SIGSEGV, &sa, 0);
  for (i = 0; i < 4; ++i) sigaction(faults[i], 0, &program[i]);
  sigemptyset(&block);
  sigaddset(&block, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &block, 0);
}

/* 1 if the library's handler is installed for SIGSEGV right now. */
static int guard_showing(void)
{
  struct sigaction now;
  sigaction(SIGSEGV, 0, &now);
  return !same_action(&now, &program[3]);
}

/* One fork from the calling thread. The child compares its dispositions
   with the program's and its mask with this thread's, and exits 0 if all
   match. Returns 1 for a good child; *inside set when the guard was up
   both just before and just after the fork, so surely all through it. */
static int fork_and_check(int *inside)
{
  sigset_t mine;
  int before, after, status = -1;
  pid_t pid;

  pthread_sigmask(SIG_BLOCK, 0, &mine);
  before = guard_showing();
  pid = fork();
  if (pid == 0) {
    struct sigaction now;
    sigset_t mask;
    int i, bad = 0;
    for (i = 0; i < 4; ++i) {
      sigaction(faults[i], 0, &now);
      if (!same_action(&now, &program[i])) bad |= 1;
    }
    pthread_sigmask(SIG_BLOCK, 0, &mask);
    if (!same_set(&mask, &mine)) bad |= 2;
    _exit(bad);
  }
  after = guard_showing();
  if (pid < 0) return 0;
  waitpid(pid, &status, 0);
  *inside = before && after;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Part one: the selection held inside a guarded setup (probe.h). */
static int held_good, held_inside;

static void *fork_while_held(void *arg)
{
  int i, inside;
  (void)arg;
  if (stall_await(&probe_in, 30))
    for (i = 0; i < HELD_FORKS; ++i) {
      held_good += fork_and_check(&inside);
      held_inside += inside;
    }
  stall_raise(&probe_done);
  return 0;
}

static void held_guard(void)
{
  struct cpucycles_trial t[1];
  pthread_t forker;
  probe_wait = 30; /* all HELD_FORKS forks and their children happen inside the hold */
  pthread_create(&forker, 0, fork_while_held, 0);
  cpucycles_select(probe_table, 1, PERSECOND, 0, t);
  pthread_join(forker, 0);
  CHECK(held_inside == HELD_FORKS, "%d forks while the guard was held up (%d)", HELD_FORKS, held_inside);
  CHECK(held_good == HELD_FORKS,
        "each child had the program's four dispositions and the forking thread's mask (%d of %d)",
        held_good, HELD_FORKS);
}

/* Part two: selections one after another, each measuring a clock slowed
   to 1 us a read (about 1 ms a selection), while the other thread forks
   without pause: forks fall before, inside and across the guard's edges.
   There are SELECTIONS of them at least, more until INSIDE forks fell
   wholly inside a guard (an emulator forks slowly), for 60 s at most. */
#define SELECTIONS 20
#define INSIDE 10
static volatile int stop, forks_started;
static int run_good, run_total, run_inside;

static long long slow_read(void)
{
  long long t = cpucycles_os_ns();
  while (cpucycles_os_ns() - t < 1000) {}
  return cpucycles_os_ns();
}
static int slow_setup(struct cpucycles_setup *s)
{
  s->kind = CPUCYCLES_OSCLOCK;
  s->hz = 1000000000;
  return 0;
}
static const struct cpucycles_counter slow = { slow_read, slow_setup, 0 };
static const struct cpucycles_option slow_table[1] = { { "slow", &slow, 0, 0 } };

static void *fork_until_stopped(void *arg)
{
  int inside;
  (void)arg;
  while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
    run_good += fork_and_check(&inside);
    __atomic_add_fetch(&run_inside, inside, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&run_total, 1, __ATOMIC_SEQ_CST);
    stall_raise(&forks_started);
  }
  return 0;
}

static void start_forking(pthread_t *forker)
{
  stop = forks_started = 0;
  run_good = run_total = run_inside = 0;
  pthread_create(forker, 0, fork_until_stopped, 0);
  stall_await(&forks_started, 30);
}

/* A few forks more after the last selection, then the thread stops. */
static void stop_forking(pthread_t forker)
{
  int until = __atomic_load_n(&run_total, __ATOMIC_SEQ_CST) + 3;
  while (__atomic_load_n(&run_total, __ATOMIC_SEQ_CST) < until) sched_yield();
  __atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
  pthread_join(forker, 0);
}

static void slow_selections(void)
{
  struct cpucycles_trial t[1];
  pthread_t forker;
  int selections = 0, chosen = 0;
  double deadline = stall_now() + 60;
  start_forking(&forker);
  while ((selections < SELECTIONS || __atomic_load_n(&run_inside, __ATOMIC_SEQ_CST) < INSIDE) &&
         stall_now() < deadline) {
    chosen += cpucycles_select(slow_table, 1, PERSECOND, 0, t) == 0;
    ++selections;
  }
  stop_forking(forker);
  CHECK(chosen == selections && selections >= SELECTIONS,
        "%d slow selections, each choosing its clock (%d)", selections, chosen);
  CHECK(run_inside >= INSIDE, "%d forks fell wholly inside their guards (%d wanted)", run_inside, INSIDE);
  CHECK(run_good == run_total,
        "each of the %d children forked around them had the program's dispositions and the forking "
        "thread's mask (%d good)", run_total, run_good);
}

/* Part three: real first calls, each in a fresh process, forked around.
   A first call takes some 50 us here, less than a fork, so few forks
   overlap it; what counts is that none goes wrong. */
/* In a fresh process: its figures to fd, then exit. */
static void first_call_forked_around(int fd)
{
  pthread_t forker;
  int counts[3];
  start_forking(&forker);
  (void)cpucycles();
  stop_forking(forker);
  counts[0] = run_good;
  counts[1] = run_total;
  counts[2] = run_inside;
  _exit(write(fd, counts, sizeof counts) == (ssize_t)sizeof counts ? 0 : 1);
}

static void real_first_calls(void)
{
  int p, good = 0, total = 0, inside = 0, done = 0;
  for (p = 0; p < PROCESSES; ++p) {
    int fds[2], counts[3], status = -1;
    pid_t pid;
    if (pipe(fds) != 0) break;
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
      close(fds[0]);
      alarm(60);
      first_call_forked_around(fds[1]);
    }
    close(fds[1]);
    if (pid > 0 && read(fds[0], counts, sizeof counts) == (ssize_t)sizeof counts) {
      good += counts[0];
      total += counts[1];
      inside += counts[2];
      ++done;
    }
    close(fds[0]);
    if (pid > 0) waitpid(pid, &status, 0);
  }
  CHECK(done == PROCESSES, "%d processes forked all through their first call (%d reported)",
        PROCESSES, done);
  CHECK(good == total && total > 0,
        "each of their %d children had the program's dispositions and mask (%d good)", total, good);
  printf("# %d of those forks fell wholly inside a first call's guard\n", inside);
}

int main(void)
{
  if (fork_skipped("fork in mid-selection tests")) return 0;
  set_program_state();
  held_guard();
  slow_selections();
  real_first_calls();
  return check_done();
}
