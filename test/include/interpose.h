/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* interpose.h: a test's own sigaction, standing in front of libc's. The
   library calls sigaction through the program (on ELF systems the
   executable comes first in symbol lookup, also for the pointers the
   library's loader fills), so a test that defines sigaction sees, and
   can act in, every instant between the library's calls. The test
   defines it (unless NO_INTERPOSING), calling real_sigaction, once
   interpose_why_not() said nothing against it. Under AddressSanitizer or
   ThreadSanitizer, whose runtimes intercept sigaction themselves, the
   test skips. */
#ifndef INTERPOSE_H
#define INTERPOSE_H
#include <dlfcn.h>
#include <signal.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NO_INTERPOSING 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NO_INTERPOSING 1
#endif

#ifndef NO_INTERPOSING
static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);
#endif

/* 0 once the test's sigaction can stand in front of libc's, else why not. */
static const char *interpose_why_not(void)
{
#ifdef NO_INTERPOSING
  return "the sanitizer's runtime owns sigaction, which this test would have to stand in front of";
#else
  real_sigaction =
      (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
  return real_sigaction ? 0 : "no next sigaction to call";
#endif
}
#endif
