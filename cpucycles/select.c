/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* select.c: measure each compiled counter and pick the best. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "guard.h"
#include "os.h"
#include "why.h"

#define CALLS 1000
#define TRIES 10
/* Readings enough to re-verify a winner that moves at once: what the
   confirmation catches (a counter stopped or taken away by another's
   release) shows in any number of readings, and one that moves slowly is
   read on until it moves. 16 reads of the TSC are 0.15 us here, 100 were
   1 us of a first call. */
#define VERIFY_CALLS 16

/* Reads once; a 32-bit counter goes through its own extension state so the
   test sees what callers would see. */
static long long reading(long long (*read)(void), const struct cpucycles_extension *x,
                         struct cpucycles_extend32 *e, long long tickrate)
{
  return x ? x->read(e, read, tickrate) : read();
}

/* The smallest nonzero difference between adjacent readings of a run
   that never decreases and increases at least once; 0 when all TRIES runs
   fail. A run is CALLS readings, or ends after `enough` readings once it
   has increased: the measurement wants the whole run for the smallest
   step, the re-verification of a winner only needs to see it move.
   Differences are taken as the readings arrive rather than from an array
   of them: 8 KB less stack is one or two page faults less in a first
   call, and a run that decreases is failed at once. A traced selection
   (w) keeps how the runs failed. */
static long long smallest_step(long long (*read)(void), const struct cpucycles_trial *t,
                               long long tickrate, int enough, struct cpucycles_why *w)
{
  struct cpucycles_extend32 e;
  /* the extension a 32-bit counter's setup named (counter.h) */
  const struct cpucycles_extension *x = t->extension;
  int try, i;

  if (t->only32 && !x) return 0;
  for (try = 0; try < TRIES; ++try) {
    long long step = 0, previous, now, d;
    int ok = 1;
    if (x) x->start(&e, read);
    now = previous = reading(read, x, &e, tickrate);
    for (i = 1; i < CALLS && !(i >= enough && step > 0); ++i) {
      now = reading(read, x, &e, tickrate);
      d = now - previous;
      if (d < 0) {
        ok = 0;
        break;
      }
      if (d > 0 && (step == 0 || d < step)) step = d;
      previous = now;
    }
    if (ok && step > 0) return step;
    if (w) {
      w->stage = CPUCYCLES_WHY_READINGS;
      if (!ok) ++w->decreased;
      else ++w->frozen;
      /* a decrease's two readings, else the value a run stood at */
      if (!ok || !w->decreased) {
        w->reading[0] = previous;
        w->reading[1] = now;
      }
    }
  }
  return 0;
}

static int penalty(enum cpucycles_kind kind)
{
  switch (kind) {
  case CPUCYCLES_CORE: return 0;
  case CPUCYCLES_OSCLOCK: return CPUCYCLES_PENALTY_OSCLOCK;
  default: return CPUCYCLES_PENALTY_OFFCORE;
  }
}

/* The rate a 32-bit counter ticks at, for its extension; 0 for others,
   which need none. */
static long long tickrate_of(const struct cpucycles_trial *t, struct cpucycles_persecond_source *ps)
{
  const struct cpucycles_extension *x = t->extension;
  return x ? x->tickrate(t, ps) : 0;
}

/* The margin by which a later counter must beat the best so far: 32
   cycles, or a quarter of the best's precision when that is more. The
   smallest step of one counter varies between runs (the TSC of a 2-core
   EPYC VM measured 1 or 26 cycles, so 101 or 126 with its penalty), and
   two ways of reading the same counter must not swap places with it. The
   margin stays below the 100 cycles that separate the kinds, so a core
   counter (20-40 cycles) still beats an off-core one (100 + 20-40), and
   that one an OS clock (200 + its step). */
#define CLEAR_MARGIN_CYCLES 32
#define CLEAR_MARGIN_SHARE 4

/* Whether a counter of this precision takes the place of the best so far
   (best 0: none yet). Counters come in the documented order, so a near
   tie, or noise, always keeps the earlier one. */
static int replaces_best(long long precision, long long best)
{
  long long margin = best / CLEAR_MARGIN_SHARE;
  if (precision <= 0) return 0;
  if (best <= 0) return 1;
  if (margin < CLEAR_MARGIN_CYCLES) margin = CLEAR_MARGIN_CYCLES;
  return precision < best - margin;
}

/* A traced selection's record of a refusal, a fault or a rate (why.h),
   from what the trial saw. */
__attribute__((cold)) static void why_setup(struct cpucycles_why *w, int stage,
                                           const struct cpucycles_setup *s)
{
  w->stage = (unsigned char)stage;
  w->refusal = s->refusal;
  w->access = s->access;
  memcpy(w->seen, s->seen, sizeof w->seen);
}

__attribute__((cold)) static void why_fault(struct cpucycles_why *w,
                                           const struct cpucycles_setup *s, int in_setup)
{
  why_setup(w, CPUCYCLES_WHY_FAULT, s);
  w->signal = (unsigned char)cpucycles_guard_signal;
  w->in_setup = (unsigned char)in_setup;
}

__attribute__((cold)) static void why_rate(struct cpucycles_why *w, long long hz, int stated,
                                          struct cpucycles_persecond_source *ps)
{
  w->stage = CPUCYCLES_WHY_RATE;
  w->stated = (unsigned char)stated;
  w->reading[0] = hz;
  w->reading[1] = hz > 0 ? cpucycles_persecond_of(ps) : 0;
}

/* Everything after the guard point may fault: setup may probe a privileged
   instruction and every read may trap. A fault lands back here with the
   trial marked as failed. t arrives zeroed. A counter that could not
   replace beat (the best so far; 0: none) even at the smallest precision
   its kind allows, one cycle plus its penalty, cannot win: it is set up,
   to learn its kind, but not measured, and marked unmeasured. A traced
   selection gives w, zeroed, for what made the counter fail. s, for the
   setup, is the caller's: a local of this function that setup changed
   before a fault jumped back would be indeterminate after the jump (C99
   7.13.2.1; clang reads it as the memset left it), and a traced fault's
   account needs what setup wrote there. */
static void trial(const struct cpucycles_counter *c, struct cpucycles_persecond_source *ps,
                  long long beat_given, struct cpucycles_trial *t, struct cpucycles_why *w,
                  struct cpucycles_setup *s)
{
  long long step, hz = 0;
  /* In memory, not a register: gcc for 32-bit PA-RISC warns that a
     register-held long long parameter may be clobbered by the jump back
     (-Wclobbered), though no path reads it after one. */
  volatile long long beat = beat_given;

  memset(s, 0, sizeof *s);
  /* Saving the mask here would cost a system call per counter; after a
     fault, whose handler may have run with more signals blocked than the
     probe had, the guard puts back the mask it set for the selection. */
  if (CPUCYCLES_GUARD_SETJMP()) {
    cpucycles_guard_armed = 0;
    cpucycles_guard_remask();
    t->precision = 0;
    if (w) why_fault(w, s, !t->setup_done);
    return;
  }
  cpucycles_guard_armed = 1;
  if (c->setup(s) != 0) {
    if (w) why_setup(w, CPUCYCLES_WHY_REFUSED, s);
    goto done;
  }
  t->setup_done = 1;
  t->kind = (int)s->kind;
  t->only32 = s->only32 != 0;
  t->extension = s->extension;
  if (beat > 0 && !replaces_best(1 + penalty(s->kind), beat)) {
    t->unmeasured = 1;
    goto done;
  }

  switch (s->kind) {
  case CPUCYCLES_CORE:
  case CPUCYCLES_OFFCORE:
    t->scale.whole = 1;
    break;
  case CPUCYCLES_RATE:
  case CPUCYCLES_OSCLOCK:
    if (s->hz <= 0 ||
        cpucycles_scale_from_ratio(&t->scale, (double)cpucycles_persecond_of(ps) / (double)s->hz)) {
      if (w) why_rate(w, s->hz, 1, ps);
      goto done;
    }
    break;
  case CPUCYCLES_UNKNOWN_RATE:
    /* through what setup named (counter.h), linked only where some does */
    if (!s->measure || s->measure(&t->scale, c->read, t->only32, ps, &hz)) {
      if (w) why_rate(w, hz, 0, ps);
      goto done;
    }
    break;
  default:
    goto done;
  }
  t->scaled = !(t->scale.whole == 1 && t->scale.frac == 0);

  step = smallest_step(c->read, t, tickrate_of(t, ps), CALLS, w);
  if (step > 0) {
    long long cycles = cpucycles_scale_apply(&t->scale, step);
    if (cycles < 1) cycles = 1;
    t->precision = cycles + penalty(s->kind);
  }
done:
  cpucycles_guard_armed = 0;
}

/* The winner of the trials, set up again after every other counter has
   given back what it took, and read until it moves, under the guard: a
   counter that passed only thanks to another's setup (an open perf event
   granting an instruction) fails here. It must describe itself as in its
   trial, whose scale is kept. Returns 1 with the counter set up, or 0
   with nothing held. A traced selection gives w, for why it failed here;
   s is the caller's, as for trial. */
static int confirm(const struct cpucycles_counter *c, const struct cpucycles_trial *t,
                   struct cpucycles_persecond_source *ps, struct cpucycles_why *w,
                   struct cpucycles_setup *s)
{
  /* volatile: read after a jump back from the handler */
  volatile int held = 0;

  memset(s, 0, sizeof *s);
  if (w) {
    memset(w, 0, sizeof *w);
    w->confirming = t->precision;
  }
  if (CPUCYCLES_GUARD_SETJMP()) {
    cpucycles_guard_armed = 0;
    cpucycles_guard_remask();
    if (w) why_fault(w, s, !held);
    if (held && c->release) c->release();
    return 0;
  }
  cpucycles_guard_armed = 1;
  if (c->setup(s) == 0) {
    held = 1;
    if ((int)s->kind != t->kind || (s->only32 != 0) != t->only32 || s->extension != t->extension) {
      if (w) {
        w->stage = CPUCYCLES_WHY_KIND;
        w->seen[0] = t->kind;
        w->seen[1] = (int)s->kind;
      }
    } else if (smallest_step(c->read, t, tickrate_of(t, ps), VERIFY_CALLS, w) > 0) {
      cpucycles_guard_armed = 0;
      return 1;
    }
  } else if (w) {
    why_setup(w, CPUCYCLES_WHY_REFUSED, s);
  }
  cpucycles_guard_armed = 0;
  if (held && c->release) c->release();
  return 0;
}

/* The choice among the trials, by the rule of the first pass: in order,
   a counter replaces the best so far only when clearly better; -1 when
   none worked. */
static int choose(const struct cpucycles_trial *trials, int n)
{
  int i, best = -1;
  for (i = 0; i < n; ++i)
    if (replaces_best(trials[i].precision, best < 0 ? 0 : trials[best].precision)) best = i;
  return best;
}

int cpucycles_select(const struct cpucycles_option *options, int n, long long persecond,
                     int trace, struct cpucycles_trial *trials)
{
  struct cpucycles_persecond_source ps = { persecond, 0 };
  return cpucycles_select_from(options, n, &ps, trace, trials, 0);
}

/* Tries counter i alone: whatever its setup took is given back before the
   next counter is tried, so no trial passes on another's resources. A
   traced selection keeps in w why it failed. */
static void try_alone(const struct cpucycles_option *o, struct cpucycles_persecond_source *ps,
                      long long beat, int guarded, struct cpucycles_trial *t,
                      struct cpucycles_why *w)
{
  struct cpucycles_setup s;
  memset(t, 0, sizeof *t);
  if (w) memset(w, 0, sizeof *w);
  /* Its kind, from the table, already says it cannot win: no setup, so
     nothing of it runs (no file, no system call, no libc function). Only
     a penalty says so: a core counter's 0 is also what a table that does
     not say gives, and such a counter is set up to learn its kind. */
  if (beat > 0 && o->penalty > 0 && !replaces_best(1 + (long long)o->penalty, beat)) {
    t->unmeasured = 1;
    return;
  }
  /* Without a guard a faulting probe would kill the caller: only the
     counters that cannot fault (those the OS reads) are tried then. */
  if (guarded || o->cannot_fault) trial(o->counter, ps, beat, t, w, &s);
  else if (w) w->stage = CPUCYCLES_WHY_UNGUARDED;
  if (t->precision == 0) memset(&t->scale, 0, sizeof t->scale);
  if (t->setup_done && o->counter->release) o->counter->release();
}

/* whys: one record a counter when traced with reasons (null otherwise),
   root the prefix of the files the OS's settings are read from, thread
   the calling thread's id for the guard (0: asked). */
static int select_all(const struct cpucycles_option *options, int n,
                      struct cpucycles_persecond_source *ps, int trace,
                      struct cpucycles_trial *trials, struct cpucycles_why *whys, const char *root,
                      long thread)
{
  struct cpucycles_setup s; /* the confirmation's */
  int i, best = -1;
  int guarded = cpucycles_guard_begin(thread) == 0;

  for (i = 0; i < n; ++i) {
    /* A trace shows every counter's precision, so it measures them all;
       otherwise the counters that cannot win are skipped, which leaves
       the choice as it would be and spares a first call the 1000-call
       tests of OS clocks that a cycle counter has already beaten. */
    long long beat = trace || best < 0 ? 0 : trials[best].precision;
    try_alone(&options[i], ps, beat, guarded, &trials[i], whys ? &whys[i] : 0);
    /* what the settings say at the moment it failed */
    if (whys && !trials[i].precision) cpucycles_os_why(root, &whys[i]);
    if (replaces_best(trials[i].precision, best < 0 ? 0 : trials[best].precision)) best = i;
  }

  /* The winner alone, set up afresh; one that fails now is out, with
     precision 0, and the next best is taken the same way. The counters
     left unmeasured because the failed one beat them may be next, so
     they are measured first. */
  while (best >= 0 &&
         !confirm(options[best].counter, &trials[best], ps, whys ? &whys[best] : 0, &s)) {
    trials[best].precision = 0;
    memset(&trials[best].scale, 0, sizeof trials[best].scale);
    if (whys) cpucycles_os_why(root, &whys[best]);
    for (i = 0; i < n; ++i)
      if (trials[i].unmeasured) try_alone(&options[i], ps, 0, guarded, &trials[i], 0);
    best = choose(trials, n);
  }
  if (guarded) cpucycles_guard_end();

  /* Printed once the choice is final, so that the implementation is
     always the one the rule picks from the traced precisions. Then why
     each that did not work failed, after the upstream lines, which
     scripts parse. */
  if (trace) {
    for (i = 0; i < n; ++i)
      printf("cpucycles tracesetup %d %s precision %lld scaling %f only32 %d\n", i,
             options[i].name, trials[i].precision,
             trials[i].precision ? cpucycles_scale_value(&trials[i].scale) : 0.0,
             trials[i].precision ? trials[i].only32 : 0);
    for (i = 0; whys && i < n; ++i)
      if (!trials[i].precision) cpucycles_why_print(options[i].name, &whys[i]);
    fflush(NULL); /* stdout, without a symbol bound at load for it */
  }
  return best;
}

int cpucycles_select_from(const struct cpucycles_option *options, int n,
                          struct cpucycles_persecond_source *ps, int trace,
                          struct cpucycles_trial *trials, long thread)
{
  return select_all(options, n, ps, trace, trials, 0, "", thread);
}

int cpucycles_select_why(const struct cpucycles_option *options, int n,
                         struct cpucycles_persecond_source *ps, struct cpucycles_trial *trials,
                         struct cpucycles_why *whys, const char *root, long thread)
{
  return select_all(options, n, ps, 1, trials, whys, root, thread);
}
