/* perfrdcycle.h: the body of riscv64-perfrdcycle and riscv32-perfrdcycle,
   which differ only in the width rdcycle.h reads. Linux 6.6+ (with its
   default /proc/sys/kernel/perf_user_access 1) lets user mode read a
   counter CSR only while the thread's own mapped event is on it; anywhere
   else rdcycle raises SIGILL. So every thread counts with its own cycle
   event, opened and mapped on its first read (perf.c, "each thread's own
   events"), and executes rdcycle only while that event's page names the
   cycle CSR (index 1) under an unchanged sequence number (perfpage.h);
   otherwise the count comes through the descriptor. The page's offset
   makes the reading the thread's own count. Each counter file includes
   this once, after its architecture check. */
#include "counter.h"
#include "internal.h"
#include "perfpage.h"
#include "rdcycle.h"

/* The page's index of the cycle CSR. */
#define CYCLE_INDEX 1

static CPUCYCLES_THREAD_LOCAL struct cpucycles_perf_own own;
static struct cpucycles_perf_own *mine(void) { return &own; }

/* Hardware counter n: only the cycle CSR is read here (the owner's
   `only`); an event the kernel put on another (hpmcounterN, as qemu's
   sscofpmf does) is read through its descriptor. */
static unsigned long long cycle_csr(unsigned int n, void *arg)
{
  (void)n;
  (void)arg;
  return (unsigned long long)cpucycles_rdcycle();
}

static struct cpucycles_perf_owner owner = {
  PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, CPUCYCLES_PERF_MAP, mine, cycle_csr, CYCLE_INDEX
};

static long long perfrdcycle_read(void)
{
  long long c;
  if (own.perf.n == 1 && cpucycles_perfpage_count_at(own.perf.page[0], CYCLE_INDEX, cycle_csr, 0, &c))
    return c + own.shift;
  return cpucycles_perf_own_count(&owner);
}

static int perfrdcycle_setup(struct cpucycles_setup *s)
{
  long long c;
  if (cpucycles_perf_own_open(&owner) != 0) return -1;
  /* A page that does not name the cycle CSR (user access off, or the
     event on another counter) would make every read a system call. */
  if (own.perf.n != 1 ||
      !cpucycles_perfpage_count_at(own.perf.page[0], CYCLE_INDEX, cycle_csr, 0, &c)) {
    cpucycles_perf_own_close(&owner);
    return -1;
  }
  s->kind = CPUCYCLES_CORE;
  return 0;
}

static void perfrdcycle_release(void)
{
  cpucycles_perf_own_close(&owner);
}

COUNTER_DEFINE(perfrdcycle_read, perfrdcycle_setup, perfrdcycle_release);
