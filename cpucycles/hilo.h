/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * hilo.h: a 64-bit counter that a 32-bit CPU reads in two halves, one
 * instruction each (PowerPC's time base, RISC-V's cycle CSR). The low half
 * can carry into the high half between the two reads; a high half that
 * did not change around the low read makes them a pair.
 */
#ifndef CPUCYCLES_HILO_H
#define CPUCYCLES_HILO_H

/* Defines static inline long long name(void), reading the high half with
   the instruction named by the string high and the low half with low. */
#define CPUCYCLES_HILO_READ(name, high, low)                          \
  static inline long long name(void)                                  \
  {                                                                   \
    unsigned int hi, lo, again;                                       \
    do {                                                              \
      __asm__ __volatile__(high " %0" : "=r"(hi));                    \
      __asm__ __volatile__(low " %0" : "=r"(lo));                     \
      __asm__ __volatile__(high " %0" : "=r"(again));                 \
    } while (hi != again);                                            \
    return (long long)(((unsigned long long)hi << 32) | lo);          \
  }

#endif
