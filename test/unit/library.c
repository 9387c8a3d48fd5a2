/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* library.c: the built library through its public header only; built
   twice, linked against the shared and the static library. The version is
   this build's, the estimate in range, the counter chosen one of those
   compiled and not default-zero, and 10^6 calls in a row increase and
   never decrease. */
#include <stdio.h>
#include <string.h>
#include <cpucycles.h>
#include "check.h"

#ifndef EXPECTED_VERSION
#error "build with -DEXPECTED_VERSION"
#endif

#ifndef COUNTERS
#error "build with -DCOUNTERS, the compiled counters separated by spaces"
#endif

/* Is name one of the space-separated words of list? */
static int listed(const char *name, const char *list)
{
  size_t n = strlen(name);
  const char *p;
  for (p = strstr(list, name); p; p = strstr(p + 1, name))
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return 1;
  return 0;
}

int main(void)
{
  long long persecond, previous, now, i, decreases = 0, increases = 0;
  const char *impl;

  CHECK(strcmp(cpucycles_version(), EXPECTED_VERSION) == 0, "version is %s", cpucycles_version());
  persecond = cpucycles_persecond();
  CHECK(persecond >= 1000000 && persecond <= 100000000000LL, "persecond %lld in range", persecond);
  impl = cpucycles_implementation();
  CHECK(listed(impl, COUNTERS), "implementation %s is one of the compiled counters", impl);
  CHECK(strcmp(impl, "default-zero") != 0, "a real counter was chosen, not default-zero");

  previous = cpucycles();
  for (i = 0; i < 1000000; ++i) {
    now = cpucycles();
    decreases += now < previous;
    increases += now > previous;
    previous = now;
  }
  CHECK(decreases == 0, "10^6 consecutive calls never decrease (%lld decreases)", decreases);
  CHECK(increases > 0, "and do increase (%lld increases)", increases);
  return check_done();
}
