/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* cpuinfo_line.c: one /proc/cpuinfo line. Besides the range, a rate only
   ever comes from a line that names one of the known keys before its
   first colon. */
#include <string.h>
#include "fuzz.h"

static const char *const keys[] = { "cpu MHz", "CPU MHz", "cpu MHz static", "clock", "Cpu0ClkTck" };

static int names_a_key(const char *line, size_t len)
{
  const char *colon = memchr(line, ':', len);
  size_t k, n, i;
  if (!colon) return 0;
  n = (size_t)(colon - line);
  while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t')) --n;
  for (i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
    k = strlen(keys[i]);
    if (k == n && memcmp(line, keys[i], k) == 0) return 1;
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *line = (const char *)data;
  long long v = cpucycles_parse_cpuinfo_line(line, size);
  must_be_rate(v);
  MUST(!v || names_a_key(line, size));
  return 0;
}
