/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* words.c: see words.h. A kernel file can hold anything under a test's
   root, or after a bug: every byte is looked at once and nothing is
   trusted to be text. */
#include <limits.h>
#include <string.h>
#include "words.h"

static int blank(unsigned char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void clean(const char *in, size_t n, char *out, char space)
{
  size_t i, k = 0;
  int pending = 0;

  for (i = 0; i < n; ++i) {
    unsigned char c = (unsigned char)in[i];
    if (blank(c)) {
      pending = k > 0;
      continue;
    }
    if (k + pending + 1 > WORDS_MAX) {
      memcpy(out + k, "...", 3);
      k += 3;
      break;
    }
    if (pending) out[k++] = space;
    pending = 0;
    out[k++] = c >= '!' && c <= '~' ? (char)c : '?';
  }
  if (k == 0) {
    strcpy(out, "(empty)");
    return;
  }
  out[k] = 0;
}

void words_clean(const char *in, size_t n, char *out)
{
  clean(in, n, out, ' ');
}

void words_one(const char *in, size_t n, char *out)
{
  clean(in, n, out, '_');
}

int words_number(const char *in, size_t n, long long *value)
{
  size_t i = 0;
  int negative = 0, digits = 0;
  long long v = 0;

  while (i < n && blank((unsigned char)in[i])) ++i;
  if (i < n && in[i] == '-') {
    negative = 1;
    ++i;
  }
  for (; i < n && in[i] >= '0' && in[i] <= '9'; ++i, ++digits) {
    int d = in[i] - '0';
    if (v > (LLONG_MAX - d) / 10) return 0;
    v = v * 10 + d;
  }
  while (i < n && blank((unsigned char)in[i])) ++i;
  if (!digits || i != n) return 0;
  *value = negative ? -v : v;
  return 1;
}

int words_has(const char *list, const char *w)
{
  size_t len = strlen(w);
  const char *p = list;

  if (!len) return 0;
  while ((p = strstr(p, w)) != 0) {
    if ((p == list || p[-1] == ' ') && (p[len] == 0 || p[len] == ' ')) return 1;
    p += len;
  }
  return 0;
}
