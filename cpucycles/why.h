/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * why.h: why a counter did not work, as its own trial saw it: the
 * kernel's errno for its event, the signal its read raised, how its
 * readings failed, and what the OS's settings said at that moment. A
 * traced first call keeps one record a counter (api.c allocates them,
 * select.c fills them: an untraced first call has none), the OS fills in
 * its settings
 * (os.h's cpucycles_os_why) and why.c tells each failure in one line,
 * `cpucycles why <counter> <code> <words>`, whose codes doc/why.md lists.
 */
#ifndef CPUCYCLES_WHY_H
#define CPUCYCLES_WHY_H

#include <stddef.h>
#pragma GCC visibility push(hidden) /* see internal.h */

/* Where the trial failed. */
enum cpucycles_why_stage {
  CPUCYCLES_WHY_NONE = 0,  /* nothing recorded: it worked, or was not tried */
  CPUCYCLES_WHY_REFUSED,   /* its setup refused: refusal, seen[] */
  CPUCYCLES_WHY_FAULT,     /* a probe raised signal (in_setup: during setup) */
  CPUCYCLES_WHY_READINGS,  /* its readings failed the test: frozen, decreased, reading[] */
  CPUCYCLES_WHY_RATE,      /* its rate and the estimate fit no scale: reading[] */
  CPUCYCLES_WHY_KIND,      /* confirmed alone, it described itself otherwise: seen[] */
  CPUCYCLES_WHY_UNGUARDED  /* no signal guard, and its read may fault: not tried */
};

/* A setting as read at that moment: value when known; else error, the
   errno that kept it from being read (ENOENT: this kernel has none), or
   0 when it was not asked. */
struct cpucycles_why_setting {
  int value, error, known;
};

struct cpucycles_why {
  unsigned char stage;      /* enum cpucycles_why_stage */
  unsigned char refusal;    /* REFUSED: enum cpucycles_refusal (counter.h) */
  unsigned char access;     /* enum cpucycles_access, as setup said */
  unsigned char signal;     /* FAULT: the signal */
  unsigned char in_setup;   /* FAULT: raised in setup, not in the readings */
  unsigned char stated;     /* RATE: the rate was the setup's, not measured */
  int seen[3];              /* REFUSED: what the refusal names; KIND: the two kinds */
  long long reading[2];     /* READINGS: the reading and the one after it that went
                               back, or the value a run stood at; RATE: the rate in
                               hz and the estimate */
  int frozen, decreased;    /* READINGS: runs that never increased, runs that went back */
  long long confirming;     /* nonzero: failed in the confirmation, after a trial that
                               passed with this precision */
  /* What the OS said when the trial failed (os.h): Linux's
     kernel.perf_event_paranoid, kernel.perf_user_access,
     /sys/devices/cpu/rdpmc and kernel.nmi_watchdog, and whether this
     process holds CAP_PERFMON or CAP_SYS_ADMIN (1 yes, 0 no, -1 not known). */
  struct cpucycles_why_setting paranoid, user_access, rdpmc, watchdog;
  int privileged;
  /* Whose settings these are (enum cpucycles_why_system, os.h's
     cpucycles_os_why): what a fault means and what would enable the
     counter differ by system. */
  unsigned char system;
};

/* Linux's is 0, what a record starts as. On FreeBSD the counters a fault
   refuses are the system's own business: hwpmc(4) manages the PMU and no
   setting opens it to every process. */
enum cpucycles_why_system {
  CPUCYCLES_WHY_LINUX = 0,
  CPUCYCLES_WHY_FREEBSD
};

/* The whole line for counter name, without a newline, in buf (cut to fit
   size); returns its length as snprintf would. */
int cpucycles_why_format(char *buf, size_t size, const char *name, const struct cpucycles_why *w);
/* The line and a newline on stdout. */
void cpucycles_why_print(const char *name, const struct cpucycles_why *w);

#pragma GCC visibility pop
#endif
