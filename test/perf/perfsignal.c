/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* perfsignal.c: a thread's first read of a per-thread perf counter (perf.c,
   "each thread's own events") made inside a signal handler, as a
   profiler's handler makes it. That read opens the thread's events and
   must call nothing a handler may not: perf.c registers its fork handlers
   (pthread_atfork) and makes its thread-exit key (pthread_key_create) at
   load, never in a read. Checked:
   - This program defines pthread_atfork and pthread_key_create, which
     the library, linked into it as an archive and calling both directly,
     reaches; each call is counted as before main or after, and as made in
     a handler of the test or not, then passed on to libc. Before main
     the library must have made at least one of each; after main, none,
     although a thread's first read in a handler then opens its event and
     the thread's exit closes it (the key, made at load, at work). The
     old code made both in that read: this fails without luck.
   - On glibc, the key is one of the process's first 32, for which
     pthread_setspecific (in that first read) stores into a block inside
     the thread's descriptor instead of allocating one (perf.c, open_own).
   - Rounds in fresh processes, each under a 10 s alarm (child.h): one
     thread forks in a loop while another sleeps; each gets a signal whose
     handler makes its first read, first the forking one's or first the
     sleeping one's in turn. No round may hang, and none may make either
     call. A handler that lands inside fork() finds the fork's lock held by
     its own thread, where the old code's pthread_atfork waited for good;
     how many landed there is printed, and none landing in all rounds is a
     skip of this part, not a pass.
   The library's load hook, which makes both, is api.c's, as in any
   program that calls the library: main names cpucycles_version so that
   the archive's api.o is linked in.
   The events are the task clock's, a software event that needs no PMU,
   opened by the library's own code as the cycle events are (as perfown.c).
   Skipped, with the reason, where perf_event_open refuses even that, where
   fork does not work (the rounds), or where this program cannot pass the
   calls on to libc. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "child.h"
#include "cycles.h"
#include "fds.h"
#include "forkable.h"
#include "internal.h"
#include "perf.h"
#include "stall.h"

/* ---- this program's pthread_atfork and pthread_key_create ---- */

struct calls {
  int before_main, after_main, in_handler;
};
static struct calls atfork_calls, key_calls;
static volatile int main_started;
static volatile int handlers_running; /* of the test, in any thread */
/* The first key made before main: the library's. */
static pthread_key_t load_key;
static volatile int load_key_made;

static void count_call(struct calls *c)
{
  __atomic_add_fetch(main_started ? &c->after_main : &c->before_main, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&handlers_running, __ATOMIC_SEQ_CST))
    __atomic_add_fetch(&c->in_handler, 1, __ATOMIC_SEQ_CST);
}

static int (*next_key_create)(pthread_key_t *, void (*)(void *));

/* Found on the first call, which the library makes at load, or in main
   before any handler runs: dlsym is no handler's business. */
static int find_next_key_create(void)
{
  if (!next_key_create)
    next_key_create =
        (int (*)(pthread_key_t *, void (*)(void *)))dlsym(RTLD_NEXT, "pthread_key_create");
  return next_key_create != 0;
}

int pthread_key_create(pthread_key_t *key, void (*destructor)(void *))
{
  int r;
  count_call(&key_calls);
  if (!find_next_key_create()) return EAGAIN;
  r = next_key_create(key, destructor);
  if (r == 0 && !main_started && !load_key_made) {
    load_key = *key;
    load_key_made = 1;
  }
  return r;
}

#ifdef __GLIBC__
/* glibc's pthread_atfork is not in libc.so (only a compatibility symbol,
   which dlsym does not return) but a function of libc_nonshared.a linked
   into each program: it registers with the program's handle, as here. */
extern void *__dso_handle __attribute__((visibility("hidden")));
int __register_atfork(void (*)(void), void (*)(void), void (*)(void), void *);
static int find_next_atfork(void)
{
  return 1;
}
static int next_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
  return __register_atfork(prepare, parent, child, __dso_handle);
}
#else
static int (*next_atfork_fn)(void (*)(void), void (*)(void), void (*)(void));
static int find_next_atfork(void)
{
  if (!next_atfork_fn)
    next_atfork_fn = (int (*)(void (*)(void), void (*)(void), void (*)(void)))dlsym(
        RTLD_NEXT, "pthread_atfork");
  return next_atfork_fn != 0;
}
static int next_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
  return next_atfork_fn(prepare, parent, child);
}
#endif

int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
  count_call(&atfork_calls);
  if (!find_next_atfork()) return ENOMEM;
  return next_atfork(prepare, parent, child);
}

/* ---- the counter and the handler ---- */

/* The task clock, through the library's open, read, fork and exit code;
   mapped, as the counters that read in user mode map theirs. */
static CPUCYCLES_THREAD_LOCAL struct cpucycles_perf_own own;
static struct cpucycles_perf_own *mine(void) { return &own; }
static struct cpucycles_perf_owner owner = {
  PERFABI_TYPE_SOFTWARE, PERFABI_COUNT_SW_TASK_CLOCK, 0, CPUCYCLES_PERF_MAP, mine, 0, 0
};

/* What one thread's handler saw. */
struct first_read {
  volatile int ready;   /* the thread is there to be signalled (here set) */
  volatile int done;    /* its read returned */
  volatile int opened;  /* and opened the thread's event */
  volatile int in_fork; /* the handler interrupted the thread inside fork() */
};
static __thread struct first_read *here; /* the calling thread's, or none */
static __thread volatile int forking;

static void on_signal(int sig)
{
  int saved = errno;
  (void)sig;
  __atomic_add_fetch(&handlers_running, 1, __ATOMIC_SEQ_CST);
  if (here) {
    here->in_fork = forking;
    cpucycles_perf_own_count(&owner);
    here->opened = own.state == CPUCYCLES_PERF_OWN_OPEN;
  }
  __atomic_sub_fetch(&handlers_running, 1, __ATOMIC_SEQ_CST);
  if (here) stall_raise(&here->done);
  errno = saved;
}

static int catch_signal(int sig, void (*handler)(int))
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  return sigaction(sig, &sa, 0);
}

/* Whether perf_event opens the task clock for this thread here. */
static int task_clock_opens(void)
{
  int fd = perf_self_open(PERFABI_TYPE_SOFTWARE, PERFABI_COUNT_SW_TASK_CLOCK, 0, 0);
  if (fd < 0) return 0;
  close(fd);
  return 1;
}

/* ---- rounds: first reads in handlers while a thread forks ---- */

#define ROUND_SECONDS 10
/* a round's exit status: what went wrong, and what it saw */
#define ROUND_FORKER_STUCK 1
#define ROUND_SLEEPER_STUCK 2
#define ROUND_NOT_OPENED 4
#define ROUND_REGISTERED 8
#define ROUND_IN_FORK 16
#define ROUND_NO_FORK 32
#define ROUND_CANNOT_START 64

static volatile int stop, forks;
static int forker_first; /* set by main before each round's fork */

static void *forker(void *arg)
{
  here = arg;
  stall_raise(&here->ready);
  while (!stop) {
    pid_t pid;
    forking = 1;
    pid = fork();
    if (pid == 0) _exit(0);
    forking = 0;
    if (pid > 0) __atomic_add_fetch(&forks, 1, __ATOMIC_SEQ_CST);
  }
  return 0;
}

static void *sleeper(void *arg)
{
  struct timespec ms = { 0, 1000000 };
  here = arg;
  stall_raise(&here->ready);
  while (!stop) nanosleep(&ms, 0);
  return 0;
}

/* Until the forker has forked a few times, so that the signal finds it in
   its loop; 0 if it never did. */
static int await_forks(int n)
{
  double deadline = stall_now() + ROUND_SECONDS / 2;
  while (__atomic_load_n(&forks, __ATOMIC_SEQ_CST) < n) {
    if (stall_now() > deadline) return 0;
    sched_yield();
  }
  return 1;
}

/* Signals t once it is there, and waits for its handler's read (returns 0
   if it never came). */
static int first_read_of(pthread_t t, struct first_read *r)
{
  return stall_await(&r->ready, ROUND_SECONDS / 2) && pthread_kill(t, SIGUSR1) == 0 &&
         stall_await(&r->done, ROUND_SECONDS / 2);
}

static int one_round(void)
{
  struct first_read f, s;
  pthread_t tf, ts;
  int status = 0;

  memset(&f, 0, sizeof f);
  memset(&s, 0, sizeof s);
  /* the forker's children reaped by the kernel, not waited for */
  if (catch_signal(SIGCHLD, SIG_IGN) != 0 || catch_signal(SIGUSR1, on_signal) != 0 ||
      pthread_create(&tf, 0, forker, &f) != 0 || pthread_create(&ts, 0, sleeper, &s) != 0)
    return ROUND_CANNOT_START;
  if (!await_forks(3)) return ROUND_NO_FORK;
  if (forker_first) {
    if (!first_read_of(tf, &f)) return ROUND_FORKER_STUCK;
    if (!first_read_of(ts, &s)) return ROUND_SLEEPER_STUCK;
  } else {
    if (!first_read_of(ts, &s)) return ROUND_SLEEPER_STUCK;
    if (!first_read_of(tf, &f)) return ROUND_FORKER_STUCK;
  }
  stop = 1;
  pthread_join(tf, 0);
  pthread_join(ts, 0);
  if (!f.opened || !s.opened) status |= ROUND_NOT_OPENED;
  if (atfork_calls.after_main || key_calls.after_main) status |= ROUND_REGISTERED;
  if (f.in_fork) status |= ROUND_IN_FORK;
  return status;
}

static void say_round(char *out, size_t size, int status)
{
  if (status >= 256) {
    snprintf(out, size, "killed by signal %d%s", status - 256,
             status - 256 == SIGALRM ? " at its alarm: hung" : "");
    return;
  }
  snprintf(out, size, "exit %d:%s%s%s%s%s%s", status,
           status & ROUND_FORKER_STUCK ? " the forking thread's handler never returned" : "",
           status & ROUND_SLEEPER_STUCK ? " the sleeping thread's handler never returned" : "",
           status & ROUND_NOT_OPENED ? " a first read opened no event" : "",
           status & ROUND_REGISTERED ? " pthread_atfork or pthread_key_create called" : "",
           status & ROUND_NO_FORK ? " the forking thread never forked" : "",
           status & ROUND_CANNOT_START ? " could not start its threads" : "");
}

static void rounds(void)
{
  int n = check_reps(20), r, status = 0, landed = 0;
  char why[256];

  for (r = 0; r < n; ++r) {
    forker_first = r % 2 == 0;
    status = held_child(one_round, ROUND_SECONDS);
    if (status >= 256 || (status & ~ROUND_IN_FORK)) break;
    landed += (status & ROUND_IN_FORK) != 0;
  }
  if (r < n) say_round(why, sizeof why, status);
  else snprintf(why, sizeof why, "all passed");
  CHECK(r == n,
        "%d rounds, each a fresh process: first reads in handlers of a forking thread and of "
        "a sleeping one, neither hanging nor calling pthread_atfork or pthread_key_create "
        "(%d done; %s)", n, r, why);
  printf("# %d of %d rounds' signals landed inside the forking thread's fork()\n", landed, r);
  if (r == n && !landed)
    SKIP("no round's signal landed inside fork(): the rounds did not meet the interrupted "
         "fork they are for");
}

/* ---- in this process: one thread's first read in its handler ---- */

static void *signal_self(void *arg)
{
  here = arg;
  pthread_kill(pthread_self(), SIGUSR1);
  stall_await(&here->done, ROUND_SECONDS / 2);
  return 0;
}

static void first_read_here(void)
{
  struct first_read r;
  struct fds before, after;
  pthread_t t;
  int made, inherited;

  memset(&r, 0, sizeof r);
  fds_list(&before);
  made = catch_signal(SIGUSR1, on_signal) == 0 && pthread_create(&t, 0, signal_self, &r) == 0;
  if (made) pthread_join(t, 0);
  fds_list(&after);
  CHECK(made && r.done && r.opened,
        "a thread's first read, made in a signal handler, opened the thread's event");
  CHECK(atfork_calls.after_main == 0 && key_calls.after_main == 0,
        "after main: no pthread_atfork (%d calls) and no pthread_key_create (%d calls); "
        "%d and %d of them in a handler", atfork_calls.after_main, key_calls.after_main,
        atfork_calls.in_handler, key_calls.in_handler);
  CHECK(fds_new(&before, &after, &inherited) == 0,
        "the thread's event closed as it exited, by the library's thread-exit key (%d "
        "descriptors left)",
        fds_new(&before, &after, &inherited));
}

static void made_at_load(void)
{
  CHECK(atfork_calls.before_main >= 1 && key_calls.before_main >= 1,
        "before main, the library registered fork handlers (%d pthread_atfork) and made a key "
        "(%d pthread_key_create), through this program's definitions",
        atfork_calls.before_main, key_calls.before_main);
#ifdef __GLIBC__
  /* glibc's PTHREAD_KEY_2NDLEVEL_SIZE, internal: the keys whose values
     live in the thread's descriptor. */
  if (!load_key_made) CHECK(0, "glibc: a key made at load, one of the first 32: none made");
  else CHECK(load_key < 32, "glibc: the key made at load is %u, one of the first 32, whose "
             "pthread_setspecific allocates nothing", (unsigned)load_key);
#endif
}

int main(void)
{
  int found = find_next_key_create() && find_next_atfork();
  main_started = 1;
  if (!cpucycles_version()) return 1; /* api.o linked in (above); no first call */
  if (!found) {
    SKIP("perfsignal: no next pthread_key_create or pthread_atfork for this program's own to "
         "pass the library's calls on to");
    return 0;
  }
  if (!task_clock_opens()) {
    SKIP("perfsignal: perf_event_open refused the task clock, a software event, here (%s)",
         strerror(errno));
    return 0;
  }
  made_at_load();
  /* First, while this process has read nothing: each round's process
     starts as this one did. */
  if (fork_works()) rounds();
  else SKIP("perfsignal rounds: fork() does not work here (a trivial child never exited)");
  first_read_here();
  return check_done();
}
