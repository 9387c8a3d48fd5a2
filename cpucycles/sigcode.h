/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* sigcode.h: what a signal's si_code says of where it came from, per
   system, for the guard (guard.c): sent (kill, a thread's kill, sigqueue,
   a timer, the kernel on its own account), which the guard never takes
   for its probe's fault, or raised by the instruction that faulted. This
   is the one place that knows each system's numbering; needs <signal.h>.

   Linux: every sending path gives a code at or below zero (SI_USER 0,
   SI_QUEUE -1, SI_TIMER -2, ..., SI_TKILL -6 for tgkill). SI_KERNEL
   (0x80) is not among them: x86 Linux gives it to the SIGSEGV of a
   general protection fault, RDPMC refused included, so it is a fault.

   FreeBSD (<sys/signal.h>): the sent codes are SI_NOINFO 0 and the range
   from SI_USER 0x10001 on: SI_QUEUE, SI_TIMER, SI_ASYNCIO, SI_MESGQ,
   SI_KERNEL 0x10006 (the kernel's own psignal) and SI_LWP 0x10007
   (thr_kill, hence pthread_kill and raise). The fault codes (ILL_*,
   SEGV_*, BUS_*, FPE_*, TRAP_*) are small positive numbers, 1 to 9, and
   100 for BUS_OOMERR and SEGV_PKUERR. A later SI_ code would join the
   range above SI_USER, so the range is taken rather than the list.

   macOS (<sys/signal.h>): the same numbering from SI_USER 0x10001 to
   SI_MESGQ 0x10005, faults' codes 1 to 8 and *_NOOP 0, "no code known".
   xnu's arm64 sendsig fills the code of the four fault signals from the
   signal's number, not its origin (SIGILL ILL_ILLTRP, SIGBUS BUS_ADRALN,
   SIGSEGV SEGV_ACCERR, SIGFPE 0): there a kill of SIGSEGV cannot be told
   from a fault, and no probe raises SIGFPE. Zero stays "sent", as before:
   taking a sent signal for a fault in another thread would hand the
   program's disposition back in the middle of the guard.

   Elsewhere (NetBSD, OpenBSD, the Hurd, ...): POSIX's SI_USER and
   SI_QUEUE by name, and anything at or below zero, where those systems
   put their other sending codes. */
#ifndef CPUCYCLES_SIGCODE_H
#define CPUCYCLES_SIGCODE_H

static inline int cpucycles_sigcode_sent(int code)
{
#if defined(__linux__)
  return code <= 0;
#elif defined(__FreeBSD__) || (defined(__APPLE__) && defined(__MACH__))
  return code <= 0 || code >= SI_USER;
#else
  return code <= 0 || code == SI_USER || code == SI_QUEUE;
#endif
}

/* Sent to one thread rather than to the process: Linux's tgkill
   (SI_TKILL), FreeBSD's thr_kill (SI_LWP); a fault is its thread's too. */
static inline int cpucycles_sigcode_thread(int code)
{
#ifdef SI_TKILL
  if (code == SI_TKILL) return 1;
#endif
#if defined(__FreeBSD__) && defined(SI_LWP)
  if (code == SI_LWP) return 1;
#endif
  return !cpucycles_sigcode_sent(code);
}

#endif
