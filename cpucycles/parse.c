/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * parse.c: the text formats the library reads: those that carry a
 * cycles-per-second figure, and a kernel file's one integer. Each parser
 * is a pure function of the bytes it is given and accepts only the exact
 * format (anything else, NUL bytes included, is rejected); a figure is 0
 * unless it lies in CPUCYCLES_PERSECOND_MIN..MAX. One loop reads digits
 * for them all (digits()).
 */
#include <string.h>
#include "internal.h"

/* ' ', or '\t' '\n' '\v' '\f' '\r' (9 to 13) */
static int is_space(char c)
{
  return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The value of c as a digit of the given base (10 or 16), -1 when it is
   none. */
static int digit(char c, int base)
{
  int d = -1;
  if (c >= '0' && c <= '9') d = c - '0';
  else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
  else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
  return d < base ? d : -1;
}

static long long in_range(long long v)
{
  return v >= CPUCYCLES_PERSECOND_MIN && v <= CPUCYCLES_PERSECOND_MAX ? v : 0;
}

/* The digits of base (10 or 16) from p on, up to end: their value in *v
   and where they stop; null when there is none, or when the value passes
   max (0 to 2^59: a value up to max times 16 plus 15 cannot overflow).
   Out of line: one body for its two callers is smaller than a copy in
   each (16 bytes of .text, gcc 12, -Oz). */
__attribute__((noinline)) static const char *digits(const char *p, const char *end, int base, long long max, long long *v)
{
  const char *start = p;
  long long value = 0;
  int d;

  for (; p < end && (d = digit(*p, base)) >= 0; ++p)
    if ((value = value * base + d) > max) return 0;
  *v = value;
  return p > start ? p : 0;
}

/* [space] digits [. digits] [suffix] [space], the number counted in units
   of `unit` hertz. Fraction digits finer than one hertz are dropped. The
   digits are decimal, or hexadecimal (base 16) for a whole number of
   hertz without fraction or suffix. */
static long long number(const char *p, const char *end, int base, long long unit, int fraction,
                        const char *suffix)
{
  long long whole, frac = 0, place = unit;
  int n;

  while (p < end && is_space(*p)) ++p;
  if (!(p = digits(p, end, base, CPUCYCLES_PERSECOND_MAX / unit, &whole))) return 0;
  if (fraction && p < end && *p == '.') {
    n = 0;
    for (++p; p < end && digit(*p, 10) >= 0; ++p, ++n) {
      if (place >= 10) {
        place /= 10;
        frac += (*p - '0') * place;
      }
    }
    if (!n) return 0;
  }
  if (suffix) {
    size_t n = strlen(suffix);
    if ((size_t)(end - p) < n || memcmp(p, suffix, n) != 0) return 0;
    p += n;
  }
  while (p < end && is_space(*p)) ++p;
  if (p != end) return 0;
  return in_range(whole * unit + frac);
}

/* /etc/cpucyclespersecond and the environment variable: hertz. */
long long cpucycles_parse_hz(const char *text, size_t len)
{
  return number(text, text + len, 10, 1, 0, 0);
}

/* cpufreq files in sysfs: kilohertz. */
long long cpucycles_parse_khz(const char *text, size_t len)
{
  return number(text, text + len, 10, 1000, 0, 0);
}

/* Whether the len bytes at key are the string want. By hand: the keys are
   walked at run time, and a call of strlen and memcmp per key and line
   was, under AddressSanitizer, 3 KB more of a first call's stack (their
   interceptors), beyond the 8 KiB of test/firstcall/stack.c. */
static int key_is(const char *key, size_t len, const char *want)
{
  size_t i;
  for (i = 0; i < len && want[i] && key[i] == want[i]; ++i) {}
  return i == len && !want[i];
}

/* Splits "key<tabs/spaces>: value": the key's length without its padding,
   and where the value starts; 0 when there is no colon. */
static const char *split(const char *line, size_t len, size_t *keylen)
{
  const char *colon = memchr(line, ':', len);

  if (!colon) return 0;
  *keylen = (size_t)(colon - line);
  while (*keylen > 0 && (line[*keylen - 1] == ' ' || line[*keylen - 1] == '\t')) --*keylen;
  return colon + 1;
}

/* One line of /proc/cpuinfo, "key<tabs/spaces>: value", without its newline.
   The keys are those of the architectures that state a clock rate, in
   KEYS: x86 "cpu MHz", LoongArch "CPU MHz", s390x "cpu MHz static" (MHz),
   powerpc "clock" (value ending in MHz), sparc64 "Cpu0ClkTck" (hex Hz). */
#define KEYS "cpu MHz\0CPU MHz\0cpu MHz static\0clock\0Cpu0ClkTck"
#define CLOCK 3
#define CPU0CLKTCK 4
long long cpucycles_parse_cpuinfo_line(const char *line, size_t len)
{
  static const char keys[] = KEYS;
  const char *value, *end = line + len, *key = keys;
  size_t keylen;
  int i;

  if (!(value = split(line, len, &keylen))) return 0;
  for (i = 0; i <= CPU0CLKTCK && !key_is(line, keylen, key); ++i)
    while (*key++) {}
  if (i < CLOCK) return number(value, end, 10, 1000000, 1, 0);
  if (i == CLOCK) return number(value, end, 10, 1000000, 1, "MHz");
  if (i == CPU0CLKTCK) return number(value, end, 16, 1, 0, 0);
  return 0;
}

/* A whole /proc/cpuinfo: the first line that states a rate. */
long long cpucycles_parse_cpuinfo(const char *text, size_t len)
{
  const char *p = text, *end = text + len;

  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl : end;
    long long v = cpucycles_parse_cpuinfo_line(p, (size_t)(stop - p));
    if (v) return v;
    p = nl ? nl + 1 : end;
  }
  return 0;
}

/* One line of /proc/cpuinfo on PowerPC: "timebase<tab>: <hz>", the rate
   of the time base that mftb reads. */
long long cpucycles_parse_timebase_line(const char *line, size_t len)
{
  const char *value;
  size_t keylen;

  if (!(value = split(line, len, &keylen)) || !key_is(line, keylen, "timebase")) return 0;
  return number(value, line + len, 10, 1, 0, 0);
}

/* A kernel file's one integer (a setting under /proc/sys, a PMU's type):
   decimal digits and perhaps a newline, nothing else, with a '-' first
   only where min is below 0. 1 with *value when it lies in min..max
   (max 0 or more); else 0, *value left undefined. */
int cpucycles_parse_integer(const char *text, size_t len, long long min, long long max,
                            long long *value)
{
  const char *end = text + len;
  int negative = min < 0 && len > 0 && *text == '-';

  if (len > 0 && end[-1] == '\n') --end;
  if (digits(text + negative, end, 10, negative ? -min : max, value) != end) return 0;
  if (negative) *value = -*value;
  return 1;
}
