/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* chosen.c: the read cpucycles points at, wrapped only when it must be. */
#include "internal.h"

/* Written once by the selecting thread; raw last, with release, so that a
   thread which picked up the new cpucycles pointer without synchronising
   (callers load it plainly) and then loads raw with acquire also sees
   everything else written here. */
static long long (*raw)(void);
static struct cpucycles_scale factor;

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

/* Called once, before the result is published, by the selecting thread.
   A 32-bit counter's setup named its extension (counter.h), which wraps
   it (chosen32.c). */
long long (*cpucycles_chosen(long long (*read)(void), const struct cpucycles_trial *t,
                             long long persecond))(void)
{
  const struct cpucycles_extension *x = t->extension;

  if (x) return x->chosen(read, t, persecond);
  factor = t->scale;
  __atomic_store_n(&raw, read, __ATOMIC_RELEASE);
  return t->scaled ? scaled : read;
}
