/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* os-posix.c: any Unix-like system configure has no layer for (FreeBSD,
   NetBSD, Hurd, ...), see os.h. It asks nothing beyond POSIX, so each
   question gets the answer that sends the library to its own measurement:
   persecond falls through to the environment and the default, RDPMC to
   the guarded probe, the time base to measuring it. */
#include "internal.h"
#include "os.h"

long long cpucycles_os_persecond(const char *root)
{
  (void)root;
  return 0;
}

int cpucycles_os_rdpmc_open(void)
{
  return -1;
}

long long cpucycles_os_timebase(void)
{
  return 0;
}
