/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* hz.c: cpucycles_parse_hz and cpucycles_parse_khz against a second,
   deliberately plain reading of the same grammar: optional white space,
   decimal digits, optional white space, nothing else. */
#include <string.h>
#include "fuzz.h"

static int space(uint8_t c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static long long plain(const uint8_t *p, size_t n, long long unit)
{
  size_t i = 0, digits = 0;
  long long v = 0;
  while (i < n && space(p[i])) ++i;
  for (; i < n && p[i] >= '0' && p[i] <= '9'; ++i, ++digits)
    if (v <= CPUCYCLES_PERSECOND_MAX) v = v * 10 + (p[i] - '0'); /* stays far from overflow */
  while (i < n && space(p[i])) ++i;
  if (!digits || i != n || v > CPUCYCLES_PERSECOND_MAX / unit) return 0;
  v *= unit;
  return v >= CPUCYCLES_PERSECOND_MIN && v <= CPUCYCLES_PERSECOND_MAX ? v : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *text = (const char *)data;
  long long hz = cpucycles_parse_hz(text, size), khz = cpucycles_parse_khz(text, size);
  must_be_rate(hz);
  must_be_rate(khz);
  MUST(hz == plain(data, size, 1));
  MUST(khz == plain(data, size, 1000));
  return 0;
}
