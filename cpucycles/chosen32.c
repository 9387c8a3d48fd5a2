/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* chosen32.c: a 32-bit counter's extension to 64 bits, as the selection
   tests it and as the read handed out. Linked only where a counter's
   setup names it (counter.h): chosen.c and the selection reach it through
   the trial, which keeps what the setup named. */
#include "internal.h"

/* As in chosen.c: raw is written last, with release, by the selecting
   thread, before any pointer to a wrapper is published; a null seen here
   is a stale view about to clear. */
static long long (*raw)(void);
static struct cpucycles_scale factor;

/* A 32-bit counter's 64-bit count is one function of time for every
   thread: the origin (the selection's reading) plus the ticks since. Each
   reading is extended from the anchor, a recent base shared by all
   threads, with the counter's own tick rate measured at the selection.
   Whoever finds the anchor older than a quarter of a wrap moves it to the
   present, so a reading that follows other readings bridges a short gap,
   and only the first reading after the whole process was quiet leans on
   the rate over a long one (doc/selection.md says how long). No thread
   keeps state of its own: a signal handler has nothing half-updated to
   trip over, and a reading spoilt by a long stop between the counter read
   and the clock read spoils only itself. */
static struct cpucycles_extend32 origin;
static struct cpucycles_anchor anchor;
static long long tickrate;   /* the counter's ticks per second */
static long long refresh_ns; /* a quarter of a wrap */
static long long narrow_ns;  /* the widest bracket a new anchor may come from */

/* A counter reading between two clock readings close together, so the
   clock's time of the new anchor is known to a small fraction of a wrap:
   every later reading's wraps are counted from it. */
static void refresh(long long (*r)(void))
{
  struct cpucycles_extend32 current, next;
  long long before, after;

  if (!cpucycles_anchor_lock(&anchor, &current)) return;
  before = cpucycles_os_ns();
  next.last = (unsigned int)r();
  after = cpucycles_os_ns();
  next.ns = before + (after - before) / 2;
  if (after >= before && after - before <= narrow_ns && next.ns > current.ns) {
    next.value = cpucycles_extend32_at(&current, next.last, next.ns, tickrate);
    cpucycles_anchor_unlock(&anchor, &next);
  } else {
    cpucycles_anchor_unlock(&anchor, 0);
  }
}

static long long extended(void)
{
  long long (*r)(void);
  struct cpucycles_extend32 base;
  unsigned int now;
  long long ns;

  while (!(r = __atomic_load_n(&raw, __ATOMIC_ACQUIRE))) {}
  /* The base first: its reading then precedes ours, whatever held this
     thread up in between, and the gap to bridge is never negative (but
     for the few nanoseconds a processor may run the counter read early). */
  if (!cpucycles_anchor_load(&anchor, &base)) base = origin;
  now = (unsigned int)r();
  ns = cpucycles_os_ns();
  if (ns - base.ns > refresh_ns) refresh(r);
  return (long long)cpucycles_extend32_at(&base, now, ns, tickrate);
}

static long long extended_scaled(void)
{
  return cpucycles_scale_apply(&factor, extended());
}

/* The extension's state at the selection: the counter's rate, measured
   against the OS clock, and a first anchor from a narrow bracket. */
static long long (*start(long long (*read)(void), const struct cpucycles_trial *t,
                         long long persecond))(void)
{
  double f = cpucycles_scale_value(&t->scale);
  long long (*wrapper)(void) = t->scaled ? extended_scaled : extended;
  long long before, after;
  unsigned int now;
  int i;

  tickrate = cpucycles_measure_rate(read, 1);
  /* A counter that passed the selection's test but not the measurement
     keeps the estimate's rate: the anchor's refreshes still count the
     wraps right as long as some thread reads it every quarter wrap (of
     that rate) and its true rate is below twice that. */
  if (tickrate <= 0) tickrate = f > 0 ? (long long)((double)persecond / f) : persecond;
  if (tickrate < 1) tickrate = 1;
  refresh_ns = (long long)(1073741824.0 * 1e9 / (double)tickrate);
  narrow_ns = refresh_ns / 16;

  for (i = 0; i < 3; ++i) {
    before = cpucycles_os_ns();
    now = (unsigned int)read();
    after = cpucycles_os_ns();
    if (after >= before && after - before <= narrow_ns) break;
  }
  cpucycles_extend32_start(&origin, now, before + (after - before) / 2);
  cpucycles_anchor_init(&anchor, &origin);
  factor = t->scale;
  __atomic_store_n(&raw, read, __ATOMIC_RELEASE);
  return wrapper;
}

/* The selection's test of the counter: each reading extended from the
   one before, as callers would see it, at the rate the estimate and the
   counter's scale say. */
static void test_start(struct cpucycles_extend32 *e, long long (*read)(void))
{
  cpucycles_extend32_start(e, (unsigned int)read(), cpucycles_os_ns());
}

static long long test_read(struct cpucycles_extend32 *e, long long (*read)(void), long long tickrate)
{
  return cpucycles_extend32(e, (unsigned int)read(), cpucycles_os_ns(), tickrate);
}

static long long test_tickrate(const struct cpucycles_trial *t, struct cpucycles_persecond_source *ps)
{
  long long r = (long long)((double)cpucycles_persecond_of(ps) / cpucycles_scale_value(&t->scale));
  return r < 1 ? 1 : r;
}

const struct cpucycles_extension cpucycles_extension32 = {
  test_start, test_read, test_tickrate, start
};
