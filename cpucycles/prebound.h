/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* prebound.h: the libc functions that a first call calls, reached
   through pointers that the dynamic loader fills in when it loads the
   library (prebound.c).

   The shared library is bound lazily, so that a process that never calls
   it pays the loader for a few symbols only. A function called through
   the PLT is bound on its first call instead, by the loader's resolver:
   about a microsecond each in a virtual machine, a dozen of them in a
   first call. Held in pointers, these few are bound with the library's
   data instead, at a fraction of that, and the resolver never runs in a
   first call (nor on a signal handler's small stack) but for sigsetjmp,
   which cannot be called through a pointer. What the first call does not
   need (the estimate's files, the perf counters' mappings) stays lazy.
   On libcs that bind everything at load (musl) this changes nothing. */
#ifndef CPUCYCLES_PREBOUND_H
#define CPUCYCLES_PREBOUND_H

#include <pthread.h>
#include <signal.h>
#include <sys/types.h>
#pragma GCC visibility push(hidden) /* see internal.h */

/* At a call: LIBC(sigaction)(...). One pointer each, not a table: a call
   through a pointer of its own is one instruction. */
#define LIBC(name) cpucycles_prebound_##name

extern int (*const LIBC(sigaction))(int, const struct sigaction *, struct sigaction *);
extern int (*const LIBC(sigprocmask))(int, const sigset_t *, sigset_t *);
extern int (*const LIBC(sigemptyset))(sigset_t *);
extern int (*const LIBC(sigaddset))(sigset_t *, int);
extern int (*const LIBC(sigismember))(const sigset_t *, int);
extern int (*const LIBC(pthread_setcancelstate))(int, int *);
extern pid_t (*const LIBC(getpid))(void);
#ifdef __linux__
extern long (*const LIBC(syscall))(long, ...);
#endif

/* errno, without a lazily bound call in it: what glibc's errno macro
   calls, through its pointer. */
#ifdef __GLIBC__
extern int *(*const LIBC(errno_location))(void);
#define CPUCYCLES_ERRNO (*LIBC(errno_location)())
#else
#define CPUCYCLES_ERRNO errno
#endif

#pragma GCC visibility pop
#endif
