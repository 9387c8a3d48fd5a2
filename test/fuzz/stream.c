/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* stream.c: the streaming /proc/cpuinfo reader. The first byte picks how
   the text is cut into pieces (as a kernel may hand it out); the answer
   must not depend on the cutting, and while no line is longer than the
   reader's buffer it must be the whole-text parser's answer. */
#include <string.h>
#include "fuzz.h"

struct source {
  const uint8_t *text;
  size_t len, at;
  unsigned pattern; /* 0: as much as asked; else piece sizes cycling 1..pattern */
  unsigned turn;
};

static long give(void *ctx, char *buf, size_t want)
{
  struct source *s = ctx;
  size_t n = s->len - s->at;
  if (s->pattern) {
    size_t piece = 1 + s->turn++ % s->pattern;
    if (n > piece) n = piece;
  }
  if (n > want) n = want;
  memcpy(buf, s->text + s->at, n);
  s->at += n;
  return (long)n;
}

static long long read_with(const uint8_t *text, size_t len, unsigned pattern)
{
  struct source s = { text, len, 0, pattern, 0 };
  return cpucycles_cpuinfo_stream(give, &s, cpucycles_parse_cpuinfo_line);
}

static size_t longest_line(const uint8_t *text, size_t len)
{
  size_t longest = 0, start = 0, i;
  for (i = 0; i <= len; ++i)
    if (i == len || text[i] == '\n') {
      if (i - start > longest) longest = i - start;
      start = i + 1;
    }
  return longest;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  long long whole, cut;
  if (size < 1) return 0;
  whole = read_with(data + 1, size - 1, 0);
  cut = read_with(data + 1, size - 1, data[0]);
  must_be_rate(whole);
  MUST(whole == cut);
  if (longest_line(data + 1, size - 1) < CPUCYCLES_CPUINFO_LINE)
    MUST(whole == cpucycles_parse_cpuinfo((const char *)data + 1, size - 1));
  return 0;
}
