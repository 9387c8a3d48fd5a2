/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* floor.h: the cheapest possible read of the instruction the library's
   counter uses on this architecture, inlined: what cpucycles() is compared
   against. BENCH_FLOOR names the instruction. Only x86 has one: elsewhere
   the winning instruction depends on the kernel and the emulator, and many
   tick at a rate of their own that only the library's scaling turns into
   cycles. */
#ifndef BENCH_FLOOR_H
#define BENCH_FLOOR_H

#if defined(__x86_64__) || defined(__i386__)
#define BENCH_FLOOR "inline-rdtsc"
static inline long long bench_floor_read(void)
{
  unsigned int lo, hi;
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
  return (long long)(((unsigned long long)hi << 32) | lo);
}
#endif

#endif
