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
 * files never see each other's symbols and need no prefixes of their own,
 * and for speed, for the read's sake. Setup runs once a process, so each
 * file marks it __attribute__((cold)), which has gcc compile it for size.
 */
#ifndef CPUCYCLES_COUNTER_H
#define CPUCYCLES_COUNTER_H

#pragma GCC visibility push(hidden) /* see internal.h */

enum cpucycles_kind {
  /* Counts cycles of the core it runs on: used as is, no penalty. */
  CPUCYCLES_CORE = 0,
  /* Counts something close to cycles, but off the core (RDTSC) or through
     the kernel (perf_event read): used as is, off-core penalty. */
  CPUCYCLES_OFFCORE,
  /* Ticks at a rate given in hz: scaled by persecond/hz, off-core penalty. */
  CPUCYCLES_RATE,
  /* Ticks at a rate nobody told us: measured against the OS clock, then
     scaled; dropped when persecond is not near a small multiple of it.
     Said with cpucycles_setup_rate(s, 0), which names the measurement. */
  CPUCYCLES_UNKNOWN_RATE,
  /* An OS clock of fixed resolution at a known rate in hz (nanoseconds,
     microseconds): scaled, OS-clock penalty, never dropped for its rate. */
  CPUCYCLES_OSCLOCK
};

/* The machinery a clock of unknown rate needs (its rate measured, then
   snapped to a likely ratio: rate.c, scale.c), and the one a 32-bit
   counter needs (its extension to 64 bits: extend32.c, chosen32.c,
   anchor.c, rate.c). The setup helpers below are what name them, so a
   build none of whose counters calls those helpers (amd64's) leaves them
   out of the library: section garbage collection drops what nothing
   names. internal.h says what they hold. */
struct cpucycles_scale;
struct cpucycles_persecond_source;
struct cpucycles_extension;
typedef int cpucycles_measure_fn(struct cpucycles_scale *scale, long long (*read)(void), int only32,
                                 struct cpucycles_persecond_source *ps);
extern cpucycles_measure_fn cpucycles_scale_measured;
extern const struct cpucycles_extension cpucycles_extension32;

struct cpucycles_setup {
  enum cpucycles_kind kind;
  long long hz;  /* ticks per second, for CPUCYCLES_RATE and CPUCYCLES_OSCLOCK */
  int only32;    /* only the low 32 bits of a reading count: cpucycles_setup_only32 */
  /* and how such readings are extended to 64 bits, for the selection's
     test of the counter and for the read handed out (chosen.c) */
  const struct cpucycles_extension *extension;
  /* For CPUCYCLES_UNKNOWN_RATE: how the selection measures the rate and
     makes the scale (cpucycles_setup_rate fills it). */
  cpucycles_measure_fn *measure;
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
  s->measure = cpucycles_scale_measured;
}

/* A counter that keeps only the low 32 bits of its count. */
static inline void cpucycles_setup_only32(struct cpucycles_setup *s)
{
  s->only32 = 1;
  s->extension = &cpucycles_extension32;
}

#define COUNTER_DEFINE(read, setup, release) \
  const struct cpucycles_counter COUNTER = { read, setup, release }

#pragma GCC visibility pop
#endif
