/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* prebound.h: the libc functions that a first call calls, reached
   through pointers that the dynamic loader fills in when it loads the
   library (prebound.c).

   The shared library is bound lazily, so that a process that never calls
   it pays the loader for a few symbols only. A function called through
   the PLT is bound on its first call instead, by the loader's resolver:
   about a microsecond each in a virtual machine, a dozen of them in a
   first call. Held in a table of pointers, these few are bound with the
   library's data instead, at a fraction of that, and the resolver never
   runs in a first call (nor on a signal handler's small stack). What the
   first call does not need (the estimate's files, the perf counters'
   mappings) stays lazy. On libcs that bind everything at load (musl)
   the table changes nothing. */
#ifndef CPUCYCLES_PREBOUND_H
#define CPUCYCLES_PREBOUND_H

#include <pthread.h>
#include <signal.h>
#include <sys/types.h>

struct cpucycles_prebound {
  int (*sigaction)(int, const struct sigaction *, struct sigaction *);
  int (*sigprocmask)(int, const sigset_t *, sigset_t *);
  int (*sigemptyset)(sigset_t *);
  int (*sigaddset)(sigset_t *, int);
  int (*sigismember)(const sigset_t *, int);
  int (*pthread_setcancelstate)(int, int *);
  pid_t (*getpid)(void);
#ifdef __linux__
  long (*syscall)(long, ...);
#endif
#ifdef __GLIBC__
  int *(*errno_location)(void); /* what glibc's errno macro calls */
#endif
};

extern const struct cpucycles_prebound cpucycles_prebound;
/* At a call: LIBC.sigaction(...). */
#define LIBC cpucycles_prebound

/* errno, without a lazily bound call in it. */
#ifdef __GLIBC__
#define CPUCYCLES_ERRNO (*LIBC.errno_location())
#else
#define CPUCYCLES_ERRNO errno
#endif

#endif
