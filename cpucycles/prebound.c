/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* prebound.c: the table of prebound.h, filled in at load by the loader's
   relocations (const: relocated read-only data, like the GOT under
   RELRO). */
#define _GNU_SOURCE /* syscall() */
#include <errno.h>
#include <unistd.h>
#include "prebound.h"

const struct cpucycles_prebound cpucycles_prebound = {
  sigaction,
  sigprocmask,
  sigemptyset,
  sigaddset,
  sigismember,
  pthread_setcancelstate,
  getpid,
#ifdef __linux__
  syscall,
#endif
#ifdef __GLIBC__
  __errno_location,
#endif
};
