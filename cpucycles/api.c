/* api.c: the public functions and the once-only selection behind them. */
#define _POSIX_C_SOURCE 200809L
#include <sched.h>
#include <stdlib.h>
#include "internal.h"
#include "../include/cpucycles.h"

#ifndef CPUCYCLES_VERSION
#define CPUCYCLES_VERSION "unknown"
#endif

static long long first_call(void);
static long long zero(void) { return 0; }

long long (*cpucycles)(void) = first_call;

/* The selection's results: written once by the selecting thread before
   state becomes DONE, read only after. */
enum { IDLE, SELECTING, DONE };
static int state = IDLE;
static int tracing;
static const char *chosen_name = "default-zero";
static long long chosen_persecond = CPUCYCLES_PERSECOND_DEFAULT;

#define MAX_OPTIONS 64

static void select_counter(void)
{
  struct cpucycles_trial trials[MAX_OPTIONS];
  int n = cpucycles_noptions < MAX_OPTIONS ? cpucycles_noptions : MAX_OPTIONS;
  long long (*read)(void) = zero;
  int best;

  chosen_persecond = cpucycles_persecond_estimate("", getenv("cpucyclespersecond"));
  best = cpucycles_select(cpucycles_options, n, chosen_persecond, tracing, trials);
  if (best >= 0) {
    chosen_name = cpucycles_options[best].name;
    read = cpucycles_chosen(cpucycles_options[best].counter->read, &trials[best],
                            chosen_persecond);
  }
  __atomic_store_n(&cpucycles, read, __ATOMIC_RELEASE);
}

/* Any number of threads may arrive here at once: one selects, the others
   wait for it, and all leave with the same counter. */
static void ready(void)
{
  int expected = IDLE;
  if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == DONE) return;
  if (__atomic_compare_exchange_n(&state, &expected, SELECTING, 0, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE)) {
    select_counter();
    __atomic_store_n(&state, DONE, __ATOMIC_RELEASE);
    return;
  }
  while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != DONE) sched_yield();
}

static long long first_call(void)
{
  ready();
  return cpucycles();
}

long long cpucycles_persecond(void)
{
  ready();
  return chosen_persecond;
}

const char *cpucycles_implementation(void)
{
  ready();
  return chosen_name;
}

const char *cpucycles_version(void)
{
  return CPUCYCLES_VERSION;
}

void cpucycles_tracesetup(void)
{
  if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == IDLE) tracing = 1;
}
