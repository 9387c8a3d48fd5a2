/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* os-silent.c: the answers of an OS that states nothing about the
   counters (os.h), compiled beside os-posix.c, os-macos.c and
   os-windows.c; Linux and FreeBSD answer for themselves. No switch is
   known that opens RDPMC to every process (macOS and Windows have none;
   Windows leaves CR4.PCE clear as far as is known), so the guarded probe
   decides; no PowerPC build of them states its time base's rate, so the
   selection measures it; and no setting of theirs is known to grant or
   refuse a counter. */
#include "internal.h"
#include "os.h"
#include "why.h"

int cpucycles_os_rdpmc_open(void)
{
  return -1;
}

long long cpucycles_os_timebase(void)
{
  return 0;
}

void cpucycles_os_why(const char *root, struct cpucycles_why *w)
{
  (void)root;
  w->privileged = -1;
}
