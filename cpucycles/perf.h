/*
 * perf.h: Linux perf_event cycle events for the counters that use one
 * (perf.c). A counter either reads the event through its descriptor or
 * uses it to make the kernel allow a user-mode counter instruction (RDPMC,
 * PMCCNTR_EL0, rdcycle), which the kernel does only while the event exists
 * and, on x86 and RISC-V, while its page is mapped.
 */
#ifndef CPUCYCLES_PERF_H
#define CPUCYCLES_PERF_H

/* perf_event is Linux's: a counter that includes this file is a Linux
   counter, and configure skips it elsewhere with this reason. */
#ifndef __linux__
#error "needs Linux perf_event"
#endif

#include <linux/perf_event.h>

/* Hybrid x86 has one core PMU per core type (cpu_core, cpu_atom); an event
   on one of them counts only while the thread runs on that type, so one
   event is opened per core PMU and counting goes on after a migration. */
#define CPUCYCLES_PERF_MAX 2

/* open flags */
#define CPUCYCLES_PERF_MAP 1     /* map each event's page (and remap in a forked child) */
#define CPUCYCLES_PERF_INHERIT 2 /* threads and children created later count too */

struct cpucycles_perf {
  int n;                                  /* events open */
  int fd[CPUCYCLES_PERF_MAX];
  volatile struct perf_event_mmap_page *page[CPUCYCLES_PERF_MAX];
  unsigned int type;                      /* as opened, to reopen in a child */
  unsigned long long config, config1;
  int flags;
};

/* Opens a cycle event for this thread (one per core PMU on hybrid x86),
   close-on-exec. Returns 0, or -1 with nothing left open. config1 carries
   architecture-specific requests (user access on arm64). */
int cpucycles_perf_open(struct cpucycles_perf *p, unsigned long long config1, int flags);
/* The same for any event (the tests use a software clock, which works
   without a PMU); only hardware events are split per core PMU. */
int cpucycles_perf_open_event(struct cpucycles_perf *p, unsigned int type,
                              unsigned long long config, unsigned long long config1, int flags);
/* Unmaps and closes what open took; safe to call twice. */
void cpucycles_perf_close(struct cpucycles_perf *p);
/* Every mapped page says user-mode reads of its counter are allowed. */
int cpucycles_perf_user_read(const struct cpucycles_perf *p);
/* The event's count through its descriptor; 0 when the read fails. */
long long cpucycles_perf_fd_count(int fd);

/* The PMU types of the core PMUs of a hybrid machine, from
   root/sys/bus/event_source/devices/{cpu_core,cpu_atom}/type; returns how
   many (0: not hybrid, use the generic hardware event). */
int cpucycles_perf_core_types(const char *root, unsigned int types[CPUCYCLES_PERF_MAX]);

/* One cycle event for this thread, through the generic hardware type.
   Returns the descriptor or -1. */
int cpucycles_perf_open_cycles(void);

#endif
