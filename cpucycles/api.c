/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* api.c: the public functions and the once-only selection behind them. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#ifndef _WIN32
#include <pthread.h>
#include <unistd.h>
#endif
#include "internal.h"
#include "guard.h"
#include "os.h"
#ifdef __linux__
#include "perf.h" /* each thread's own events: perf.c, built for Linux alone */
#endif
#ifndef _WIN32
#include "prebound.h"
#endif
#include "why.h"
#define CPUCYCLES_BUILDING_LIBRARY /* the definitions, not dllimport (cpucycles.h) */
#include "../include/cpucycles.h"

#ifndef CPUCYCLES_VERSION
#define CPUCYCLES_VERSION "unknown"
#endif

static long long first_call(void);
static long long zero(void) { return 0; }

long long (*cpucycles)(void) = first_call;

#ifdef _WIN32
/* A program compiled for the DLL (no CPUCYCLES_STATIC, so the header's
   dllimport) reads cpucycles through the pointer __imp_cpucycles, which
   the DLL's import library provides. Linked with the static library
   instead, it finds the same pointer here, and works as it would with
   the DLL: GNU ld makes no such pointer for a symbol defined in an
   archive. The DLL does not export it (cpucycles.def). 32-bit x86 spells
   C's cpucycles _cpucycles, and the pointer's name after it. */
#if defined(__i386__)
#define IMPORT_POINTER "__imp__cpucycles"
#else
#define IMPORT_POINTER "__imp_cpucycles"
#endif
long long (**const cpucycles_import_pointer)(void) __asm__(IMPORT_POINTER) = &cpucycles;
#endif

/* The selection's results: written once by the selecting thread before
   owner becomes DONE, read only after. */
static const char *chosen_name = "default-zero";
static long long chosen_persecond = CPUCYCLES_PERSECOND_DEFAULT;
static int tracing;

/* 0 before the first call, DONE once the results are published, and in
   between the thread id (os.h) of the thread selecting. Waiters mark the
   word, sleep on it in the kernel and are woken when it becomes DONE. */
#define DONE (-1)
/* Added to the id by a thread about to sleep on the claim. Thread ids
   stay below it (Linux's pid_max is at most 2^22; Mach port names are
   small). */
#define WAITING 0x40000000
static int owner;
/* The same for the estimate, which the selection computes only when a
   counter needs it. */
static int persecond_owner;
/* Set in a thread from just before it tries to claim until its results
   are published: a signal handler that interrupts it and calls us must
   not wait for its own thread, so it gets the defaults. Set before the
   claim, so no instant of the claim is left uncovered. */
static CPUCYCLES_THREAD_LOCAL volatile int busy_here;
/* This thread's id when it last tried to claim: the fork handler, which
   runs in the child, tells by it whether a claim it inherited is its own
   thread's (the parent's id is all the copied claim can hold). */
static CPUCYCLES_THREAD_LOCAL int tid_here;
/* The process whose memory this is: taken by the first claim (a system
   call there, not at load) and again in every child that fork() makes
   after it (its handlers run there); 0 while nothing was claimed. A
   process with another id that sees this memory was made without them: a
   vfork child, sharing its parent's memory while the parent's other
   threads run on, or a raw clone. It must not select (its writes would
   land in the parent, its counters' resources would be its own), and it
   has no thread to wait for: unless the results are out, it reads the OS
   clock (OUTSIDER below). (A vfork child that calls before its parent
   ever did finds 0 and is not told apart; POSIX allows it only _exit and
   exec.) */
static int memory_pid;

#ifdef _WIN32
/* Windows has no fork and no vfork: no other process ever sees this
   memory, so every claim in it is this process's own (foreign below and
   the fork handler are POSIX's). Nor has it thread cancellation: a
   thread ends only by returning or by TerminateThread, which no setting
   holds off. errno is the C runtime's, called directly. */
#define CANCEL_OFF(saved) ((void)(saved))
#define CANCEL_BACK(saved) ((void)(saved))
#define CPUCYCLES_ERRNO errno
#else
#define CANCEL_OFF(saved) LIBC(pthread_setcancelstate)(PTHREAD_CANCEL_DISABLE, &(saved))
#define CANCEL_BACK(saved) LIBC(pthread_setcancelstate)((saved), &(saved))
#endif

/* The wake is a system call, paid only when someone sleeps. */
static void publish(int *state)
{
  if (__atomic_exchange_n(state, DONE, __ATOMIC_ACQ_REL) & WAITING) cpucycles_os_wake(state);
}

/* me: the calling thread's id (os.h). On Linux, where that is the kernel's
   thread id, the thread whose id is the process id this memory was
   recorded for is that process's first thread, as getpid() would say,
   without asking: threads and processes are numbered from one space, and
   a live process's id names its first thread. (A vfork child in a new pid
   namespace may be numbered like its parent; getpid() there gives the
   same number, so the answer was this one anyway.) Any other thread, and
   every thread elsewhere, asks. */
#ifdef _WIN32
static int foreign(int me)
{
  (void)me;
  (void)memory_pid;
  return 0;
}
#else
static int foreign(int me)
{
  int seen = __atomic_load_n(&memory_pid, __ATOMIC_RELAXED);
#ifdef __linux__
  if (seen != 0 && me == seen) return 0;
#endif
  me = (int)LIBC(getpid)();
  /* The first claim of this memory. */
  if (!seen && __atomic_compare_exchange_n(&memory_pid, &seen, me, 0, __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED))
    return 0;
  return seen != me;
}

/* In a fork() child, whose only thread is the one that forked: a claim
   copied from the parent names a thread it does not have, unless it is
   this one's (a fork in a signal handler that interrupted the selection,
   which goes on when the handler returns): cleared, or renamed. */
static void adopt(int *state, int me)
{
  int seen = __atomic_load_n(state, __ATOMIC_RELAXED);
  if (seen == DONE || seen == 0) return;
  __atomic_store_n(state, busy_here && (seen & ~WAITING) == tid_here ? me : 0, __ATOMIC_RELAXED);
}

/* Nothing to do in the child of a program that never claimed: the fork
   of a program that does not use the library costs it nothing. */
static void claims_in_forked_child(void)
{
  int me;
  if (!__atomic_load_n(&memory_pid, __ATOMIC_RELAXED)) return;
  me = cpucycles_os_thread();
  __atomic_store_n(&memory_pid, (int)getpid(), __ATOMIC_RELAXED);
  adopt(&owner, me);
  adopt(&persecond_owner, me);
  tid_here = me;
}

/* The library's fork hook, for every layer that keeps state a fork
   child must not inherit as it is: the claims above, the guard's
   handlers (guard.c), each thread's perf events (perf.c, which alone
   also acts before the fork). */
static void in_forked_child(void)
{
  claims_in_forked_child();
  cpucycles_guard_in_forked_child();
#ifdef __linux__
  cpucycles_perf_in_forked_child();
#endif
}
/* Before a fork: perf.c's part, the only one. */
#ifdef __linux__
static void (*const before_fork)(void) = cpucycles_perf_before_fork;
#else
static void (*const before_fork)(void) = 0;
#endif

/* Registered at load, not at the first call: that may be made in a
   signal handler, where pthread_atfork is not safe to call (it takes the
   lock that fork() holds, which the interrupted thread may hold). No
   system call here: a program that never calls the library does not see
   it load. perf.c makes its thread-exit key here too, for the same
   reason, and opens no event without the hook and the key. */
__attribute__((constructor)) static void at_load(void)
{
  int watched = pthread_atfork(before_fork, 0, in_forked_child) == 0;
#ifdef __linux__
  cpucycles_perf_at_load(watched);
#else
  (void)watched;
#endif
}
#endif

static long long estimate(void)
{
  return cpucycles_persecond_here();
}

/* A traced selection, with why each counter that failed did. The records
   are the trace's alone, so they are allocated here rather than sit in
   the library's data beside the trials, where they would take the
   trials off the page loading wrote (doc/speed.md). A trace prints with
   stdio and is no signal handler's business anyway. Without memory for
   them the trace goes on without its reasons. */
static int select_traced(int n, struct cpucycles_persecond_source *ps,
                         struct cpucycles_trial *trials, int me)
{
  struct cpucycles_why *whys = calloc((size_t)n, sizeof *whys);
  int best;
  if (!whys) return cpucycles_select_from(cpucycles_options, n, ps, 1, trials, me);
  best = cpucycles_select_why(cpucycles_options, n, ps, trials, whys, "", me);
  free(whys);
  return best;
}

/* me: the calling thread's id (os.h), for the selection's guard. */
static void select_counter(int me)
{
  /* Not on the stack, which may be a signal handler's 8 KiB: one per
     compiled counter, in options.c. The once below lets one thread of a
     process at a time in here, and a handler interrupting it is turned
     away (busy_here), so nobody shares them. */
  struct cpucycles_trial *trials = cpucycles_trials;
  struct cpucycles_persecond_source ps = { 0, estimate };
  int n = cpucycles_ntrials;
  long long (*read)(void) = zero;
  const char *name = "default-zero";
  int best, cancel;

  /* A cancellation point inside (open, read, printf) would leave every
     other thread waiting for a selection that never ends. */
  CANCEL_OFF(cancel);
  best = tracing ? select_traced(n, &ps, trials, me)
                 : cpucycles_select_from(cpucycles_options, n, &ps, 0, trials, me);
  if (best >= 0) {
    const struct cpucycles_trial *t = &trials[best];
    name = cpucycles_options[best].name;
    read = cpucycles_chosen(cpucycles_options[best].counter->read, t,
                            t->scaled || t->only32 ? cpucycles_persecond_of(&ps) : 0);
  }
  chosen_name = name;
  /* The selection asked for the estimate only if a counter needed it;
     otherwise cpucycles_persecond() will, on its first call. */
  if (ps.value) {
    chosen_persecond = ps.value;
    publish(&persecond_owner);
  }
  __atomic_store_n(&cpucycles, read, __ATOMIC_RELEASE);
  publish(&owner);
  CANCEL_BACK(cancel);
}

static void estimate_persecond(int me)
{
  int cancel;
  (void)me; /* the estimate puts up no guard */
  CANCEL_OFF(cancel);
  chosen_persecond = estimate();
  publish(&persecond_owner);
  CANCEL_BACK(cancel);
}

/* What a call that cannot have the selection's results gets. A signal
   handler running inside its own thread's selection: the defaults
   (default-zero), whose 0 no later reading of the thread can be below. A
   process that may not select (foreign, a vfork child): the OS clock,
   which needs no selection and writes nothing, in nanoseconds, with an
   estimate to match; its readings are compared only among themselves,
   since it ends with _exit or exec. */
#define READY 1
#define NOT_NOW 0
#define OUTSIDER (-1)
#define OUTSIDER_NAME "default-monotonic"
#define OUTSIDER_PERSECOND 1000000000LL

/* Any number of threads may arrive here at once: one runs work (which
   ends by publishing DONE in *state), the others sleep until it does.
   Returns READY once the results are out; at once, NOT_NOW to a signal
   handler running inside this thread's own claim or work and OUTSIDER to
   a process that may not select (foreign). */
static int claim_or_wait(int *state, void (*work)(int me))
{
  for (;;) {
    int seen = __atomic_load_n(state, __ATOMIC_ACQUIRE), me, holder;
    if (seen == DONE) return READY;
    if (busy_here) return NOT_NOW;
    me = cpucycles_os_thread();
    if (foreign(me)) return OUTSIDER;
    holder = seen & ~WAITING;
    /* Our own id with busy_here clear, or one no thread here has: a claim
       that came with memory from another process, never to be published
       here, so it is taken over. */
    if (seen != 0 && holder != me && cpucycles_os_thread_alive(holder)) {
      /* Marked first, so that the publisher knows to wake us. */
      if (seen == holder &&
          !__atomic_compare_exchange_n(state, &seen, seen | WAITING, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE))
        continue;
      cpucycles_os_wait(state, holder | WAITING);
      continue;
    }
    tid_here = me;
    busy_here = 1;
    /* Sleepers on a claim taken over keep their mark. */
    if (__atomic_compare_exchange_n(state, &seen, me | (seen & WAITING), 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
      work(me);
      busy_here = 0;
      return READY;
    }
    busy_here = 0;
  }
}

/* errno as the caller left it: a first call made in a signal handler
   must not change it under the code it interrupted. */
static int once(int *state, void (*work)(int me))
{
  int *error, saved_errno, done;
  if (__atomic_load_n(state, __ATOMIC_ACQUIRE) == DONE) return READY;
  error = &CPUCYCLES_ERRNO; /* the thread's errno stays where it is */
  saved_errno = *error;
  done = claim_or_wait(state, work);
  *error = saved_errno;
  return done;
}

static int ready(void)
{
  return once(&owner, select_counter);
}

static long long first_call(void)
{
  int r = ready();
  if (r == READY) return cpucycles();
  return r == OUTSIDER ? cpucycles_os_ns() : 0;
}

long long cpucycles_persecond(void)
{
  int r = ready();
  if (r == OUTSIDER) return OUTSIDER_PERSECOND;
  /* Once the counter is out, a process that may not estimate reads it
     with the default estimate, as a handler inside the estimate does. */
  if (r != READY || once(&persecond_owner, estimate_persecond) != READY)
    return CPUCYCLES_PERSECOND_DEFAULT;
  return chosen_persecond;
}

const char *cpucycles_implementation(void)
{
  int r = ready();
  if (r == READY) return chosen_name;
  return r == OUTSIDER ? OUTSIDER_NAME : "default-zero";
}

const char *cpucycles_version(void)
{
  return CPUCYCLES_VERSION;
}

void cpucycles_tracesetup(void)
{
  if (__atomic_load_n(&owner, __ATOMIC_ACQUIRE) == 0) tracing = 1;
}
