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
/* 0 with the scale made; nonzero when the rate could not be measured or
   fits no scale, with *hz the rate measured (0: none), for the trace. */
typedef int cpucycles_measure_fn(struct cpucycles_scale *scale, long long (*read)(void), int only32,
                                 struct cpucycles_persecond_source *ps, long long *hz);
extern cpucycles_measure_fn cpucycles_scale_measured;
extern const struct cpucycles_extension cpucycles_extension32;

/* Why a setup refused (returned -1), as it saw it: what a traced first
   call says of the counter (why.c, doc/why.md). seen[] holds what the
   refusal names. */
enum cpucycles_refusal {
  CPUCYCLES_REFUSED = 0,      /* said nothing */
  CPUCYCLES_REFUSED_PERF,     /* perf_event_open refused its event: seen[0] the errno of the
                                 event leaving the kernel out, seen[1] of one counting it too
                                 (0: not asked), seen[2] 1 when the answer was the kernel's to
                                 an earlier event, kept (perf.c) */
  CPUCYCLES_REFUSED_MAP,      /* the event's page did not map: seen[0] the errno */
  CPUCYCLES_REFUSED_CLOSED,   /* user mode may not read the counter: seen[0] 1 as the event's
                                 page says (seen[1] its index, seen[2] cap_user_rdpmc), 2 as
                                 the OS says (x86's rdpmc file) */
  CPUCYCLES_REFUSED_ELSEWHERE, /* the page names counter seen[0], the file reads seen[1] */
  CPUCYCLES_REFUSED_HYBRID,   /* events on seen[0] core PMUs, where the file reads one */
  CPUCYCLES_REFUSED_CPUID,    /* CPUID leaf 0xA: version seen[0], seen[1] fixed counters */
  CPUCYCLES_REFUSED_CCRES,    /* MIPS: cycles per count reads 0 */
  CPUCYCLES_REFUSED_KERNEL,   /* the kernel manages user access itself: not for this system */
  CPUCYCLES_REFUSED_OSCLOCK,  /* the OS clock call failed: seen[0] the errno */
  CPUCYCLES_REFUSED_NOCLOCK   /* no clock at all */
};

/* What lets user mode run the counter's read, which says what a fault
   means and what would enable it. */
enum cpucycles_access {
  CPUCYCLES_ACCESS_OPEN = 0,  /* nothing: user mode may run it wherever the CPU has it */
  CPUCYCLES_ACCESS_MODULE,    /* a kernel module that turns user access on (Linux has no setting) */
  CPUCYCLES_ACCESS_EVENT,     /* the thread's own perf event, with kernel.perf_user_access 1 */
  CPUCYCLES_ACCESS_ALL,       /* kernel.perf_user_access 2 (RISC-V, Linux 6.6+) */
  CPUCYCLES_ACCESS_RDPMC,     /* the thread's own perf event, with /sys/devices/cpu/rdpmc 1 */
  CPUCYCLES_ACCESS_RDPMC_ALL  /* /sys/devices/cpu/rdpmc 2 */
};

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
  /* What grants user mode the read (enum cpucycles_access), and, when
     setup refuses, why (enum cpucycles_refusal, cpucycles_refuse). Stores
     to the stack: an untraced first call pays nothing for them. */
  unsigned char access;
  unsigned char refusal;
  int seen[3];
};

struct cpucycles_counter {
  long long (*read)(void);
  /* Returns 0 and fills *s (which arrives zeroed: CPUCYCLES_CORE, 64 bits)
     when the counter may work here, -1 when it cannot (saying why with
     cpucycles_refuse where it knows). It runs under the signal guard, so
     it may probe instructions that fault; it says what grants its read
     (s->access) before any probe. */
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

/* A setup's refusal with what it saw (enum cpucycles_refusal): -1. */
static inline int cpucycles_refuse(struct cpucycles_setup *s, int refusal, int a, int b, int c)
{
  s->refusal = (unsigned char)refusal;
  s->seen[0] = a;
  s->seen[1] = b;
  s->seen[2] = c;
  return -1;
}

#define COUNTER_DEFINE(read, setup, release) \
  const struct cpucycles_counter COUNTER = { read, setup, release }

#pragma GCC visibility pop
#endif
