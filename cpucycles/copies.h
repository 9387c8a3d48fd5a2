/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* copies.h: the guard's handlers among other copies of this library in
   the process (copies.c), for guard.c. A plugin that linked the archive
   beside a program that loaded the shared library, or a copy loaded with
   RTLD_DEEPBIND, has its own guard, its own saved handlers and its own
   handler, and may make its first call at the same instant as this one:
   each copy's guard must give back exactly what the program had, never
   another copy's handler, and a probe's fault must always find a guard.
   On POSIX systems; Windows' guard (guard-windows.c) has no such
   protocol, as its exception handlers chain by themselves. */
#ifndef CPUCYCLES_COPIES_H
#define CPUCYCLES_COPIES_H

#include <signal.h>
#pragma GCC visibility push(hidden) /* see internal.h */

/* The four signals guarded, i = 0..3: SIGILL (the copies' turn),
   SIGFPE, SIGBUS, SIGSEGV, from one constant: an array of them would be
   the only thing a first call reads from the library's read-only data,
   a segment of its own whose first read is a page fault (several
   microseconds in a virtual machine). Signal numbers are below 256 on
   every system. */
#define NGUARDED 4
#define GUARDED_ALL ((unsigned long)SIGILL | (unsigned long)SIGFPE << 8 | \
                     (unsigned long)SIGBUS << 16 | (unsigned long)SIGSEGV << 24)
#define guarded(i) ((int)(GUARDED_ALL >> 8 * (i) & 0xff))

/* Puts handler in for the four signals, marked as the guard of thread
   (os.h's id of the calling thread; 0: asked here), once this copy holds
   the turn. Returns how many went in, in order: NGUARDED, or fewer when
   sigaction failed, which the caller gives back. */
int cpucycles_copies_install(void (*handler)(int, siginfo_t *, void *), long thread);
/* Gives back the first n signals' handlers, last first, if this copy's
   is still the one in place. wait: the guard's own end, which waits for
   a copy nested over this one to give back first; 0 in a forked child,
   where no other copy's thread exists. */
void cpucycles_copies_give_back(int n, int wait);
/* What each signal's handler was before this copy's went in: the
   program's disposition (or a copy's this one nested over), which a
   signal that is not the guard's own goes to. Written by the exchanges
   and read by the give-backs; guard.c's pass_on reads it, and marks a
   one-shot handler (SA_RESETHAND) used up there. */
extern struct sigaction cpucycles_copies_saved[NGUARDED];
/* For signal i arriving in a thread while an exchange for it is under
   way, in which case cpucycles_copies_saved may not hold its answer yet:
   in another thread, waits until it does (100 us sleeps, bounded as
   copies.c's waits are); returns 1 when the exchange is this thread's
   own, made without a look, whose answer is not stored yet (the caller
   holds a sent signal until the guard's end). */
int cpucycles_copies_settle(int i);

#pragma GCC visibility pop
#endif
