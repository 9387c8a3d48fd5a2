/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* handlers.c: a signal handler that calls the library while its own
   thread is making the first call, at any instant of it (before the
   claim, between the claim and the selection, inside it, while
   publishing), gets an answer at once, and the readings that thread sees
   never decrease. A second thread sends SIGPROF to the caller every few
   microseconds, as a profiler's timer would, through many fresh first
   calls; each child must finish within its deadline (10 s). The handler
   calls all three entry points; every one must get an answer, none may
   change errno, and the selection must run once and choose the counter. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <cpucycles.h>
#include "check.h"
#include "forkable.h"
#include "held.h"

#define REPS check_reps(200)

static pthread_t caller;
static volatile int stop, go;
static volatile int raw_ticks, ticks, bad_answer, spoiled_errno, handler_decrease;
static volatile long long handler_last;

static void on_tick(int sig)
{
  long long c, ps;
  const char *name;
  int interrupted_errno = errno;
  (void)sig;
  ++raw_ticks;
  /* Not before the caller is about to call: a handler would make the
     first call itself, with the signal blocked while it runs. */
  if (!go) return;
  errno = 0;
  c = cpucycles();
  ps = cpucycles_persecond();
  name = cpucycles_implementation();
  if (errno) spoiled_errno = 1;
  ++ticks;
  if (ps <= 0 || !name) bad_answer = 1;
  if (c < handler_last) handler_decrease = 1;
  handler_last = c;
  errno = interrupted_errno;
}

/* A pause of about ns nanoseconds without a system call: nanosleep would
   sleep for tens of microseconds. */
static void spin(long long ns)
{
  long long end = cpucycles_os_ns() + ns;
  while (cpucycles_os_ns() < end) {}
}

static void *ticker(void *arg)
{
  (void)arg;
  while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
    pthread_kill(caller, SIGPROF);
    spin(3000);
  }
  return 0;
}

static int rep_index;

/* Exit bits: 1 a handler got no answer, 2 readings decreased, 4 the
   selection did not pick the table's counter or ran more than once, 8
   no tick arrived, 16 setup trouble, 32 a call changed errno. */
static int one_first_call(void)
{
  struct sigaction sa;
  pthread_t t;
  sigset_t prof;
  long long after;
  const char *name;
  int bad = 0;

  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_tick;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGPROF, &sa, 0) != 0) return 16;
  caller = pthread_self();
  if (pthread_create(&t, 0, ticker, 0) != 0) return 16;
  while (raw_ticks < 2) spin(1000); /* the ticker is running (the alarm ends a wait for nothing) */
  spin((rep_index * 977) % 20000); /* the first call starts at varying phases of the ticks */
  go = 1;
  switch (rep_index % 3) {
  case 0: cpucycles(); break;
  case 1: cpucycles_persecond(); break;
  default: cpucycles_implementation(); break;
  }
  while (ticks < 3) spin(1000); /* ticks after the first call too, with real readings */
  sigemptyset(&prof);
  sigaddset(&prof, SIGPROF);
  pthread_sigmask(SIG_BLOCK, &prof, 0);
  __atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
  pthread_join(t, 0);
  after = cpucycles();
  name = cpucycles_implementation();
  if (bad_answer) bad |= 1;
  if (handler_decrease || handler_last > after) bad |= 2;
  if (strcmp(name, HELD_NAME) != 0 || setups != HELD_SETUPS) bad |= 4;
  if (!ticks) bad |= 8;
  if (spoiled_errno) bad |= 32;
  return bad;
}

int main(void)
{
  int r, failed = 0, bits = 0, hung = 0;
  if (fork_skipped("handlers")) return 0;
  for (r = 0; r < REPS; ++r) {
    int st;
    rep_index = r;
    st = held_child(one_first_call, 10);
    if (st >= 256) {
      hung = 1;
      break; /* each more would cost the deadline */
    }
    if (st) {
      ++failed;
      bits |= st;
    }
  }
  CHECK(!hung, "a handler calling the library during its own thread's first call never hangs it "
        "(%d tries)", r);
  CHECK(failed == 0, "%d fresh first calls under a SIGPROF every ~3 us: %d failed (bits %#x)", r, failed, bits);
  CHECK(!(bits & 1), "every handler got an answer");
  CHECK(!(bits & 2), "readings in the thread, handlers' and its own, never decreased");
  CHECK(!(bits & 4), "the selection ran once and chose the counter");
  CHECK(!(bits & 32), "no call in a handler changed errno");
  return check_done();
}
