/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* ppc32-mftb: the 64-bit PowerPC time base on 32-bit PowerPC, MFTBU for
   the upper half and MFTB for the lower, scaled to cycles. Always
   readable from user code; off the core, at the rate /proc/cpuinfo
   states, or measured when it does not. */
#if !defined(__powerpc__) || defined(__powerpc64__)
#error "ppc32-mftb is for 32-bit PowerPC"
#endif
#include "hilo.h"
#include "timebase.h"

CPUCYCLES_HILO_READ(mftb32_read, "mftbu", "mftb")

COUNTER_DEFINE(mftb32_read, cpucycles_timebase_setup, 0);
