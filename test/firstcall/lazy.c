/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* lazy.c: the estimate of cycles per second is read only when something
   needs it. A first call of cpucycles() whose winner is an unscaled cycle
   counter leaves it unread; cpucycles_persecond() must then still give
   the estimate the chain gives, not a default, and the same one to every
   later call. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "internal.h"
#include "../include/cpucycles.h"

int main(void)
{
  long long t0, t1, expected, got;

  t0 = cpucycles();
  t1 = cpucycles();
  CHECK(t1 >= t0, "cpucycles() works before anything asked for the estimate");
  expected = cpucycles_persecond_estimate("", getenv("cpucyclespersecond"));
  got = cpucycles_persecond();
  CHECK(got == expected, "cpucycles_persecond() after the first call: %lld, the chain says %lld", got,
        expected);
  CHECK(cpucycles_persecond() == got, "and the same on the next call");
  CHECK(strcmp(cpucycles_implementation(), "default-zero") != 0, "a real counter was chosen (%s)",
        cpucycles_implementation());
  CHECK_DONE();
}
