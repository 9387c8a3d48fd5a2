/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* held.h: the tests of issue 18 bring their own table of one counter (it
   replaces the generated one when linked with the internal archive), so
   they know what the first call selects, how often it set the counter
   up, and can hold its first setup at a known point: in the thread that
   set hold_here, the first setup raises in_setup and waits (10 s at
   most) for release_setup. Each scenario runs in a fresh child process,
   since a process has only one first call. */
#ifndef HELD_H
#define HELD_H
#include <signal.h>
#include <cpucycles.h>
#include "child.h"
#include "internal.h"
#include "stall.h"

#define HELD_NAME "test-held"
/* One selection sets the counter up twice: its trial, then the winner's
   confirmation. */
#define HELD_SETUPS 2

static volatile int setups, in_setup, release_setup;
static __thread int hold_here;

/* The selecting thread's last reading of the counter: its selection
   ends with the guard's end and the publication right after. */
static __thread int selecting_thread;
static volatile long long selector_read_ns;
static long long held_read(void)
{
  long long t = cpucycles_os_ns();
  if (selecting_thread) selector_read_ns = t;
  return t;
}
static int held_setup(struct cpucycles_setup *s)
{
  __atomic_add_fetch(&setups, 1, __ATOMIC_SEQ_CST);
  if (hold_here) {
    hold_here = 0;
    stall_raise(&in_setup);
    if (!stall_await(&release_setup, 10)) return -1;
  }
  s->kind = CPUCYCLES_CORE;
  return 0;
}
static const struct cpucycles_counter held_counter = { held_read, held_setup, 0 };
const struct cpucycles_option cpucycles_options[] = { { HELD_NAME, &held_counter, 0, 0 } };
const int cpucycles_noptions = 1;
struct cpucycles_trial cpucycles_trials[1]; /* the first call's, one per counter */
int cpucycles_ntrials = 1;

/* A thread that makes the first call, held in its first setup. */
__attribute__((unused)) static void *held_first_call(void *arg)
{
  (void)arg;
  hold_here = selecting_thread = 1;
  cpucycles();
  return 0;
}
#endif
