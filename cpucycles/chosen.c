/* chosen.c: the read cpucycles points at, wrapped only when it must be. */
#include "internal.h"

static long long (*raw)(void);
static struct cpucycles_scale factor;
static long long tickrate;
/* The extension as of the selection; each thread starts its own from it,
   so 32-bit counters need no lock on the hot path. initial-exec keeps the
   thread-local access free of __tls_get_addr, so the library needs only
   libc, not the dynamic loader. */
#define THREAD_LOCAL __thread __attribute__((tls_model("initial-exec")))
static struct cpucycles_extend32 origin;
static THREAD_LOCAL struct cpucycles_extend32 mine;
static THREAD_LOCAL int mine_started;

static long long scaled(void)
{
  return cpucycles_scale_apply(&factor, raw());
}

static long long extended(void)
{
  if (!mine_started) {
    mine = origin;
    mine_started = 1;
  }
  return cpucycles_extend32(&mine, (unsigned int)raw(), cpucycles_os_ns(), tickrate);
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
  raw = read;
  factor = t->scale;
  tickrate = f > 0 ? (long long)((double)persecond / f) : persecond;
  if (t->only32) {
    cpucycles_extend32_start(&origin, (unsigned int)read(), cpucycles_os_ns());
    return t->scaled ? extended_scaled : extended;
  }
  return t->scaled ? scaled : read;
}
