/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* anchor.c: one recent moment of a 32-bit counter's extension, shared by
   every thread without a lock on the reading side.

   The moment is five 32-bit words: 64-bit atomics are not lock-free on
   every 32-bit host (ppc32, some arm32 and mips), and a lock would not be
   async-signal-safe. The words live in two slots. Readers use the slot
   seq points at and check afterwards that seq did not move; a writer
   fills the other slot and only then moves seq to it. So a signal handler
   that interrupts a writer of its own thread still finds a complete slot
   and an unchanging seq: it never has to wait for code that cannot run
   until it returns. Writers take turns through a flag that they try
   once and never wait for. Every shared word is accessed atomically,
   relaxed where the fences and seq order them. */
#define _POSIX_C_SOURCE 200809L
#ifdef _WIN32
/* KERNEL32's: the C runtimes differ in what they call getpid (zig's
   arm64 one has neither it nor _getpid). Windows has no fork, so the
   flag below never holds another process's id there. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#define getpid() GetCurrentProcessId()
#else
#include <unistd.h>
#endif
#include "internal.h"

enum { VALUE_LO, VALUE_HI, NS_LO, NS_HI, LAST, WORDS };

/* A reader retries only when writers published during its own reading;
   they publish at most once per refresh interval, so running out of tries
   means the thread was held up for several intervals in a handful of
   loads. The caller then falls back to a base that cannot move. */
#define TRIES 4

static void put(unsigned int *w, const struct cpucycles_extend32 *e)
{
  unsigned long long ns = (unsigned long long)e->ns;
  __atomic_store_n(&w[VALUE_LO], (unsigned int)e->value, __ATOMIC_RELAXED);
  __atomic_store_n(&w[VALUE_HI], (unsigned int)(e->value >> 32), __ATOMIC_RELAXED);
  __atomic_store_n(&w[NS_LO], (unsigned int)ns, __ATOMIC_RELAXED);
  __atomic_store_n(&w[NS_HI], (unsigned int)(ns >> 32), __ATOMIC_RELAXED);
  __atomic_store_n(&w[LAST], e->last, __ATOMIC_RELAXED);
}

static void get(const unsigned int *w, struct cpucycles_extend32 *e)
{
  unsigned long long lo, hi;
  lo = __atomic_load_n(&w[VALUE_LO], __ATOMIC_RELAXED);
  hi = __atomic_load_n(&w[VALUE_HI], __ATOMIC_RELAXED);
  e->value = hi << 32 | lo;
  lo = __atomic_load_n(&w[NS_LO], __ATOMIC_RELAXED);
  hi = __atomic_load_n(&w[NS_HI], __ATOMIC_RELAXED);
  e->ns = (long long)(hi << 32 | lo);
  e->last = __atomic_load_n(&w[LAST], __ATOMIC_RELAXED);
}

/* Before any reader can see the anchor (the caller publishes it). */
void cpucycles_anchor_init(struct cpucycles_anchor *a, const struct cpucycles_extend32 *e)
{
  __atomic_store_n(&a->seq, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&a->busy, 0, __ATOMIC_RELAXED);
  put(a->slot[0], e);
  put(a->slot[1], e);
}

int cpucycles_anchor_load(struct cpucycles_anchor *a, struct cpucycles_extend32 *e)
{
  int try;
  for (try = 0; try < TRIES; ++try) {
    unsigned int seq = __atomic_load_n(&a->seq, __ATOMIC_ACQUIRE);
    get(a->slot[seq & 1], e);
    /* A word written by a writer that had already moved seq past ours
       brings that move along with it. */
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&a->seq, __ATOMIC_RELAXED) == seq) return 1;
  }
  return 0;
}

/* The flag holds the writer's process id. One of another process can
   only have come through fork from a parent whose writer was not copied:
   it would never be cleared, and the anchor would never move again, so it
   is taken over. getpid is a system call, paid once per move. */
int cpucycles_anchor_lock(struct cpucycles_anchor *a, struct cpucycles_extend32 *current)
{
  unsigned int me = (unsigned int)getpid();
  unsigned int seen = __atomic_load_n(&a->busy, __ATOMIC_RELAXED);
  if (seen == me) return 0; /* another thread of ours, or the code this handler interrupted */
  if (!__atomic_compare_exchange_n(&a->busy, &seen, me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return 0;
  /* Only the holder writes, so its own view of the slot is complete. */
  get(a->slot[__atomic_load_n(&a->seq, __ATOMIC_RELAXED) & 1], current);
  return 1;
}

void cpucycles_anchor_unlock(struct cpucycles_anchor *a, const struct cpucycles_extend32 *next)
{
  if (next) {
    unsigned int seq = __atomic_load_n(&a->seq, __ATOMIC_RELAXED);
    /* Readers still on the slot about to be overwritten (they read seq
       before the previous move) must see seq moved if they see any of
       the new words. */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    put(a->slot[(seq + 1) & 1], next);
    __atomic_store_n(&a->seq, seq + 1, __ATOMIC_RELEASE);
  }
  __atomic_store_n(&a->busy, 0, __ATOMIC_RELEASE);
}
