/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* capture.h: what a function printed to a FILE, line by line, for tests
   of code that reports in lines (cpucycles-info's parts). Needs check.h
   first. */
#ifndef CAPTURE_H
#define CAPTURE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char capture_out[1 << 16];

/* Where the function under test prints: a file, as stdout is one. */
static inline FILE *capture_start(void)
{
  FILE *f = tmpfile();
  if (!f) {
    perror("tmpfile");
    exit(1);
  }
  return f;
}

/* What was printed there, into capture_out; the file is closed. */
static inline void capture_end(FILE *f)
{
  size_t n;
  fflush(f);
  rewind(f);
  n = fread(capture_out, 1, sizeof capture_out - 1, f);
  capture_out[n] = 0;
  fclose(f);
}

/* The line that begins with begin, or 0. */
static inline const char *capture_line(const char *begin)
{
  const char *p = capture_out;
  size_t len = strlen(begin);
  while (p && *p) {
    if (strncmp(p, begin, len) == 0) return p;
    p = strchr(p, '\n');
    if (p) ++p;
  }
  return 0;
}

/* Whether the line that begins with begin also holds words. */
static inline int capture_says(const char *begin, const char *words)
{
  const char *l = capture_line(begin), *end = l ? strchr(l, '\n') : 0, *w = l ? strstr(l, words) : 0;
  return w && (!end || w < end);
}

static inline int capture_lines(void)
{
  int n = 0;
  const char *p;
  for (p = capture_out; *p; ++p) n += *p == '\n';
  return n;
}

/* The output after a check that failed, as comment lines test/run skips. */
static inline void capture_dump(void)
{
  const char *p = capture_out;
  while (*p) {
    const char *end = strchr(p, '\n');
    int len = end ? (int)(end - p) : (int)strlen(p);
    printf("#   %.*s\n", len, p);
    p += len + (end != 0);
  }
}

/* A line beginning with want was printed. */
#define CAPTURED(want, ...)                 \
  do {                                      \
    int captured_ = capture_line(want) != 0; \
    CHECK(captured_, __VA_ARGS__);          \
    if (!captured_) capture_dump();         \
  } while (0)
#endif
