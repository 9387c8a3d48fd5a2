/* api.c: the public functions and the once-only selection behind them. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#include "internal.h"
#include "../include/cpucycles.h"

#ifndef CPUCYCLES_VERSION
#define CPUCYCLES_VERSION "unknown"
#endif

static long long first_call(void);
static long long zero(void) { return 0; }

long long (*cpucycles)(void) = first_call;

/* The selection's results: written once by the selecting thread before
   owner becomes DONE, read only after. */
static const char *chosen_name = "default-zero";
static long long chosen_persecond = CPUCYCLES_PERSECOND_DEFAULT;
static int tracing;

/* 0 before the first call, DONE once the results are published, and in
   between the process id of the process whose thread is selecting. A pid
   that is not ours means we are a child forked in mid-selection: the
   selecting thread was not copied, so this process must select itself. */
#define DONE (-1)
static int owner;
/* Set in the selecting thread: a signal handler that interrupts the
   selection and calls us must not wait for itself. */
static CPUCYCLES_THREAD_LOCAL volatile int selecting_here;

#define MAX_OPTIONS 64

static void select_counter(void)
{
  struct cpucycles_trial trials[MAX_OPTIONS];
  int n = cpucycles_noptions < MAX_OPTIONS ? cpucycles_noptions : MAX_OPTIONS;
  long long (*read)(void) = zero;
  long long persecond;
  const char *name = "default-zero";
  int best, cancel;

  /* A cancellation point inside (open, read, printf) would leave every
     other thread waiting for a selection that never ends. */
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
  selecting_here = 1;
  persecond = cpucycles_persecond_estimate("", getenv("cpucyclespersecond"));
  best = cpucycles_select(cpucycles_options, n, persecond, tracing, trials);
  if (best >= 0) {
    name = cpucycles_options[best].name;
    read = cpucycles_chosen(cpucycles_options[best].counter->read, &trials[best], persecond);
  }
  chosen_name = name;
  chosen_persecond = persecond;
  __atomic_store_n(&cpucycles, read, __ATOMIC_RELEASE);
  __atomic_store_n(&owner, DONE, __ATOMIC_RELEASE);
  selecting_here = 0;
  pthread_setcancelstate(cancel, &cancel);
}

/* Any number of threads may arrive here at once: one selects, the others
   wait for it, and all leave with the same counter. Returns 0 only to a
   signal handler running inside this thread's own selection, which must
   make do with the defaults. */
static int ready(void)
{
  for (;;) {
    int seen = __atomic_load_n(&owner, __ATOMIC_ACQUIRE), me;
    if (seen == DONE) return 1;
    if (selecting_here) return 0;
    me = (int)getpid();
    if (seen == me) {
      sched_yield();
      continue;
    }
    if (__atomic_compare_exchange_n(&owner, &seen, me, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      select_counter();
      return 1;
    }
  }
}

static long long first_call(void)
{
  if (!ready()) return 0;
  return cpucycles();
}

long long cpucycles_persecond(void)
{
  if (!ready()) return CPUCYCLES_PERSECOND_DEFAULT;
  return chosen_persecond;
}

const char *cpucycles_implementation(void)
{
  if (!ready()) return "default-zero";
  return chosen_name;
}

const char *cpucycles_version(void)
{
  return CPUCYCLES_VERSION;
}

void cpucycles_tracesetup(void)
{
  if (__atomic_load_n(&owner, __ATOMIC_ACQUIRE) == 0) tracing = 1;
}
