/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* guard.h: the signal guard, for the files that probe counters. Needs
   _POSIX_C_SOURCE for sigjmp_buf. On Windows (guard-windows.c) the same
   interface stands for a vectored exception handler, the exceptions for
   the signals (an illegal or privileged instruction for SIGILL, an access
   violation for SIGSEGV). */
#ifndef CPUCYCLES_GUARD_H
#define CPUCYCLES_GUARD_H

#include <setjmp.h>
#include "internal.h"
#pragma GCC visibility push(hidden) /* see internal.h */

/* Turns SIGILL, SIGFPE, SIGBUS and SIGSEGV raised in the probing thread
   while it is armed into a jump to cpucycles_guard_jump. Probe as:
     if (CPUCYCLES_GUARD_SETJMP()) {
       cpucycles_guard_armed = 0; cpucycles_guard_remask(); ...
     }
     cpucycles_guard_armed = 1; ...probe...; cpucycles_guard_armed = 0;
   The flag is per thread: the same signals in any other thread, or in this
   one while disarmed, are handed to whatever the process had installed.
   begin and end must run in the probing thread, around all its probes;
   begin takes that thread's id (os.h's cpucycles_os_thread) where its
   caller has it, 0 where not (the guard then asks the kernel). */
int cpucycles_guard_begin(long thread);
void cpucycles_guard_end(void);
/* The library's fork hook (api.c) calls it in a fork() child: the
   program's handlers back where a guard of the parent's was up. */
void cpucycles_guard_in_forked_child(void);
/* Puts back the probing thread's signal mask as the guard set it (what
   it had before, the four unblocked), after a jump out of the handler,
   which does not restore it by itself. */
void cpucycles_guard_remask(void);
#ifdef _WIN32
/* Windows (guard-windows.c): the exception handler sends the faulting
   thread on to a function that jumps back here. GCC's and clang's own
   jump buffer, five words: it restores only the frame, stack and
   instruction pointers, as a jump out of a frame that ran no cleanup
   needs, and so owes nothing to the C runtime or the unwinder (MinGW's
   longjmp on x86-64 unwinds through SEH tables, msvcrt's 32-bit one
   through its own frame chain). */
extern void *cpucycles_guard_jump[5];
#if defined(__aarch64__)
/* clang has no __builtin_setjmp for arm64. Windows' own RtlCaptureContext
   records the caller's registers as they are when it returns; the handler
   gives that record back as the thread's context, so the thread returns
   from the capture a second time, and cpucycles_guard_landed() says so.
   Declared here under a name of ours (the import is the same) with
   returns_twice, which has the compiler treat it as setjmp. */
extern void cpucycles_guard_capture(void *context) __attribute__((returns_twice))
  __asm__("RtlCaptureContext");
extern void *const cpucycles_guard_context;
int cpucycles_guard_landed(void);
#define CPUCYCLES_GUARD_SETJMP() \
  (cpucycles_guard_capture(cpucycles_guard_context), cpucycles_guard_landed())
#else
#define CPUCYCLES_GUARD_SETJMP() __builtin_setjmp(cpucycles_guard_jump)
#endif
#else
extern sigjmp_buf cpucycles_guard_jump;
/* The jump point of a probe, as sigsetjmp(cpucycles_guard_jump, 0). */
#define CPUCYCLES_GUARD_SETJMP() sigsetjmp(cpucycles_guard_jump, 0)
#endif
extern CPUCYCLES_THREAD_LOCAL volatile int cpucycles_guard_armed;
/* The signal of the fault that last jumped back in this thread, for a
   traced selection's account of the probe (why.h). */
extern CPUCYCLES_THREAD_LOCAL volatile int cpucycles_guard_signal;

#pragma GCC visibility pop
#endif
