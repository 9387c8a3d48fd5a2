/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* integer.c: cpucycles_parse_integer, the one integer of a kernel file
   as the library reads it (a setting under /proc/sys in a traced first
   call's account of a failed counter, os-linux-why.c; a PMU's type under
   /sys, perf.c): decimal digits and at most one newline, a '-' only where
   the range has negative numbers, and nothing outside the range. */
#include <string.h>
#include "check.h"
#include "internal.h"

#define T(s) s, sizeof s - 1

/* The settings' range (os-linux-why.c) and a PMU type's (perf.c). */
#define SETTING -999999, 999999
#define TYPE 0, 0xffffffffLL

/* The value, or -12345 for a text refused. */
static long long parsed(const char *text, size_t len, long long min, long long max)
{
  long long v = -12345;
  return cpucycles_parse_integer(text, len, min, max, &v) ? v : -12345;
}

int main(void)
{
  CHECK(parsed(T("2\n"), SETTING) == 2, "a setting and its newline");
  CHECK(parsed(T("-1\n"), SETTING) == -1, "a negative setting (perf_event_paranoid -1)");
  CHECK(parsed(T("0"), SETTING) == 0, "no newline");
  CHECK(parsed(T("-0\n"), SETTING) == 0, "-0 where negatives are allowed");
  CHECK(parsed(T("999999\n"), SETTING) == 999999, "the largest setting");
  CHECK(parsed(T("-999999\n"), SETTING) == -999999, "the smallest setting");
  CHECK(parsed(T("1000000\n"), SETTING) == -12345, "a setting past the range: refused");
  CHECK(parsed(T("-1000000\n"), SETTING) == -12345, "a setting below the range: refused");
  CHECK(parsed(T("00000000000000000000005\n"), SETTING) == 5, "leading zeros count for nothing");
  CHECK(parsed(T(""), SETTING) == -12345, "an empty file: refused");
  CHECK(parsed(T("\n"), SETTING) == -12345, "a newline alone: refused");
  CHECK(parsed(T("-\n"), SETTING) == -12345, "a sign alone: refused");
  CHECK(parsed(T("1\n\n"), SETTING) == -12345, "two newlines: refused");
  CHECK(parsed(T(" 1\n"), SETTING) == -12345, "a space before: refused");
  CHECK(parsed(T("1 \n"), SETTING) == -12345, "a space after: refused");
  CHECK(parsed(T("+1\n"), SETTING) == -12345, "a plus sign: refused");
  CHECK(parsed(T("1\0"), SETTING) == -12345, "a NUL byte: refused");
  CHECK(parsed(T("0x10\n"), SETTING) == -12345, "hexadecimal: refused");
  CHECK(parsed(T("8\n"), TYPE) == 8, "a PMU type");
  CHECK(parsed(T("4294967295\n"), TYPE) == 4294967295LL, "the largest PMU type");
  CHECK(parsed(T("4294967296\n"), TYPE) == -12345, "a PMU type past 32 bits: refused");
  CHECK(parsed(T("99999999999999999999999999\n"), TYPE) == -12345, "26 digits: refused, no overflow");
  CHECK(parsed(T("-0\n"), TYPE) == -12345, "a sign where the range has no negatives: refused");
  return check_done();
}
