/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* plain.c: test-runtimes' yardstick, a C program with no runtime and the
   default dispositions of the fault signals, making the process's first
   call from one thread or from CALLERS threads at once, as the runtimes'
   programs do. Arguments: one|many [BUSY [TIMER]]: BUSY threads spin all
   through the call, as a runtime's faulting threads keep the CPUs busy
   (without a fault: faults beside the call are what is tested); TIMER
   (microseconds) sends SIGALRM at that interval to a handler shaped like
   CPython's (no SA_SIGINFO, SA_ONSTACK, empty mask). Prints the witness's
   report and "after plain". */
#define _GNU_SOURCE /* SA_ONSTACK */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include "witness.h"

#define CALLERS 4
#define MAXBUSY 16
#define WARM 100 /* ticks before the call */

static volatile sig_atomic_t ticks;
static volatile int stop;
static volatile long spins[MAXBUSY];

static void tick(int sig)
{
  (void)sig;
  ticks = ticks + 1;
}

static void *spin(void *arg)
{
  volatile long *count = arg;
  while (!stop) *count = *count + 1;
  return 0;
}

static void *caller(void *arg)
{
  (void)arg;
  witness_call();
  return 0;
}

static void pause_ms(long n)
{
  struct timespec t = { 0, n * 1000000 };
  nanosleep(&t, 0);
}

int main(int argc, char **argv)
{
  pthread_t t[CALLERS], b[MAXBUSY];
  int i, n = argc > 1 && strcmp(argv[1], "many") == 0 ? CALLERS : 1;
  int busy = argc > 2 ? atoi(argv[2]) : 0;
  long timer = argc > 3 ? atol(argv[3]) : 0;

  if (busy < 0 || busy > MAXBUSY || timer < 0 || timer > 999999) return 2;
  for (i = 0; i < busy; ++i)
    if (pthread_create(&b[i], 0, spin, (void *)&spins[i]) != 0) return 2;
  if (timer) {
    struct sigaction sa;
    struct itimerval every;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tick;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    every.it_interval.tv_sec = every.it_value.tv_sec = 0;
    every.it_interval.tv_usec = every.it_value.tv_usec = timer;
    if (sigaction(SIGALRM, &sa, 0) != 0 || setitimer(ITIMER_REAL, &every, 0) != 0) return 2;
    while (ticks < WARM) pause_ms(1);
  }
  /* The runtimes make the call from a thread that polled for their
     threads' progress in millisecond sleeps. */
  for (i = 0; i < busy; ++i)
    while (spins[i] == 0) pause_ms(1);
  pause_ms(1);

  witness_before(n);
  if (n == 1) {
    witness_call();
  } else {
    for (i = 0; i < n; ++i)
      if (pthread_create(&t[i], 0, caller, 0) != 0) return 2;
    for (i = 0; i < n; ++i) pthread_join(t[i], 0);
  }
  witness_after();
  stop = 1;
  for (i = 0; i < busy; ++i) pthread_join(b[i], 0);
  printf("%s\nafter plain\n", witness_report());
  return 0;
}
