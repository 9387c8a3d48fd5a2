/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* persecond.c: every source of the cycles-per-second estimate, with valid
   and malformed text, and the order in which the sources are tried. Each
   parser meets signs, fractions, units, NUL bytes, overflowing numbers,
   values out of range and every /proc/cpuinfo dialect the library reads;
   the streaming /proc/cpuinfo reader must give the same answer whatever
   the size of the pieces it is handed (1 to 64 bytes) and with lines
   either side of its buffer's length. The whole chain runs against
   fixture files under a private root: which source wins when several are
   there, a bad one handing over to the next, and each file opened once
   (counted with inotify). */
#define _POSIX_C_SOURCE 200809L
#define _DARWIN_C_SOURCE /* mkdtemp, which macOS hides under _POSIX_C_SOURCE */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif
#include "check.h"
#include "internal.h"
#include "os.h"

#define T(s) s, sizeof s - 1

/* Each parser on a text: what it must return. The text's length is its
   literal's, NUL bytes inside included. */
struct parse_case {
  long long (*parse)(const char *, size_t);
  const char *text;
  size_t len;
  long long want;
  const char *what;
};
#define CASE(parser, text, want, what) { cpucycles_parse_##parser, text, sizeof text - 1, want, what }
#define TABLE(cases) table(cases, sizeof cases / sizeof cases[0])

static void table(const struct parse_case *c, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++) CHECK(c[i].parse(c[i].text, c[i].len) == c[i].want, "%s", c[i].what);
}

static const struct parse_case parser_cases[] = {
  CASE(hz, "2400000000", 2400000000LL, "hz: plain number"),
  CASE(hz, "  3100000000\n", 3100000000LL, "hz: surrounding space and newline"),
  CASE(hz, "", 0, "hz: empty"),
  CASE(hz, "\n", 0, "hz: only a newline"),
  CASE(hz, "fast", 0, "hz: not a number"),
  CASE(hz, "0", 0, "hz: zero"),
  CASE(hz, "-2400000000", 0, "hz: negative"),
  CASE(hz, "+2400000000", 0, "hz: explicit sign"),
  CASE(hz, "999999", 0, "hz: below 10^6"),
  CASE(hz, "1000000", 1000000, "hz: exactly 10^6"),
  CASE(hz, "100000000000", 100000000000LL, "hz: exactly 10^11"),
  CASE(hz, "100000000001", 0, "hz: above 10^11"),
  CASE(hz, "99999999999999999999999999999", 0, "hz: would overflow 64 bits"),
  CASE(hz, "18446744073709551617", 0, "hz: 2^64+1"),
  CASE(hz, "2400000000 cycles", 0, "hz: trailing words"),
  CASE(hz, "2.4e9", 0, "hz: exponent notation"),
  CASE(hz, "2400000000.5", 0, "hz: fraction"),
  CASE(hz, "24000\0" "00000", 0, "hz: NUL byte inside"),
  CASE(hz, "2400000000\0", 0, "hz: NUL byte at the end"),
  CASE(hz, "24 00000000", 0, "hz: space inside"),
  CASE(khz, "3400000\n", 3400000000LL, "khz: sysfs value"),
  CASE(khz, "500", 0, "khz: 500 kHz is below range"),
  CASE(khz, "100000001", 0, "khz: above range"),
  CASE(khz, "<unknown>\n", 0, "khz: not a number"),
  CASE(cpuinfo_line, "cpu MHz\t\t: 2096.017", 2096017000LL, "cpuinfo: x86 cpu MHz"),
  CASE(cpuinfo_line, "cpu MHz\t\t: 3400", 3400000000LL, "cpuinfo: whole MHz"),
  CASE(cpuinfo_line, "cpu MHz : 1999.9999999", 1999999999LL, "cpuinfo: digits finer than 1 Hz dropped"),
  CASE(cpuinfo_line, "cpu MHz static  : 5200", 5200000000LL, "cpuinfo: s390x static"),
  CASE(cpuinfo_line, "cpu MHz dynamic : 5200", 0, "cpuinfo: s390x dynamic ignored"),
  CASE(cpuinfo_line, "clock\t\t: 3800.000000MHz", 3800000000LL, "cpuinfo: powerpc clock"),
  CASE(cpuinfo_line, "clock\t\t: 3800.000000", 0, "cpuinfo: powerpc clock without MHz"),
  CASE(cpuinfo_line, "Cpu0ClkTck\t: 00000000d693a400", 3600000000LL, "cpuinfo: sparc64 hex Hz"),
  CASE(cpuinfo_line, "CPU MHz\t\t: 2500.00", 2500000000LL, "cpuinfo: LoongArch"),
  CASE(cpuinfo_line, "cpu MHz\t\t: ", 0, "cpuinfo: empty value"),
  CASE(cpuinfo_line, "cpu MHz\t\t: 0.000", 0, "cpuinfo: zero"),
  CASE(cpuinfo_line, "cpu MHz\t\t: -2000", 0, "cpuinfo: negative"),
  CASE(cpuinfo_line, "cpu MHz\t\t: 2000.", 0, "cpuinfo: dot without digits"),
  CASE(cpuinfo_line, "cpu MHz\t\t: 200000", 0, "cpuinfo: 200 GHz is out of range"),
  CASE(cpuinfo_line, "cpu MHzz\t: 2000", 0, "cpuinfo: other key"),
  CASE(cpuinfo_line, "cpu MHz 2000", 0, "cpuinfo: no colon"),
  CASE(cpuinfo_line, "bogomips\t: 4192.03", 0, "cpuinfo: bogomips is not a rate"),
  CASE(cpuinfo_line, "timebase\t: 512000000", 0, "cpuinfo: the PowerPC time base is not the CPU's rate"),
  CASE(timebase_line, "timebase\t: 512000000", 512000000LL, "timebase: POWER9"),
  CASE(timebase_line, "timebase : 33333333 ", 33333333LL, "timebase: 33 MHz"),
  CASE(timebase_line, "timebase\t: 0", 0, "timebase: zero"),
  CASE(timebase_line, "timebase\t: 512 MHz", 0, "timebase: with a unit"),
  CASE(timebase_line, "timebase\t: 512000000.5", 0, "timebase: fraction"),
  CASE(timebase_line, "timebase\t: -512000000", 0, "timebase: negative"),
  CASE(timebase_line, "timebase 512000000", 0, "timebase: no colon"),
  CASE(timebase_line, "timebases\t: 512000000", 0, "timebase: other key"),
  CASE(timebase_line, "clock\t\t: 3800.000000MHz", 0, "timebase: clock line ignored"),
  CASE(timebase_line, "timebase\t: 5120\0" "00000", 0, "timebase: NUL byte inside"),
  CASE(cpuinfo, "processor\t: 0\nvendor_id\t: GenuineIntel\n"
                "cpu MHz\t\t: 2096.017\ncache size\t: 16384 KB\n"
                "processor\t: 1\ncpu MHz\t\t: 1000.000\n", 2096017000LL,
       "cpuinfo: the first rate in a whole file"),
  CASE(cpuinfo, "processor\t: 0\ncpu MHz\t\t: 2096.017", 2096017000LL, "cpuinfo: no final newline"),
  CASE(cpuinfo, "processor\t: 0\nBogoMIPS\t: 125.00\n", 0, "cpuinfo: no rate at all"),
  CASE(cpuinfo, "cpu MHz\t\t: junk\ncpu MHz\t\t: 1500\n", 1500000000LL,
       "cpuinfo: a malformed line is passed over"),
};

static void parsers(void)
{
  TABLE(parser_cases);
}

/* More malformed input: every parser rejects it, none reads past it. */
static const struct parse_case hostile_cases[] = {
  CASE(hz, "0x8f0d1800", 0, "hz: hexadecimal"),
  CASE(hz, "\xff\xfe" "2400000000", 0, "hz: bytes above 127 first"),
  CASE(hz, "9223372036854775807", 0, "hz: 2^63-1"),
  CASE(hz, "00000000000000000000002400000000", 2400000000LL, "hz: leading zeros"),
  CASE(khz, "18446744073709551616", 0, "khz: 2^64"),
  CASE(khz, "9223372036854776", 0, "khz: overflows only once multiplied by 1000"),
  CASE(cpuinfo_line, "cpu MHz\t\t: 12:34", 0, "cpuinfo: a second colon"),
  CASE(cpuinfo_line, "cpu MHz\t\t: 1000.000\r", 1000000000LL, "cpuinfo: CR before the end"),
  CASE(cpuinfo_line, "cpu\0MHz\t\t: 1000", 0, "cpuinfo: NUL in the key"),
  CASE(cpuinfo_line, "cpu MHz\t\t: 99999999999999999999.5", 0, "cpuinfo: MHz beyond 2^64"),
  CASE(cpuinfo_line, "cpu MHz\t\t: 1000.00000000000000000000000000001", 1000000000LL,
       "cpuinfo: 32 fraction digits"),
  CASE(cpuinfo_line, "Cpu0ClkTck\t: ffffffffffffffffffff", 0, "cpuinfo: hex beyond 2^64"),
  CASE(cpuinfo_line, "Cpu0ClkTck\t: ", 0, "cpuinfo: hex with no digits"),
  CASE(cpuinfo_line, ":", 0, "cpuinfo: only a colon"),
  CASE(cpuinfo_line, "", 0, "cpuinfo: empty line"),
  CASE(cpuinfo, "\n\n\n", 0, "cpuinfo: only newlines"),
};

static void hostile_text(void)
{
  char spaces[10000];
  memset(spaces, ' ', sizeof spaces);
  memcpy(spaces + 5000, "2400000000", 10);
  CHECK(cpucycles_parse_hz(spaces, sizeof spaces) == 2400000000LL, "hz: a number amid 9990 spaces");
  spaces[7000] = '\0';
  CHECK(cpucycles_parse_hz(spaces, sizeof spaces) == 0, "hz: the same with a NUL byte in the spaces");
  TABLE(hostile_cases);
}

/* A source handing out text in pieces of at most `chunk` bytes, failing
   with -1 at `fail_at` (if not negative). */
struct pieces {
  const char *text;
  size_t len, at, chunk;
  long fail_at;
};

static long next_piece(void *ctx, char *buf, size_t len)
{
  struct pieces *p = ctx;
  size_t n = p->len - p->at;
  if (p->fail_at >= 0 && p->at >= (size_t)p->fail_at) return -1;
  if (n > len) n = len;
  if (n > p->chunk) n = p->chunk;
  if (p->fail_at >= 0 && p->at + n > (size_t)p->fail_at) n = (size_t)p->fail_at - p->at;
  memcpy(buf, p->text + p->at, n);
  p->at += n;
  return (long)n;
}

static long long stream(const char *text, size_t len, size_t chunk, long fail_at)
{
  struct pieces p;
  p.text = text;
  p.len = len;
  p.at = 0;
  p.chunk = chunk;
  p.fail_at = fail_at;
  return cpucycles_cpuinfo_stream(next_piece, &p, cpucycles_parse_cpuinfo_line);
}

/* Says more than it was asked for: a reader that trusts it overflows. */
static long liar(void *ctx, char *buf, size_t len)
{
  (void)ctx;
  (void)buf;
  return (long)len + 100;
}

static void streaming(void)
{
  static char line[2 * CPUCYCLES_CPUINFO_LINE + 64];
  const char *file = "processor\t: 0\nvendor_id\t: x\ncpu MHz\t\t: 2096.017\nflags\t: fpu\n";
  size_t chunk, n;
  int ok = 1;

  for (chunk = 1; chunk <= 64; ++chunk) ok &= stream(file, strlen(file), chunk, -1) == 2096017000LL;
  CHECK(ok, "stream: the same rate whatever the size of the pieces (1..64 bytes)");
  CHECK(stream(T("cpu MHz\t\t: 2500"), 4, -1) == 2500000000LL, "stream: last line without newline, at the end");
  CHECK(stream(T("cpu MHz\t\t: 2500"), 4, 12) == 0, "stream: a read error cutting the line short: nothing");
  CHECK(stream(T(""), 4, -1) == 0, "stream: empty");
  CHECK(cpucycles_cpuinfo_stream(liar, 0, cpucycles_parse_cpuinfo_line) == 0, "stream: a source claiming more than it was asked: nothing");

  /* A line of exactly the buffer's size (newline included) is read; one
     byte more and it is skipped, and the next line still counts. */
  n = CPUCYCLES_CPUINFO_LINE - 1;
  memset(line, ' ', sizeof line);
  memcpy(line, "cpu MHz : 1234", 14);
  line[n] = '\n';
  CHECK(stream(line, n + 1, 4096, -1) == 1234000000LL, "stream: a line of %d bytes with newline is read", (int)n + 1);
  CHECK(stream(line, n + 1, 7, -1) == 1234000000LL, "stream: and in pieces of 7");
  line[n] = ' ';
  line[n + 1] = '\n';
  memcpy(line + n + 2, "cpu MHz : 999\n", 14);
  CHECK(stream(line, n + 16, 4096, -1) == 999000000LL, "stream: one byte longer: skipped, the next line counts");
  CHECK(stream(line, n + 16, 13, -1) == 999000000LL, "stream: and in pieces of 13");
}

static char root[] = "/tmp/cpucycles-test-XXXXXX";

static void put(const char *path, const char *text, size_t len)
{
  char name[512], dir[512], *slash;
  FILE *f;
  snprintf(name, sizeof name, "%s%s", root, path);
  strcpy(dir, name);
  for (slash = strchr(dir + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
    *slash = 0;
    mkdir(dir, 0700);
    *slash = '/';
  }
  f = fopen(name, "wb");
  if (f) {
    fwrite(text, 1, len, f);
    fclose(f);
  }
}

static void drop(const char *path)
{
  char name[512];
  snprintf(name, sizeof name, "%s%s", root, path);
  unlink(name);
}

#define ETC "/etc/cpucyclespersecond"
#define BASE "/sys/devices/system/cpu/cpu0/cpufreq/base_frequency"
#define MAXF "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"
#define CPUINFO "/proc/cpuinfo"

static void chain(void)
{
  char big[3000];

  CHECK(mkdtemp(root) != 0, "a private root for fixture files");
  CHECK(cpucycles_persecond_estimate(root, 0) == 2399987654LL, "nothing anywhere: 2399987654");
  CHECK(cpucycles_persecond_estimate(root, "1800000000") == 1800000000LL, "environment variable");
  CHECK(cpucycles_persecond_estimate(root, "garbage") == 2399987654LL, "bad environment: default");
  CHECK(cpucycles_persecond_estimate(root, "") == 2399987654LL, "empty environment: default");
#ifdef __linux__
  put(CPUINFO, T("processor\t: 0\ncpu MHz\t\t: 2096.017\n"));
  CHECK(cpucycles_persecond_estimate(root, "1800000000") == 2096017000LL, "cpuinfo beats environment");
  put(MAXF, T("3500000\n"));
  CHECK(cpucycles_persecond_estimate(root, 0) == 3500000000LL, "cpuinfo_max_freq beats cpuinfo");
  put(BASE, T("3000000\n"));
  CHECK(cpucycles_persecond_estimate(root, 0) == 3000000000LL, "base_frequency beats cpuinfo_max_freq");
  put(BASE, T("0\n"));
  CHECK(cpucycles_persecond_estimate(root, 0) == 3500000000LL, "zero base_frequency: next source");
  put(MAXF, T(""));
  CHECK(cpucycles_persecond_estimate(root, 0) == 2096017000LL, "empty cpuinfo_max_freq: next source");
  drop(BASE);
  drop(MAXF);
  memset(big, 'x', sizeof big);
  memcpy(big + sizeof big - 25, "\ncpu MHz\t: 1234.5\n", 18);
  put(CPUINFO, big, sizeof big - 7);
  CHECK(cpucycles_persecond_estimate(root, 0) == 1234500000LL, "cpuinfo: a rate after a long line");
  put(CPUINFO, T("processor\t: 0\ncpu\t\t: POWER9, altivec supported\nclock\t\t: 3800.000000MHz\n"
                 "revision\t: 2.2 (pvr 004e 1202)\n\ntimebase\t: 512000000\nplatform\t: PowerNV\n"));
  CHECK(cpucycles_persecond_estimate(root, 0) == 3800000000LL, "POWER cpuinfo: clock is the rate");
  CHECK(cpucycles_cpuinfo_scan(root, cpucycles_parse_timebase_line) == 512000000LL,
        "POWER cpuinfo: the time base from the line after the processors");
  put(CPUINFO, T("processor\t: 0\ncpu MHz\t\t: 2096.017\n"));
  CHECK(cpucycles_cpuinfo_scan(root, cpucycles_parse_timebase_line) == 0,
        "x86 cpuinfo (an emulator's host): no time base");
  put(CPUINFO, T("\0\0\0\xff\xfe garbage \x01\n\n::::\n"));
  CHECK(cpucycles_persecond_estimate(root, "1700000000") == 1700000000LL,
        "binary cpuinfo: environment applies");
#endif
  put(ETC, T("2500000000\n"));
  CHECK(cpucycles_persecond_estimate(root, "1800000000") == 2500000000LL, "/etc/cpucyclespersecond first");
  put(ETC, T("-5\n"));
  CHECK(cpucycles_persecond_estimate(root, "1800000000") != -5, "negative /etc file is passed over");
  memset(big, '1', sizeof big);
  put(ETC, big, sizeof big);
  CHECK(cpucycles_persecond_estimate(root, "1800000000") != 0, "enormous /etc file is passed over");
  drop(ETC);
  {
    char dir[512];
    snprintf(dir, sizeof dir, "%s%s", root, ETC);
    mkdir(dir, 0700);
    CHECK(cpucycles_persecond_estimate(root, "1800000000") > 0, "/etc/cpucyclespersecond a directory");
    rmdir(dir);
  }
  drop(CPUINFO);
}

#ifdef __linux__
/* Every file of the chain present but the last one holding nothing valid,
   so the estimate goes through them all: inotify counts the opens, and
   each file is opened once. The closes are watched too: inotify merges an
   event into an identical one just before it, so two opens in a row would
   count as one. */
#define CPUFREQ "/sys/devices/system/cpu/cpu0/cpufreq"
static const char *const watched[] = { "/etc", CPUFREQ, "/proc" };
#define NWATCHED (int)(sizeof watched / sizeof watched[0])

static int opens_of(const char *buf, long len, const int *wd, int dir, const char *file)
{
  const char *p = buf;
  int n = 0;
  while (p < buf + len) {
    const struct inotify_event *e = (const struct inotify_event *)(const void *)p;
    if (e->wd == wd[dir] && (e->mask & IN_OPEN) &&
        (file ? e->len && strcmp(e->name, file) == 0 : e->len == 0))
      ++n;
    p += sizeof *e + e->len;
  }
  return n;
}

static void opened_once(void)
{
  static char buf[16384] __attribute__((aligned(8)));
  int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC), wd[NWATCHED], i, ok = 1;
  long len;
  char name[512];

  put(ETC, T("fast\n"));
  put(BASE, T("0\n"));
  put(MAXF, T("<unknown>\n"));
  put(CPUINFO, T("processor\t: 0\ncpu MHz\t\t: 2096.017\n"));
  if (fd < 0) {
    SKIP("files opened once: no inotify here");
    return;
  }
  for (i = 0; i < NWATCHED; ++i) {
    snprintf(name, sizeof name, "%s%s", root, watched[i]);
    ok &= (wd[i] = inotify_add_watch(fd, name, IN_OPEN | IN_CLOSE_NOWRITE)) >= 0;
  }
  if (!ok) {
    SKIP("files opened once: inotify does not watch the fixtures");
    close(fd);
    return;
  }
  CHECK(cpucycles_persecond_estimate(root, "1800000000") == 2096017000LL,
        "every file present, only cpuinfo valid: cpuinfo's rate");
  len = read(fd, buf, sizeof buf);
  CHECK(len > 0, "inotify saw the chain's opens");
  if (len < 0) len = 0;
  CHECK(opens_of(buf, len, wd, 0, "cpucyclespersecond") == 1, "/etc/cpucyclespersecond opened once");
  CHECK(opens_of(buf, len, wd, 1, 0) == 1, "the cpufreq directory opened once");
  CHECK(opens_of(buf, len, wd, 1, "base_frequency") == 1, "base_frequency opened once");
  CHECK(opens_of(buf, len, wd, 1, "cpuinfo_max_freq") == 1, "cpuinfo_max_freq opened once");
  CHECK(opens_of(buf, len, wd, 2, "cpuinfo") == 1, "/proc/cpuinfo opened once");
  close(fd);
  drop(ETC);
  drop(BASE);
  drop(MAXF);
}

/* A cpufreq that is not a directory holds neither file. */
static void cpufreq_not_a_directory(void)
{
  char dir[512];
  drop(BASE);
  drop(MAXF);
  snprintf(dir, sizeof dir, "%s%s", root, CPUFREQ);
  CHECK(rmdir(dir) == 0, "the cpufreq fixture directory removed");
  put(CPUFREQ, T("3000000\n"));
  put(CPUINFO, T("processor\t: 0\ncpu MHz\t\t: 2096.017\n"));
  CHECK(cpucycles_persecond_estimate(root, 0) == 2096017000LL,
        "cpufreq a regular file: passed over, cpuinfo's rate");
  drop(CPUFREQ);
  drop(CPUINFO);
}
#endif

int main(void)
{
  parsers();
  hostile_text();
  streaming();
  chain();
#ifdef __linux__
  opened_once();
  cpufreq_not_a_directory();
#endif
  return check_done();
}
