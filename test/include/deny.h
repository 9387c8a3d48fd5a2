/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* deny.h: a seccomp filter, in plain BPF (no libseccomp), that fails some
   system calls with a chosen errno, as a sandbox or a container's profile
   would. Needs _GNU_SOURCE; Linux only. HAVE_SECCOMP_HEADERS says whether
   the kernel's headers are there: a C library need not ship them (musl-gcc
   sees none), and a test without them skips. */
#ifndef DENY_H
#define DENY_H
#if defined(__has_include)
#if __has_include(<linux/seccomp.h>) && __has_include(<linux/filter.h>)
#include <errno.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#define HAVE_SECCOMP_HEADERS 1

/* Installs a filter failing the n system calls nrs (n at most 4) with err
   for this thread and those it makes, then checks it took: an emulator
   may refuse or not apply it. 0, or -1. */
static int deny_calls(const long *nrs, int n, int err)
{
  struct sock_filter f[8];
  struct sock_fprog prog;
  int k = 0, i;

  if (n < 1 || n > 4) return -1;
  f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
  for (i = 0; i < n; ++i)
    f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nrs[i],
                                          (unsigned char)(n - i), 0);
  f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err);
  prog.len = (unsigned short)k;
  prog.filter = f;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) return -1;
  errno = 0;
  if (syscall(nrs[0], 0, 0, 0, 0, 0) != -1 || errno != err) return -1;
  return 0;
}
#endif
#endif
#endif
