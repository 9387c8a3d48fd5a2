/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* prebound.c: the pointers of prebound.h, filled in at load by the
   loader's relocations (const: relocated read-only data, like the GOT
   under RELRO). */
#define _GNU_SOURCE /* syscall() */
#include <errno.h>
#include <unistd.h>
#include "prebound.h"

int (*const LIBC(sigaction))(int, const struct sigaction *, struct sigaction *) = sigaction;
int (*const LIBC(sigprocmask))(int, const sigset_t *, sigset_t *) = sigprocmask;
int (*const LIBC(sigemptyset))(sigset_t *) = sigemptyset;
int (*const LIBC(sigaddset))(sigset_t *, int) = sigaddset;
int (*const LIBC(sigismember))(const sigset_t *, int) = sigismember;
int (*const LIBC(pthread_setcancelstate))(int, int *) = pthread_setcancelstate;
pid_t (*const LIBC(getpid))(void) = getpid;
#ifdef __linux__
long (*const LIBC(syscall))(long, ...) = syscall;
#endif
#ifdef __GLIBC__
int *(*const LIBC(errno_location))(void) = __errno_location;
#endif
