/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* runtimes.c: the first call beside fault handlers shaped like a
   language runtime's. The JVM and Go install theirs with SA_SIGINFO,
   SA_ONSTACK and SA_RESTART and every signal in sa_mask, run them on each
   thread's alternate stack, and fault on purpose all the time: a null
   dereference becomes an exception by the handler moving the interrupted
   PC. Checked, each in fresh children:
   - shapes: no handler of the program's, whatever its mask and flags, is
     taken for another copy's guard. A copy that took one would look at
     SIGILL's handler every millisecond waiting for a turn (the library's
     sigaction calls go through this program's, which counts them); the
     first call looks twice. And each handler is in place afterwards.
   - company: threads with alternate stacks fault in a loop while another
     makes the first call. Each fault reaches the program's handler with
     the kernel's siginfo (the page's address), on the thread's alternate
     stack (the handler asks sigaltstack, and aborts off it), and the
     handler steps over the faulting load by moving the PC in the context
     it was given, which must take effect when it returns.
   - time: the first call beside such handlers and faulting threads takes
     about what it takes beside the same threads under handlers with an
     empty mask (medians of fresh children; a copy waiting for a turn that
     never comes would add 100 ms), and the plain program's is shown.
   Thresholds: a shape is taken for a copy's guard at 5 looks at SIGILL's
   handler (a first call makes 2); the full-mask median must stay under
   twice the empty-mask one plus 20 ms. Where a plain first call takes
   over 2 ms (an emulator) the timing is skipped, with its figures, as
   its spread there exceeds any cost of the guard's: the looks are the
   check. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "child.h"
#include "forkable.h"
#include "interpose.h"
#include "sigcmp.h"

#define REPS check_reps(100)
#define TIMED check_reps(31)
#define THREADS 3
#define ALTSTACK 65536

static const int faults[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };

static volatile int counting, looks;
#ifndef NO_INTERPOSING
__attribute__((visibility("default"))) int sigaction(int sig, const struct sigaction *act,
                                                  struct sigaction *old)
{
  if (counting && sig == SIGILL && !act) __atomic_add_fetch(&looks, 1, __ATOMIC_RELAXED);
  return real_sigaction(sig, act, old);
}
#endif

/* A load whose fault the handler steps over: rt_fault is the faulting
   instruction, rt_after the one after it (a return). Where this file has
   no such load, a fault is left by siglongjmp and the step is not
   checked. */
#if defined(__x86_64__)
__asm__(".text\n.globl rt_load\n.hidden rt_load\n.type rt_load,@function\nrt_load:\n"
        ".globl rt_fault\n.hidden rt_fault\nrt_fault:\n  movl (%rdi), %eax\n"
        ".globl rt_after\n.hidden rt_after\nrt_after:\n  ret\n.size rt_load, .-rt_load\n");
#define PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#elif defined(__i386__)
__asm__(".text\n.globl rt_load\n.hidden rt_load\n.type rt_load,@function\nrt_load:\n"
        "  movl 4(%esp), %eax\n.globl rt_fault\n.hidden rt_fault\nrt_fault:\n  movl (%eax), %eax\n"
        ".globl rt_after\n.hidden rt_after\nrt_after:\n  ret\n.size rt_load, .-rt_load\n");
#define PC(uc) ((uc)->uc_mcontext.gregs[REG_EIP])
#elif defined(__aarch64__)
__asm__(".text\n.globl rt_load\n.hidden rt_load\n.type rt_load,%function\nrt_load:\n"
        ".globl rt_fault\n.hidden rt_fault\nrt_fault:\n  ldr w0, [x0]\n"
        ".globl rt_after\n.hidden rt_after\nrt_after:\n  ret\n.size rt_load, .-rt_load\n");
#define PC(uc) ((uc)->uc_mcontext.pc)
#endif
#ifdef PC
#define STEPS 1
int rt_load(volatile int *p);
extern char rt_fault[], rt_after[];
#else
#define STEPS 0
#include <setjmp.h>
static __thread sigjmp_buf back;
static int rt_load(volatile int *p)
{
  if (sigsetjmp(back, 1)) return 0; /* 1: the handler blocks every signal */
  return *p;
}
#endif

static volatile int *no_access;
static __thread volatile int stepped;
static volatile int stop, started;

static void runtime_handler(int sig, siginfo_t *info, void *context)
{
  stack_t ss;
  (void)sig;
  /* Off the alternate stack, or not this program's fault: what a
     runtime would die of. */
  if (sigaltstack(0, &ss) != 0 || !(ss.ss_flags & SS_ONSTACK)) abort();
  if (!info || info->si_code <= 0 || info->si_addr != (void *)no_access) abort();
  ++stepped;
#if STEPS
  {
    ucontext_t *uc = context;
    if ((uintptr_t)PC(uc) != (uintptr_t)rt_fault) abort();
    PC(uc) = (uintptr_t)rt_after;
  }
#else
  (void)context;
  siglongjmp(back, 1);
#endif
}

/* The handler on the four signals in this shape. */
static int install(void (*fn)(int, siginfo_t *, void *), int flags, const sigset_t *mask)
{
  struct sigaction sa;
  int i;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = fn;
  sa.sa_flags = SA_SIGINFO | flags;
  sa.sa_mask = *mask;
  for (i = 0; i < 4; ++i)
    if (sigaction(faults[i], &sa, 0) != 0) return -1;
  return 0;
}

static int handlers_unchanged(const struct sigaction before[4])
{
  int i;
  for (i = 0; i < 4; ++i) {
    struct sigaction now;
    if (sigaction(faults[i], 0, &now) != 0 || !same_action(&now, &before[i])) return 0;
  }
  return 1;
}

static long long now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Faults until told to stop, on its own alternate stack; exits the
   process with 64 when a fault was not stepped over exactly once. Pauses
   between faults (pause_ns) leave the CPU to the first call on a machine
   with one. */
static long pause_ns;
static void *faulter(void *arg)
{
  stack_t ss, old;
  long calls = 0;
  (void)arg;
  ss.ss_sp = malloc(ALTSTACK);
  ss.ss_size = ALTSTACK;
  ss.ss_flags = 0;
  if (!ss.ss_sp || sigaltstack(&ss, &old) != 0) _exit(16);
  __atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
  while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
    rt_load(no_access);
    if (++calls != stepped) _exit(64);
    if (pause_ns) {
      struct timespec t = { 0, pause_ns };
      nanosleep(&t, 0);
    }
  }
  sigaltstack(&old, 0); /* a sanitizer's runtime unmaps the one it set up */
  return 0;
}

/* Shared with the children: each one's first-call time, at slot. */
static long long *times;
static int slot;
/* A child's scenario, set before each held_child. */
static int shape_flags, threads;
static sigset_t shape_mask;

/* Exit bits: 1 a shape was taken for a copy's (looked at SIGILL as a
   waiting copy does), 2 the handlers changed, 16 setup trouble, 64 a
   fault not stepped over; abort (SIGABRT) a fault off the alternate
   stack or without its siginfo. */
static int company(void)
{
  struct sigaction before[4];
  pthread_t t[THREADS];
  long long t0;
  int i, bad = 0;

  no_access = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (no_access == MAP_FAILED || install(runtime_handler, shape_flags, &shape_mask) != 0) return 16;
  for (i = 0; i < 4; ++i)
    if (sigaction(faults[i], 0, &before[i]) != 0) return 16;
  for (i = 0; i < threads; ++i)
    if (pthread_create(&t[i], 0, faulter, 0) != 0) return 16;
  while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < threads) sched_yield();
  counting = 1;
  t0 = now_ns();
  cpucycles();
  times[slot] = now_ns() - t0;
  counting = 0;
  __atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
  for (i = 0; i < threads; ++i) pthread_join(t[i], 0);
  if (looks >= 5) bad |= 1;
  if (!handlers_unchanged(before)) bad |= 2;
  return bad;
}

static int plain(void)
{
  long long t0 = now_ns();
  cpucycles();
  times[slot] = now_ns() - t0;
  return 0;
}

/* The runtime handler in this shape, with n faulting threads. */
static int one(int flags, const sigset_t *mask, int n)
{
  shape_flags = flags;
  shape_mask = *mask;
  threads = n;
  return held_child(company, 20);
}

static void mark_three(sigset_t *s)
{
  sigaddset(s, SIGXCPU);
  sigaddset(s, SIGXFSZ);
  sigaddset(s, SIGTTOU);
}

static int cmp(const void *a, const void *b)
{
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

static long long median(long long *v, int n)
{
  qsort(v, (size_t)n, sizeof v[0], cmp);
  return v[n / 2];
}

int main(void)
{
  const char *why = interpose_why_not();
  sigset_t mask;
  long long plain_median, empty_median, busy_median;
  int r, k, status, bits = 0, died = 0, sig = 0;
  unsigned seed = 12345;

  if (fork_skipped("runtimes")) return 0;
  times = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (times == MAP_FAILED) {
    CHECK(0, "a shared page for the children's times");
    return check_done();
  }

  /* Shapes. The handler is the runtime one; no thread faults. */
  if (why) {
    SKIP("runtimes: shapes counted by the program's sigaction: %s", why);
  } else {
    static const struct {
      const char *what;
      int flags, fill, three, extra;
    } shapes[] = {
      { "the runtimes' (SA_ONSTACK|SA_RESTART, every signal)", SA_ONSTACK | SA_RESTART, 1, 0, 0 },
      { "every signal with SA_NODEFER", SA_NODEFER, 1, 0, 0 },
      { "an empty mask", 0, 0, 0, 0 },
      { "the library's three mark signals alone, SA_NODEFER", SA_NODEFER, 0, 1, 0 },
      { "the three and SIGUSR1, SA_NODEFER", SA_NODEFER, 0, 1, SIGUSR1 },
      { "the three and SIGRTMIN+3, SA_ONSTACK", SA_ONSTACK, 0, 1, 35 },
    };
    for (k = 0; k < (int)(sizeof shapes / sizeof shapes[0]); ++k) {
      sigemptyset(&mask);
      if (shapes[k].fill) sigfillset(&mask);
      if (shapes[k].three) mark_three(&mask);
      if (shapes[k].extra) sigaddset(&mask, shapes[k].extra);
      status = one(shapes[k].flags, &mask, 0);
      CHECK(status == 0, "a handler with %s is not taken for another copy's guard, and "
            "is in place afterwards (exit %d: 1 taken, 2 changed, 256 + a signal)",
            shapes[k].what, status);
    }
    /* Any other subset that holds the three. */
    for (r = 0; r < 24; ++r) {
      int flags = 0, s;
      sigemptyset(&mask);
      mark_three(&mask);
      for (s = 1; s < 65; ++s) {
        seed = seed * 1103515245u + 12345u;
        if (seed >> 28 & 1) sigaddset(&mask, s);
      }
      seed = seed * 1103515245u + 12345u;
      flags = (seed >> 20 & 1 ? SA_NODEFER : 0) | (seed >> 21 & 1 ? SA_ONSTACK : 0) |
              (seed >> 22 & 1 ? SA_RESTART : 0);
      status = one(flags, &mask, 0);
      if (status != 0) bits |= status < 256 ? status : 0;
      if (status >= 256) died = 1, sig = status - 256;
    }
    CHECK(!bits && !died, "24 random masks holding the three mark signals, random flags: "
          "none taken for a copy's guard, all in place afterwards (bits %#x, signal %d)", bits, sig);
  }

  /* Company: threads faulting on their alternate stacks. */
  sigfillset(&mask);
  bits = died = sig = 0;
  for (r = 0; r < REPS; ++r) {
    status = one(SA_ONSTACK | SA_RESTART, &mask, THREADS);
    if (status == 0) continue;
    if (status < 256) bits |= status;
    else died = 1, sig = status - 256;
  }
  CHECK(!died, "%d threads on alternate stacks faulting through %d first calls: every "
        "fault reached the program's handler on the thread's alternate stack with the kernel's "
        "siginfo (a child killed by signal %d: 6 is the handler's abort)", THREADS, REPS, sig);
  CHECK(!(bits & 64), "%s", STEPS ? "the handler's move of the PC past the faulting load took "
        "effect every time" : "every fault was recovered from (this CPU has no stepping load here)");
  CHECK(!(bits & 2), "the runtime-shaped handlers are in place after the first call");
  CHECK(!(bits & ~(2 | 64)), "and were not taken for a copy's, every child set up and no "
        "sanitizer complained (exit bits %#x: 1 taken, 16 setup, others a sanitizer's)", bits);
  if (!STEPS) SKIP("runtimes: stepping over a fault by editing the context: no load written for this CPU");

  /* Time: medians of fresh children, interleaved: the plain program;
     the same faulting threads (pausing between faults, so that on one
     CPU the first call is not simply starved) under the runtime handler
     with an empty mask; and under the runtime's full mask. The last two
     differ in the mask alone, which a copy once took for another's. */
  pause_ns = 20000;
  bits = 0;
  for (r = 0; r < TIMED; ++r) {
    sigset_t empty;
    sigemptyset(&empty);
    slot = r;
    held_child(plain, 20);
    slot = TIMED + r;
    bits |= one(SA_ONSTACK | SA_RESTART, &empty, THREADS);
    slot = 2 * TIMED + r;
    bits |= one(SA_ONSTACK | SA_RESTART, &mask, THREADS);
  }
  plain_median = median(times, TIMED);
  empty_median = median(times + TIMED, TIMED);
  busy_median = median(times + 2 * TIMED, TIMED);
  /* Under an emulator a first call takes milliseconds and its time
     varies more than any cost of the guard's: there the looks counted
     above are the check. */
  if (plain_median > 2000000) {
    SKIP("runtimes: the first call's time beside runtime handlers: a plain first call takes %lld us "
         "here (an emulator?), too slow and too spread to compare (%lld us beside full masks, "
         "%lld us beside empty ones)", plain_median / 1000, busy_median / 1000, empty_median / 1000);
    CHECK(bits == 0, "the timed children exited cleanly (bits %#x)", bits);
    return check_done();
  }
  CHECK(bits == 0 && busy_median < 2 * empty_median + 20000000,
        "the first call beside faulting threads under full-mask runtime handlers, "
        "median of %d: %lld us, against %lld us under the same handlers with an empty mask "
        "(allowed: twice that and 20 ms; %lld us in a plain program; exit bits %#x)",
        TIMED, busy_median / 1000, empty_median / 1000, plain_median / 1000, bits);
  return check_done();
}
