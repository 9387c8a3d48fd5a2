/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * counter.h: the contract between one counter file and the selector.
 *
 * A counter file knows one way to read one clock. It defines a read
 * function, a setup function that says what kind of clock it is (or that
 * it is unusable here), and optionally a release function giving back what
 * setup took. It ends with COUNTER_DEFINE(read, setup, release), or with a
 * header that holds the body several counters share and ends so
 * (perfuser.h, for the counters that read a perf event's counter).
 *
 * The build compiles each counter file with -DCOUNTER=<unique name>, so the
 * files never see each other's symbols and need no prefixes of their own.
 */
#ifndef CPUCYCLES_COUNTER_H
#define CPUCYCLES_COUNTER_H

enum cpucycles_kind {
  /* Counts cycles of the core it runs on: used as is, no penalty. */
  CPUCYCLES_CORE = 0,
  /* Counts something close to cycles, but off the core (RDTSC) or through
     the kernel (perf_event read): used as is, off-core penalty. */
  CPUCYCLES_OFFCORE,
  /* Ticks at a rate given in hz: scaled by persecond/hz, off-core penalty. */
  CPUCYCLES_RATE,
  /* Ticks at a rate nobody told us: measured against the OS clock, then
     scaled; dropped when persecond is not near a small multiple of it. */
  CPUCYCLES_UNKNOWN_RATE,
  /* An OS clock of fixed resolution at a known rate in hz (nanoseconds,
     microseconds): scaled, OS-clock penalty, never dropped for its rate. */
  CPUCYCLES_OSCLOCK
};

struct cpucycles_setup {
  enum cpucycles_kind kind;
  long long hz;  /* ticks per second, for CPUCYCLES_RATE and CPUCYCLES_OSCLOCK */
  int only32;    /* only the low 32 bits of a reading count */
};

struct cpucycles_counter {
  long long (*read)(void);
  /* Returns 0 and fills *s (which arrives zeroed: CPUCYCLES_CORE, 64 bits)
     when the counter may work here, -1 when it cannot. It runs under the
     signal guard, so it may probe instructions that fault. */
  int (*setup)(struct cpucycles_setup *s);
  /* Gives back descriptors or mappings when the counter is not chosen. */
  void (*release)(void);
};

/* A clock off the core: at hz ticks a second when the hardware or the OS
   says so, measured against the OS clock when hz is 0 (not known). */
static inline void cpucycles_setup_rate(struct cpucycles_setup *s, long long hz)
{
  s->kind = hz > 0 ? CPUCYCLES_RATE : CPUCYCLES_UNKNOWN_RATE;
  s->hz = hz > 0 ? hz : 0;
}

#define COUNTER_DEFINE(read, setup, release) \
  const struct cpucycles_counter COUNTER = { read, setup, release }

#endif
