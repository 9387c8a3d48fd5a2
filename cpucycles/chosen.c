/* chosen.c: the read cpucycles points at, wrapped only when it must be. */
#include "internal.h"

/* Written once by the selecting thread; raw last, with release, so that a
   thread which picked up the new cpucycles pointer without synchronising
   (callers load it plainly) and then loads raw with acquire also sees
   factor, tickrate and origin. */
static long long (*raw)(void);
static struct cpucycles_scale factor;
static long long tickrate;
/* The extension as of the selection; each thread starts its own from it,
   so 32-bit counters need no lock on the hot path. */
static struct cpucycles_extend32 origin;
static CPUCYCLES_THREAD_LOCAL struct cpucycles_extend32 mine;
static CPUCYCLES_THREAD_LOCAL int mine_started;

/* raw is stored before the pointer to a wrapper is published, so a null
   here can only be a stale view that is about to clear. */
static long long (*raw_read(void))(void)
{
  long long (*r)(void);
  while (!(r = __atomic_load_n(&raw, __ATOMIC_ACQUIRE))) {}
  return r;
}

static long long scaled(void)
{
  long long (*r)(void) = raw_read();
  return cpucycles_scale_apply(&factor, r());
}

static long long extended(void)
{
  long long (*r)(void) = raw_read();
  if (!mine_started) {
    mine = origin;
    mine_started = 1;
  }
  return cpucycles_extend32(&mine, (unsigned int)r(), cpucycles_os_ns(), tickrate);
}

static long long extended_scaled(void)
{
  return cpucycles_scale_apply(&factor, extended());
}

/* Called once, before the result is published, by the selecting thread. */
long long (*cpucycles_chosen(long long (*read)(void), const struct cpucycles_trial *t,
                             long long persecond))(void)
{
  double f = cpucycles_scale_value(&t->scale);
  factor = t->scale;
  tickrate = f > 0 ? (long long)((double)persecond / f) : persecond;
  if (t->only32) cpucycles_extend32_start(&origin, (unsigned int)read(), cpucycles_os_ns());
  __atomic_store_n(&raw, read, __ATOMIC_RELEASE);
  if (t->only32) return t->scaled ? extended_scaled : extended;
  return t->scaled ? scaled : read;
}
