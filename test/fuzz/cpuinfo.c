/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* cpuinfo.c: a whole /proc/cpuinfo text: the answer is the first line's
   that has one, as the line parser sees each line. */
#include <string.h>
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *text = (const char *)data;
  long long v = cpucycles_parse_cpuinfo(text, size), first = 0;
  size_t start = 0, i;
  must_be_rate(v);
  for (i = 0; i <= size && !first; ++i)
    if (i == size || text[i] == '\n') {
      first = cpucycles_parse_cpuinfo_line(text + start, i - start);
      start = i + 1;
    }
  MUST(v == first);
  return 0;
}
