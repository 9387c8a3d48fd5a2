/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* witness.c: the native side of test-runtimes (witness.h), a shared object
   linked with the library, loaded by every runtime's program alike. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <cpucycles.h>
#include "barrier.h"
#include "witness.h"

#define NSIGS 4
static const int sigs[NSIGS] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };
static const char *const names[NSIGS] = { "ILL", "FPE", "BUS", "SEGV" };

/* What the kernel holds for a signal: the handler's address, the flags
   and the mask over signals 1..64 (bit k-1 for signal k). */
struct held {
  unsigned long handler, flags;
  unsigned long long mask;
};

#if defined(__linux__) && defined(__x86_64__)
/* The kernel's own layout, read by the system call itself: a preloaded
   sigaction (the JVM's libjsig) answers with what it keeps for chaining,
   not with what is installed. */
#define RESTORER 0x04000000UL /* the kernel's SA_RESTORER here */
struct kernel_action {
  unsigned long handler, flags, restorer;
  unsigned long long mask;
};

static int read_action(int sig, struct held *h)
{
  struct kernel_action k;
  if (syscall(SYS_rt_sigaction, sig, (void *)0, &k, sizeof k.mask) != 0) return -1;
  h->handler = k.handler;
  h->flags = k.flags;
  h->mask = k.mask;
  return 0;
}
#else
#define RESTORER 0UL
/* Elsewhere through libc, which asks the kernel each time. */
static int read_action(int sig, struct held *h)
{
  struct sigaction sa;
  int k;
  if (sigaction(sig, 0, &sa) != 0) return -1;
  h->handler = (sa.sa_flags & SA_SIGINFO) ? (unsigned long)sa.sa_sigaction
                                          : (unsigned long)sa.sa_handler;
  h->flags = (unsigned long)sa.sa_flags;
  h->mask = 0;
  for (k = 1; k <= 64; ++k)
    if (sigismember(&sa.sa_mask, k) == 1) h->mask |= 1ULL << (k - 1);
  return 0;
}
#endif

static struct held before[NSIGS], after[NSIGS];
static int read_failed;
static struct barrier start;
static int callers;
static long long longest; /* nanoseconds, under start.lock */
static int calls;
static char report[2048];

static void read_all(struct held *h)
{
  int i;
  for (i = 0; i < NSIGS; ++i)
    if (read_action(sigs[i], &h[i]) != 0) read_failed = 1;
}

void witness_before(int n)
{
  callers = n;
  barrier_init(&start, n);
  read_all(before);
}

static long long now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

long long witness_call(void)
{
  long long t0, t1;
  if (callers > 1) barrier_wait(&start);
  t0 = now();
  cpucycles();
  t1 = now();
  pthread_mutex_lock(&start.lock);
  if (t1 - t0 > longest) longest = t1 - t0;
  ++calls;
  pthread_mutex_unlock(&start.lock);
  return t1 - t0;
}

void witness_after(void)
{
  read_all(after);
}

/* The restorer flag aside: libc adds it to whatever it installs, a
   default given back included, where the kernel never uses it. */
static int same(const struct held *a, const struct held *b)
{
  return a->handler == b->handler && (a->flags & ~RESTORER) == (b->flags & ~RESTORER) &&
         a->mask == b->mask;
}

static size_t put(size_t at, const char *format, const struct held *h, const char *name)
{
  if (at >= sizeof report) return at;
  return at + (size_t)snprintf(report + at, sizeof report - at, format, name, h->handler, h->flags,
                               h->mask);
}

const char *witness_report(void)
{
  size_t at;
  int i, differ = read_failed;

  for (i = 0; i < NSIGS; ++i) differ |= !same(&before[i], &after[i]);
  at = (size_t)snprintf(report, sizeof report, "firstcall %lld %d %s\nhandlers %s", longest, calls,
                        cpucycles_implementation(), read_failed ? "unreadable" : differ ? "differ" : "same");
  for (i = 0; i < NSIGS; ++i) {
    at = put(at, " %s=%#lx/%#lx/%016llx", &after[i], names[i]);
    if (!same(&before[i], &after[i])) at = put(at, " (%s was %#lx/%#lx/%016llx)", &before[i], names[i]);
  }
  return report;
}
