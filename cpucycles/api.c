/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
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
/* The same for the estimate, which the selection computes only when a
   counter needs it. */
static int persecond_owner;
/* Set in the thread running either: a signal handler that interrupts it
   and calls us must not wait for itself. */
static CPUCYCLES_THREAD_LOCAL volatile int busy_here;

#define MAX_OPTIONS 64

static long long estimate(void)
{
  return cpucycles_persecond_estimate("", getenv("cpucyclespersecond"));
}

static void select_counter(void)
{
  /* Static, not on the stack: 2.5 KB there would keep a first call out of
     a signal handler on an 8 KiB alternate stack. The once below lets one
     thread of a process at a time in here, and a handler interrupting it
     is turned away (busy_here), so nobody shares it. */
  static struct cpucycles_trial trials[MAX_OPTIONS];
  struct cpucycles_persecond_source ps = { 0, estimate };
  int n = cpucycles_noptions < MAX_OPTIONS ? cpucycles_noptions : MAX_OPTIONS;
  long long (*read)(void) = zero;
  const char *name = "default-zero";
  int best, cancel;

  /* A cancellation point inside (open, read, printf) would leave every
     other thread waiting for a selection that never ends. */
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
  busy_here = 1;
  best = cpucycles_select_from(cpucycles_options, n, &ps, tracing, trials);
  if (best >= 0) {
    const struct cpucycles_trial *t = &trials[best];
    name = cpucycles_options[best].name;
    read = cpucycles_chosen(cpucycles_options[best].counter->read, t,
                            t->scaled || t->only32 ? cpucycles_persecond_of(&ps) : 0);
  }
  chosen_name = name;
  /* The selection asked for the estimate only if a counter needed it;
     otherwise cpucycles_persecond() will, on its first call. */
  if (ps.value) {
    chosen_persecond = ps.value;
    __atomic_store_n(&persecond_owner, DONE, __ATOMIC_RELEASE);
  }
  __atomic_store_n(&cpucycles, read, __ATOMIC_RELEASE);
  __atomic_store_n(&owner, DONE, __ATOMIC_RELEASE);
  busy_here = 0;
  pthread_setcancelstate(cancel, &cancel);
}

static void estimate_persecond(void)
{
  int cancel;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
  busy_here = 1;
  chosen_persecond = estimate();
  __atomic_store_n(&persecond_owner, DONE, __ATOMIC_RELEASE);
  busy_here = 0;
  pthread_setcancelstate(cancel, &cancel);
}

/* Any number of threads may arrive here at once: one runs work (which
   ends by storing DONE in *state), the others wait for it. Returns 0 only
   to a signal handler running inside this thread's own work, which must
   make do with the defaults. */
static int once(int *state, void (*work)(void))
{
  for (;;) {
    int seen = __atomic_load_n(state, __ATOMIC_ACQUIRE), me;
    if (seen == DONE) return 1;
    if (busy_here) return 0;
    me = (int)getpid();
    if (seen == me) {
      sched_yield();
      continue;
    }
    if (__atomic_compare_exchange_n(state, &seen, me, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      work();
      return 1;
    }
  }
}

static int ready(void)
{
  return once(&owner, select_counter);
}

static long long first_call(void)
{
  if (!ready()) return 0;
  return cpucycles();
}

long long cpucycles_persecond(void)
{
  if (!ready() || !once(&persecond_owner, estimate_persecond)) return CPUCYCLES_PERSECOND_DEFAULT;
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
