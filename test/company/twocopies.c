/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* twocopies.c: two copies of the library in one process, the program's
   shared one and a plugin's own (test/company/plugin.c), both making their
   first call at once. Afterwards the program's fault handlers are the
   ones in place, each copy works, and once the plugin is unloaded a real
   fault reaches the program's handler, not code that is gone. Each try
   is a fresh child, with the plugin loaded there.
   The copies hand the fault handlers to each other by sigaction, which
   cannot compare and swap, so the dangerous instants sit between two
   calls, or between one and the store of what it returned. Both copies
   call sigaction through the program (the executable comes first in
   symbol lookup), so during the race this file's own sigaction waits
   100 us after each one on a fault signal, holding every such instant
   open; a signal sent to the racing threads often, whose handler sleeps
   a little, holds them at other points (a pending signal is delivered as
   a thread leaves a system call). Meanwhile a probe's fault (SIGILL from
   PMCCNTR_EL0 under qemu-user) must never reach the program's handler,
   and a third thread's real faults, which stand for a probe's where no
   probe faults, must reach the program's handler every time: never the
   default action, which kills.
   Two more scenarios, one child each (not under the sanitizers, whose
   runtimes own sigaction): a copy whose first call runs in a handler that
   interrupted the other copy's turn in the same thread must guard over
   it at once, not wait (counted in its looks at SIGILL's handler); and a
   copy must wait for a copy nested over it for as long as that copy's
   thread runs, however long the wall clock says (see stalled() below). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cpucycles.h>
#include "barrier.h"
#include "check.h"
#include "child.h"
#include "forkable.h"

#define REPS check_reps(300)

static const int faults[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };
static void program_handler(int sig, siginfo_t *info, void *ctx);

/* AddressSanitizer's runtime has its own sigaction, which this one
   would bypass: there the race runs unwidened. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NO_WIDENING 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NO_WIDENING 1
#endif
static volatile int widening;
#ifndef NO_WIDENING
static volatile int interrupt_at_turn, counting_looks, looks;
static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);
static void at_guard(int sig);

__attribute__((visibility("default"))) int sigaction(int sig, const struct sigaction *act,
                                                  struct sigaction *old)
{
  static const struct timespec t = { 0, 100000 };
  int r = real_sigaction(sig, act, old), i;
  if (counting_looks && sig == SIGILL && !act) ++looks;
  /* A copy has just taken its turn (its guard on SIGILL): a signal
     handler interrupts it here. */
  if (r == 0 && interrupt_at_turn && sig == SIGILL && act && (act->sa_flags & SA_SIGINFO)) {
    interrupt_at_turn = 0;
    raise(SIGUSR2);
  }
  if (r == 0 && widening)
    for (i = 0; i < 4; ++i)
      if (sig == faults[i]) nanosleep(&t, 0);
  /* A copy's guard (not the program's handler) has just gone in. */
  if (r == 0 && act && (act->sa_flags & SA_SIGINFO) && act->sa_sigaction != program_handler)
    at_guard(sig);
  return r;
}

static int widen_ready(void)
{
  real_sigaction = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
  return real_sigaction != 0;
}
#else
static int widen_ready(void)
{
  return 1;
}
#endif
static char plugin_path[PATH_MAX];
static struct barrier start;
static int (*plugin_first_call)(void);
static volatile int plugin_ok, program_ok, program_faults, plugin_done, program_done, recovering;
static volatile int *no_access;
static sigjmp_buf recover;
static __thread sigjmp_buf fault_again;
static __thread volatile int faulting;

/* Reached during the first calls only by a probe's fault that a copy
   passed on: 32. */
static void program_handler(int sig, siginfo_t *info, void *ctx)
{
  (void)info;
  (void)ctx;
  if (faulting) siglongjmp(fault_again, 1);
  if (!recovering) _exit(32);
  if (sig == SIGSEGV) ++program_faults;
  siglongjmp(recover, 1);
}

/* Long enough for the other thread to make several system calls. */
static void stall(int sig)
{
  struct timespec t = { 0, 50000 };
  (void)sig;
  nanosleep(&t, 0);
}

static int handlers_are_programs(void)
{
  int i;
  for (i = 0; i < 4; ++i) {
    struct sigaction now;
    if (sigaction(faults[i], 0, &now) != 0) return 0;
    if (!(now.sa_flags & SA_SIGINFO) || now.sa_sigaction != program_handler) return 0;
  }
  return 1;
}

static void *in_plugin(void *arg)
{
  (void)arg;
  barrier_wait(&start);
  plugin_ok = plugin_first_call();
  __atomic_store_n(&plugin_done, 1, __ATOMIC_RELEASE);
  return 0;
}

static void *in_program(void *arg)
{
  (void)arg;
  barrier_wait(&start);
  program_ok = cpucycles_implementation() && cpucycles() <= cpucycles();
  __atomic_store_n(&program_done, 1, __ATOMIC_RELEASE);
  return 0;
}

/* 8 unless a fault on an inaccessible page reaches the program's handler. */
static int real_fault(void)
{
  volatile int *page = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return 16;
  recovering = 1;
  if (!sigsetjmp(recover, 1)) *page = 1;
  return program_faults == 1 ? 0 : 8;
}

/* Real faults, each taken by the program's handler, until both first
   calls are done. */
static void *fault_on(void *arg)
{
  (void)arg;
  faulting = 1;
  barrier_wait(&start);
  while (!__atomic_load_n(&plugin_done, __ATOMIC_ACQUIRE) ||
         !__atomic_load_n(&program_done, __ATOMIC_ACQUIRE))
    if (!sigsetjmp(fault_again, 1)) *no_access = 1;
  return 0;
}

/* Until both first calls are done, each racing thread gets a stalling
   signal every 20 us or so, for HOLD_UP_NS at most: on a slow machine (a
   loaded one-CPU guest under qemu-system) an endless storm of 50 us
   stalls every 20 us starved the first calls past the try's 20 s. */
#define HOLD_UP_NS 50000000LL
static long long monotonic_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void hold_up(pthread_t t1, pthread_t t2)
{
  struct timespec t = { 0, 20000 };
  long long until = monotonic_ns() + HOLD_UP_NS;
  for (;;) {
    int a = __atomic_load_n(&plugin_done, __ATOMIC_ACQUIRE);
    int b = __atomic_load_n(&program_done, __ATOMIC_ACQUIRE);
    if ((a && b) || monotonic_ns() > until) return;
    if (!a) pthread_kill(t1, SIGUSR1);
    if (!b) pthread_kill(t2, SIGUSR1);
    nanosleep(&t, 0);
  }
}

/* The program's handler on the four faults, handler on sig (with
   SA_RESTART), and the plugin loaded: the plugin, or 0. */
static void *set_up(int sig, void (*handler)(int))
{
  struct sigaction sa;
  void *plugin;
  int i;

  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = program_handler;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  for (i = 0; i < 4; ++i)
    if (sigaction(faults[i], &sa, 0) != 0) return 0;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(sig, &sa, 0) != 0) return 0;
  plugin = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
  if (!plugin) return 0;
  plugin_first_call = (int (*)(void))dlsym(plugin, "plugin_first_call");
  return plugin_first_call ? plugin : 0;
}

/* Exit bits: 1 the plugin's copy or the program's did not work, 2 not
   the program's handlers after both first calls, 4 not after the
   plugin's unloading, 8 a real fault did not reach the program's
   handler, 16 setup trouble, 32 a fault during the first calls reached
   the program's handler. A fault into unloaded code, or one passed to
   the default action, kills the child instead. */
static int one(void)
{
  pthread_t t1, t2, t3;
  void *plugin = set_up(SIGUSR1, stall);
  int bad = 0;

  no_access = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (!plugin || no_access == MAP_FAILED || barrier_init(&start, 3) != 0) return 16;
  widening = 1;
  if (pthread_create(&t1, 0, in_plugin, 0) != 0 || pthread_create(&t2, 0, in_program, 0) != 0 ||
      pthread_create(&t3, 0, fault_on, 0) != 0)
    return 16;
  hold_up(t1, t2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  widening = 0;
  if (!plugin_ok || !program_ok) bad |= 1;
  if (!handlers_are_programs()) bad |= 2;
  dlclose(plugin);
  if (!handlers_are_programs()) bad |= 4;
  return bad | real_fault();
}

#ifndef NO_WIDENING
/* The plugin's first call in a signal handler that interrupts the
   program's copy just after it took its turn, in the same thread: the
   interrupted copy cannot finish first, so the plugin's must guard over
   it at once rather than wait for it. A waiting copy looks at SIGILL's
   handler every millisecond until its wait ends (100 ms); one that
   guards at once looks twice, at its turn and at its end. Counted, not
   timed: a slow emulator's selection may itself take 100 ms. */
#define AT_ONCE_LOOKS 10

static void first_call_in_handler(int sig)
{
  (void)sig;
  counting_looks = 1;
  plugin_ok = plugin_first_call();
  counting_looks = 0;
}

/* Exit bits as for one(), and 64: the plugin's copy looked at SIGILL's
   handler AT_ONCE_LOOKS times or more, as a waiting copy does. */
static int interrupted(void)
{
  void *plugin = set_up(SIGUSR2, first_call_in_handler);
  int bad = 0;

  if (!plugin) return 16;
  interrupt_at_turn = 1;
  program_ok = cpucycles_implementation() && cpucycles() <= cpucycles();
  if (interrupt_at_turn) return 16;
  if (!plugin_ok || !program_ok) bad |= 1;
  if (looks >= AT_ONCE_LOOKS) bad |= 64;
  if (!handlers_are_programs()) bad |= 2;
  dlclose(plugin);
  if (!handlers_are_programs()) bad |= 4;
  return bad | real_fault();
}

/* A copy nested over the other's guard, whose thread then runs on
   slowly, as on a loaded machine or a virtual CPU its host has stalled:
   the program's copy, just after taking its turn, sleeps 300 ms, long
   enough for the plugin's copy, waiting for the turn, to find its thread
   idle and nest over it; the plugin's thread, once its guard is in for
   SIGSEGV, spins for SPIN_S seconds, running all along, while the
   program's copy reaches its end and waits for it to give back. That
   wait must last until the plugin's copy is done, whatever the wall
   clock says: one that gives up leaves the plugin's handler in place,
   and the plugin's end then puts the program's copy's handler back for
   good.
   The plugin's first call starts only once the program's copy holds the
   turn (program_turn): started at once, it could take the turn first,
   or make the exchange a copy makes when its look raced another's
   install, and then puts back at once; a sleep there (the first
   SIGILL install to reach at_guard was once that one, under load) is a
   copy stopped mid-exchange, whose idle bound is the other's to take
   (copies.c's struct wait), not this scenario. */
#define STALL_NS 300000000L
#define SPIN_S 1.6
static volatile int spin_plugin_guard, program_turn;
static pthread_t program_thread, plugin_thread;

static void at_guard(int sig)
{
  static const struct timespec stall = { 0, STALL_NS };
  if (sig == SIGILL && pthread_equal(pthread_self(), program_thread) &&
      !__atomic_exchange_n(&program_turn, 1, __ATOMIC_SEQ_CST))
    nanosleep(&stall, 0);
  if (sig == SIGSEGV && pthread_equal(pthread_self(), plugin_thread) &&
      __atomic_exchange_n(&spin_plugin_guard, 0, __ATOMIC_SEQ_CST)) {
    long long until = monotonic_ns() + (long long)(SPIN_S * 1e9);
    while (monotonic_ns() < until) continue;
  }
}

static void *in_plugin_after_turn(void *arg)
{
  static const struct timespec ms = { 0, 1000000 };
  (void)arg;
  /* (or once the program's first call is done, should it take no turn:
     the scenario then checks the handlers alone, and does not hang) */
  while (!__atomic_load_n(&program_turn, __ATOMIC_SEQ_CST) &&
         !__atomic_load_n(&program_done, __ATOMIC_ACQUIRE))
    nanosleep(&ms, 0);
  plugin_ok = plugin_first_call();
  return 0;
}

/* Exit bits as for one(). */
static int stalled(void)
{
  void *plugin = set_up(SIGUSR1, stall);
  int bad = 0;
  if (!plugin) return 16;
  program_thread = pthread_self();
  spin_plugin_guard = 1;
  if (pthread_create(&plugin_thread, 0, in_plugin_after_turn, 0) != 0) return 16;
  program_ok = cpucycles_implementation() && cpucycles() <= cpucycles();
  __atomic_store_n(&program_done, 1, __ATOMIC_RELEASE);
  pthread_join(plugin_thread, 0);
  if (!plugin_ok || !program_ok) bad |= 1;
  if (!handlers_are_programs()) bad |= 2;
  dlclose(plugin);
  if (!handlers_are_programs()) bad |= 4;
  return bad | real_fault();
}
#endif

int main(int argc, char **argv)
{
  char self[PATH_MAX];
  int r, failed = 0, bits = 0, died = 0, st = 0;
  (void)argc;
  snprintf(self, sizeof self, "%s", argv[0]);
  snprintf(plugin_path, sizeof plugin_path, "%s/../lib/plugin.so", dirname(self));
  if (access(plugin_path, R_OK) != 0) {
    SKIP("twocopies: no %s next to the tests (a guest that copied test/bin alone)", plugin_path);
    return 0;
  }
  if (fork_skipped("twocopies")) return 0;
  if (!widen_ready()) {
    SKIP("twocopies: no sigaction found after the program's own");
    return 0;
  }
  for (r = 0; r < REPS; ++r) {
    int status = held_child(one, 20);
    if (status == 0) continue;
    ++failed;
    if (status < 256) bits |= status;
    else died = 1, st = status - 256;
  }
  CHECK(!(bits & 16), "the plugin with its own copy loads and runs (%d tries)", REPS);
  CHECK(!(bits & 32), "no fault of a copy's probe reached the program's handler");
  CHECK(!died, "no child died: every other thread's fault reached the program's handler, not the "
        "default action, and none went into unloaded code (%d of %d tries failed, of signal %d)",
        failed, REPS, st);
  CHECK(!(bits & 1), "both copies work after their first calls at once");
  CHECK(!(bits & 2), "the program's four fault handlers are in place after both first calls");
  CHECK(!(bits & 4), "and after the plugin is unloaded");
  CHECK(!(bits & 8), "a real fault after the unloading reaches the program's handler "
        "(%d of %d tries failed, bits %#x)", failed, REPS, bits);
#ifndef NO_WIDENING
  r = held_child(interrupted, 20);
  CHECK(r == 0, "a first call in a handler that interrupts the other copy's turn in its thread "
        "guards over it at once, without waiting, and both copies leave the program's handlers "
        "(exit %d: bits as above, 64 it waited, 256 + a signal)", r);
  r = held_child(stalled, 20);
  CHECK(r == 0, "a copy waits for the copy nested over it to give back for as long as that "
        "copy's thread runs (%.1f s here), and both leave the program's handlers (exit %d: "
        "bits as above, 256 + a signal)", SPIN_S, r);
#endif
  return check_done();
}
