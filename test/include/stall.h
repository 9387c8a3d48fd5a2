/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* stall.h: hold one thread at a known point while another acts, without
   locks the code under test could notice: a flag raised by one side and
   awaited, with a deadline, by the other. */
#ifndef STALL_H
#define STALL_H
#include <sched.h>
#include <time.h>

static double stall_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void stall_raise(volatile int *flag)
{
  __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
}

/* 1 once *flag is raised, 0 after `seconds` without. */
static int stall_await(volatile int *flag, double seconds)
{
  double deadline = stall_now() + seconds;
  while (!__atomic_load_n(flag, __ATOMIC_SEQ_CST)) {
    if (stall_now() > deadline) return 0;
    sched_yield();
  }
  return 1;
}
#endif
