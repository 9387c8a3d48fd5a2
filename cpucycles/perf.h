/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * perf.h: Linux perf_event cycle events for the counters that use one
 * (perf.c). A counter either reads the event through its descriptor or
 * uses it to make the kernel allow a user-mode counter instruction (RDPMC,
 * PMCCNTR_EL0, rdcycle), which the kernel does only while the event exists
 * and, on x86 and RISC-V, while its page is mapped; the page then says how
 * to turn the register into the event's count. Every thread opens events
 * of its own (see "each thread's own events" below).
 */
#ifndef CPUCYCLES_PERF_H
#define CPUCYCLES_PERF_H

/* perf_event is Linux's: a counter that includes this file is a Linux
   counter, and configure skips it elsewhere with this reason. */
#ifndef __linux__
#error "needs Linux perf_event"
#endif

#include "perfabi.h"
#pragma GCC visibility push(hidden) /* see internal.h */

/* Hybrid x86 has one core PMU per core type (cpu_core, cpu_atom); an event
   on one of them counts only while the thread runs on that type, so one
   event is opened per core PMU and counting goes on after a migration. */
#define CPUCYCLES_PERF_MAX 2

/* open flags */
#define CPUCYCLES_PERF_MAP 1 /* map each event's page */

struct cpucycles_perf {
  int n;                                  /* events open */
  int fd[CPUCYCLES_PERF_MAX];
  volatile struct perfabi_page *page[CPUCYCLES_PERF_MAX];
  unsigned int type;                      /* as opened */
  unsigned long long config, config1;
  int flags;
  /* Why the last open failed, for the setup's refusal (counter.h's
     CPUCYCLES_REFUSED_PERF and _MAP): perf_event_open's errno for the
     event leaving the kernel out and for one counting it (0: not asked),
     whether that was the kernel's answer to an earlier event, kept (then
     the kernel was not asked), and mmap's errno. */
  int refused[2], kept, map_refused;
};

/* Every mapped page says user-mode reads of its counter are allowed. */
int cpucycles_perf_user_read(const struct cpucycles_perf *p);

/* A counter whose every thread counts its own cycles: each thread opens
   and maps its own event on its first read, the way the kernel grants
   user-mode reads (only to the thread that holds a mapped event, on arm64
   and RISC-V) and the only way a page describes the reading thread. The
   counter file keeps one struct cpucycles_perf_own per thread (static TLS)
   and one owner saying which event and where this thread's state is. */
enum {
  CPUCYCLES_PERF_OWN_NONE = 0, /* not opened in this thread (yet, or since a fork) */
  CPUCYCLES_PERF_OWN_OPEN,     /* perf holds this thread's events */
  CPUCYCLES_PERF_OWN_CLOCK     /* events failed: counting on with the OS clock */
};
struct cpucycles_perf_own {
  struct cpucycles_perf perf;
  int state;
  long long shift; /* added to the events' count: the count at the fork that made this process */
  long long last;  /* the last count read through the descriptors, shift included */
  long long base;  /* CLOCK: the count when the events failed */
  long long since; /* CLOCK: the OS clock then, in ns */
  long long persecond; /* CLOCK: the estimate the clock's nanoseconds are scaled by */
  long long at_fork; /* the count as the thread forked, for the child */
};
struct cpucycles_perf_owner {
  unsigned int type;
  unsigned long long config, config1;
  int flags; /* CPUCYCLES_PERF_MAP or 0 */
  struct cpucycles_perf_own *(*mine)(void); /* the calling thread's state */
  /* Reads hardware counter n in user mode (null: never); only the counter
     of index `only` in the page's numbering (see perfpage.h). */
  unsigned long long (*counter)(unsigned int n, void *arg);
  unsigned int only;
};
/* Setup: opens the calling thread's events (closing any it had); 0, or -1
   with nothing open. Threads and forked children open theirs on their
   first read; a thread's events are closed when it exits. */
int cpucycles_perf_own_open(struct cpucycles_perf_owner *o);
/* Release: closes the calling thread's events. */
void cpucycles_perf_own_close(struct cpucycles_perf_owner *o);
/* The slow path of a read, and the whole read of a counter without a
   page: opens this thread's events on its first read; counts each event
   through its page where it names the owner's counter, through its
   descriptor otherwise; once the events fail, or cannot be opened, counts
   on with the OS clock at the estimated rate from the last count, so
   readings never freeze. A forked child's thread goes on from the count
   its parent's thread had when it forked, so readings never decrease. */
long long cpucycles_perf_own_count(struct cpucycles_perf_owner *o);
/* For the library's fork hook and load (api.c): the forking thread's
   count, before a fork; in the child, each thread's events dropped, to
   be opened afresh; and at load, the thread-exit key, made only where
   the fork hook is in place (forks_watched): without both, no thread
   opens events of its own. */
void cpucycles_perf_before_fork(void);
void cpucycles_perf_in_forked_child(void);
void cpucycles_perf_at_load(int forks_watched);

/* What the kernel says, behind a pointer so that tests can play one: the
   library has one for this machine (perf.c); a test passes its own to
   cpucycles_perf_open_with. */
struct cpucycles_perf_kernel {
  long (*open)(struct perfabi_attr *attr); /* perf_event_open: this thread, any CPU;
                                              a descriptor, or -1 with errno */
  const char *root;                        /* prefix of the sysfs paths */
  int no_hardware, no_perf;                /* refused as absent: the errno, kept */
  int ncore;                               /* core PMUs found; -1: not looked up yet */
  unsigned int core[CPUCYCLES_PERF_MAX];   /* their types */
};
/* Opens p's events (p->type, config, config1, flags; one per core PMU for
   a hardware event on hybrid x86) as the library does, through k; 0, or
   -1 with nothing open. Tests only: the library opens each thread's own. */
int cpucycles_perf_open_with(struct cpucycles_perf_kernel *k, struct cpucycles_perf *p);

/* Whether this process's perf_event has refused a hardware cycle event as
   absent (no PMU driver, or no perf_event at all): then no core PMU is
   registered, and so neither is its rdpmc file (amd64-pmcff). The
   kernel's errno (ENOENT, ENODEV, ENOSYS), or 0. */
int cpucycles_perf_no_hardware(void);

/* A setup's refusal (counter.h) saying why p's events did not open: -1. */
struct cpucycles_setup;
int cpucycles_perf_refused(const struct cpucycles_perf *p, struct cpucycles_setup *s);

/* The PMU types of the core PMUs of a hybrid machine, from
   root/sys/bus/event_source/devices/{cpu_core,cpu_atom}/type; returns how
   many (0: not hybrid, use the generic hardware event). */
int cpucycles_perf_core_types(const char *root, unsigned int types[CPUCYCLES_PERF_MAX]);

#pragma GCC visibility pop
#endif
