/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* arith.c: the fixed-point scaling and the 32-bit extension, as pure
   functions of their inputs. The scaling: rounding, factors refused
   (zero, negative, past 2^32), no overflow on large counts, and a
   measured ratio snapped to some m/2^k or refused when near none. The
   extension: wraps counted across long gaps and despite an error in the
   rate, a reading a little older than its base, an OS clock that goes
   back (no wrap added) or jumps by years (no overflow). */
#include <string.h>
#include "check.h"
#include "internal.h"

static void scaling(void)
{
  struct cpucycles_scale s;
  long long t;

  CHECK(cpucycles_scale_from_ratio(&s, 1.0) == 0 && s.whole == 1 && s.frac == 0, "ratio 1 is exact");
  CHECK(cpucycles_scale_from_ratio(&s, 2.5) == 0 && cpucycles_scale_apply(&s, 1000) == 2500,
        "2.5 * 1000 = 2500");
  CHECK(cpucycles_scale_apply(&s, 3) == 7, "2.5 * 3 rounds down to 7");
  CHECK(cpucycles_scale_from_ratio(&s, 0.0) != 0, "ratio 0 refused");
  CHECK(cpucycles_scale_from_ratio(&s, -3.0) != 0, "negative ratio refused");
  CHECK(cpucycles_scale_from_ratio(&s, 5e9) != 0, "ratio beyond 2^32 refused");
  /* Large counts must not overflow in the middle: 2^40 ticks * 2.4 */
  cpucycles_scale_from_ratio(&s, 2.4);
  t = 1LL << 40;
  CHECK(cpucycles_scale_apply(&s, t) / 1000000 == (long long)(2.4 * (double)t) / 1000000,
        "2.4 * 2^40 keeps its high digits: %lld", cpucycles_scale_apply(&s, t));
  /* Monotonic across the 2^32 boundary of the low half. */
  CHECK(cpucycles_scale_apply(&s, 0xffffffffLL) <= cpucycles_scale_apply(&s, 0x100000000LL),
        "scaling is monotonic where the low word wraps");
  cpucycles_scale_from_ratio(&s, 1000.0);
  CHECK(cpucycles_scale_apply(&s, 1700000000000000LL) == 1700000000000000000LL,
        "microseconds since 2023 times 1000");

  CHECK(cpucycles_scale_snap(&s, 100.003) == 0 && cpucycles_scale_value(&s) == 100.0,
        "100.003 snaps to 100");
  CHECK(cpucycles_scale_snap(&s, 7.4219) == 0 && cpucycles_scale_value(&s) == 7.421875,
        "7.4219 snaps to 475/64");
  CHECK(cpucycles_scale_snap(&s, 2.5) == 0 && cpucycles_scale_value(&s) == 2.5, "2.5 snaps to 5/2");
  CHECK(cpucycles_scale_snap(&s, 100.0 + 1.0 / 3) != 0, "100 1/3 is near no m/2^k, k <= 6");
  CHECK(cpucycles_scale_snap(&s, 87.3340) != 0, "87.334 (2096.017 MHz over 24 MHz) refused");
  CHECK(cpucycles_scale_snap(&s, 86.0071) == 0 && cpucycles_scale_value(&s) == 86.0,
        "86.0071 (noise on 2064 MHz over 24 MHz) snaps to 86");
  CHECK(cpucycles_scale_snap(&s, 0.3) != 0, "0.3 (a clock faster than the CPU) refused");
}

static void extension(void)
{
  struct cpucycles_extend32 e;
  const long long persecond = 1000000000; /* one tick per nanosecond */
  long long v;

  cpucycles_extend32_start(&e, 100, 0);
  CHECK(cpucycles_extend32(&e, 200, 100, persecond) == 200, "no wrap: 100 ticks later reads 200");
  /* 2^32 + 50 ticks later the 32-bit value has moved by only 50. */
  v = cpucycles_extend32(&e, 250, 100 + 4294967296LL + 50, persecond);
  CHECK(v == 200 + 4294967296LL + 50, "a full wrap is counted: %lld", v);
  /* Crossing the boundary with little time passed. */
  cpucycles_extend32_start(&e, 0xfffffff0u, 0);
  v = cpucycles_extend32(&e, 0x10u, 32, persecond);
  CHECK(v == 0xfffffff0LL + 32, "crossing 2^32 reads as 32 more, not less: %lld", v);
  /* Three wraps while nobody looked, clock estimate 5% fast. */
  cpucycles_extend32_start(&e, 1000, 0);
  v = cpucycles_extend32(&e, 1000 + 7, (long long)((3 * 4294967296.0 + 7) * 1.05), persecond);
  CHECK(v == 1000 + 3 * 4294967296LL + 7, "three wraps despite a 5%% error: %lld", v);
  /* The OS clock going backwards must not add wraps. */
  cpucycles_extend32_start(&e, 5, 1000);
  v = cpucycles_extend32(&e, 9, 10, persecond);
  CHECK(v == 9, "a backwards OS clock adds nothing: %lld", v);
  /* A huge clock jump must not overflow into garbage or a negative count. */
  cpucycles_extend32_start(&e, 5, 0);
  v = cpucycles_extend32(&e, 9, 4000000000000000000LL, persecond);
  CHECK(v > 0, "a clock jump of 127 years stays positive");

  /* A reading a little older than its base (another thread moved the
     shared base in between) counts back, even across the 32-bit boundary. */
  e.value = 100000000000ULL;
  e.last = 0x10u;
  e.ns = 5000000000LL;
  v = (long long)cpucycles_extend32_at(&e, 0xfffffff0u, e.ns - 32, persecond);
  CHECK(v == 100000000000LL - 32, "a reading 32 ticks before its base, across 2^32: %lld", v);
  v = (long long)cpucycles_extend32_at(&e, 0x10u - 7, e.ns - 3 * 4294967296LL - 7, persecond);
  CHECK(v == 100000000000LL - 3 * 4294967296LL - 7, "three wraps and 7 ticks before the base: %lld", v);
  /* The rate is the counter's own: at 24 MHz an hour is 20 wraps and more. */
  e.last = 1000;
  e.ns = 0;
  v = (long long)cpucycles_extend32_at(&e, 1000 + (unsigned int)(86400000000ULL % 4294967296ULL),
                                       3600000000000LL, 24000000);
  CHECK(v == 100000000000LL + 86400000000LL, "an hour at 24 MHz: %lld", v);
}

int main(void)
{
  scaling();
  extension();
  return check_done();
}
