/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* perfrdcycle.h: the body of riscv64-perfrdcycle and riscv32-perfrdcycle,
   which differ only in the width rdcycle.h reads. Linux 6.6+ (with its
   default /proc/sys/kernel/perf_user_access 1) lets user mode read a
   counter CSR only while the thread's own mapped event is on it; anywhere
   else rdcycle raises SIGILL. So every thread counts with its own cycle
   event, opened and mapped on its first read (perf.c, "each thread's own
   events"), and reads a counter CSR only while that event's page names it
   under an unchanged sequence number (perfpage.h): the cycle CSR (index
   1), or on 64 bits the hpmcounter a hart with Sscofpmf gets the event
   on; otherwise the count comes through the descriptor. The page's offset
   makes the reading the thread's own count. Each counter file includes
   this once, after its architecture check. */
#include "rdcycle.h"

#define PERFUSER_CONFIG1 0
#define PERFUSER_ACCESS CPUCYCLES_ACCESS_EVENT

#if __riscv_xlen == 64
/* Any counter CSR the page names: the kernel puts a cycle event on the
   cycle CSR, or, where the hart has Sscofpmf (overflow interrupts, which
   the fixed cycle CSR lacks), on one of hpmcounter3-31, and enables user
   reads of that one CSR only. A CSR number is part of the instruction,
   hence one read per counter. */
#define HPM(k) \
  case k: __asm__ __volatile__("csrr %0, hpmcounter" #k : "=r"(v)); break;
static unsigned long long perfuser_counter(unsigned int n, void *arg)
{
  unsigned long long v = 0;
  (void)arg;
  switch (n) {
  case 0: __asm__ __volatile__("rdcycle %0" : "=r"(v)); break;
  case 1: __asm__ __volatile__("rdtime %0" : "=r"(v)); break;
  case 2: __asm__ __volatile__("rdinstret %0" : "=r"(v)); break;
  HPM(3) HPM(4) HPM(5) HPM(6) HPM(7) HPM(8) HPM(9) HPM(10) HPM(11) HPM(12) HPM(13)
  HPM(14) HPM(15) HPM(16) HPM(17) HPM(18) HPM(19) HPM(20) HPM(21) HPM(22) HPM(23)
  HPM(24) HPM(25) HPM(26) HPM(27) HPM(28) HPM(29) HPM(30) HPM(31)
  default: break;
  }
  return v;
}
#undef HPM
/* Any index the page gives (1 to 32: CSR 0 to 31). */
#define PERFUSER_ONLY 0
static int readable(unsigned int index)
{
  return index >= 1 && index <= 32;
}
#else
/* 32-bit: the cycle CSR alone (index 1), read in two halves; an event
   elsewhere is read through its descriptor. */
static unsigned long long perfuser_counter(unsigned int n, void *arg)
{
  (void)n;
  (void)arg;
  return (unsigned long long)cpucycles_rdcycle();
}
#define PERFUSER_ONLY 1
static int readable(unsigned int index)
{
  return index == 1;
}
#endif

#include "perfuser.h"

/* A page that names no counter this file reads (user access off, or on 32
   bits an event off the cycle CSR) would make every read a system call. */
static int perfuser_usable(struct cpucycles_setup *s)
{
  return (own.perf.n == 1 && readable(own.perf.page[0]->index) && perfuser_page_reads()) ||
         perfuser_page_refused(s, 0);
}
