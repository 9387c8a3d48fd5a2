/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* timebase.h: the rate of the PowerPC time base, shared by ppc32-mftb and
   ppc64-mftb. Linux states it in /proc/cpuinfo ("timebase", read by
   os-linux.c); where the line is missing (emulators show the host's file) the selection measures
   the rate instead. */
#ifndef CPUCYCLES_TIMEBASE_H
#define CPUCYCLES_TIMEBASE_H
#include "internal.h"
#include "os.h"

static inline int cpucycles_timebase_setup(struct cpucycles_setup *s)
{
  cpucycles_setup_rate(s, cpucycles_os_timebase());
  return 0;
}

#endif
