/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* perfown.c: each thread's own perf events (perf.c), the way
   default-perfevent, arm64-perfpmc and riscv64-perfrdcycle count. A
   software event (the task clock, which counts a thread's running time and
   works without a PMU) goes through the same open, read, fork, exit and
   failure code as their cycle events. Checked: a thread counts itself,
   not the thread that opened the first event (which is what reading the
   first thread's descriptor gave: frozen while that thread waits); a
   thread's events are closed when it exits; a forked child counts on from
   its parent's count with events of its own; a read that gives no count
   (a pinned event's error state) or a thread that cannot open an event
   goes on counting with the OS clock, never freezing or decreasing; and
   the page protocol with a simulated page, reading only the counter named
   by `only`. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include <cpucycles.h>
#include "forkable.h"
#include "internal.h"
#include "perfpage.h"

static CPUCYCLES_THREAD_LOCAL struct cpucycles_perf_own own;
static struct cpucycles_perf_own *mine(void) { return &own; }

/* A simulated hardware counter for the page tests: what it holds and
   which counter was read. */
static unsigned long long hw_value;
static int hw_reads;
static unsigned long long hw_read(unsigned int n, void *arg)
{
  (void)n;
  (void)arg;
  ++hw_reads;
  return hw_value;
}

static struct cpucycles_perf_owner owner = {
  PERFABI_TYPE_SOFTWARE, PERFABI_COUNT_SW_TASK_CLOCK, 0, CPUCYCLES_PERF_MAP, mine, hw_read, 32
};

static long long count(void) { return cpucycles_perf_own_count(&owner); }

/* Burns a few milliseconds of this thread's CPU time. */
static void busy(void)
{
  volatile unsigned long sink = 0;
  unsigned long i;
  for (i = 0; i < 3000000; ++i) sink += i;
  (void)sink; /* read once more: clang counts stores alone as unused */
}

/* How many descriptors are open (below 1024). */
static int open_fds(void)
{
  int fd, n = 0;
  for (fd = 0; fd < 1024; ++fd) n += fcntl(fd, F_GETFD) >= 0;
  return n;
}

/* ---- a thread counts itself ---- */

struct seen {
  long long first, last;
  int decreases, own_fd;
};

static void *counting_thread(void *arg)
{
  struct seen *s = arg;
  long long prev, now;
  int i;
  s->first = prev = count();
  s->own_fd = own.state == CPUCYCLES_PERF_OWN_OPEN && own.perf.n == 1 && own.perf.fd[0] >= 0;
  for (i = 0; i < 20; ++i) {
    busy();
    now = count();
    s->decreases += now < prev;
    prev = now;
  }
  s->last = prev;
  return 0;
}

static void threads(long long main_count)
{
  pthread_t t;
  struct seen s;
  int fds_before, fds_after;

  memset(&s, 0, sizeof s);
  fds_before = open_fds();
  CHECK(pthread_create(&t, 0, counting_thread, &s) == 0, "a thread started");
  pthread_join(t, 0);
  fds_after = open_fds();
  CHECK(s.own_fd, "the thread opened an event of its own on its first read");
  CHECK(s.last > s.first && s.decreases == 0,
        "it counts its own work while the first thread waits: %lld -> %lld, %d decreases "
        "(the first thread's descriptor stands still meanwhile)", s.first, s.last, s.decreases);
  CHECK(s.first < main_count, "it starts from its own count (%lld), not the first thread's (%lld)",
        s.first, main_count);
  CHECK(fds_after == fds_before, "its event is closed when it exits (%d descriptors before, %d after)",
        fds_before, fds_after);
}

/* ---- fork ---- */

static void forked(void)
{
  long long before, c0, c1;
  int status = -1;
  pid_t pid;

  if (!fork_works()) {
    SKIP("perfown fork: fork does not work here");
    return;
  }
  busy();
  before = count();
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    int bad = 0;
    c0 = count();
    if (c0 < before) bad |= 1;
    if (!(own.state == CPUCYCLES_PERF_OWN_OPEN && own.perf.n == 1 && own.perf.page[0])) bad |= 2;
    busy();
    c1 = count();
    if (c1 <= c0) bad |= 4;
    _exit(bad);
  }
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status),
        "a forked child reads without crashing (status %#x)", status);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
        "it goes on from its parent's count, with a mapped event of its own, and counts its "
        "own work (bits %#x: 1 decreased across the fork, 2 no event, 4 stood still)",
        WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* ---- failures ---- */

/* A descriptor whose read gives no bytes, as a pinned event's does once
   the kernel could not give it a counter. */
static void error_state(void)
{
  long long before, after, later;
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

  before = count();
  CHECK(null >= 0 && own.perf.n == 1 && dup2(null, own.perf.fd[0]) == own.perf.fd[0],
        "the event's descriptor replaced by one that reads nothing");
  if (null >= 0) close(null);
  after = count();
  busy();
  later = count();
  CHECK(own.state == CPUCYCLES_PERF_OWN_CLOCK, "the failed read switches the thread to the OS clock");
  CHECK(own.persecond == cpucycles_persecond(),
        "at the rate cpucycles_persecond() gives (%lld), which perf.c asks of the persecond sources",
        own.persecond);
  CHECK(after >= before && later > after,
        "and counting goes on from the last count: %lld, %lld, %lld", before, after, later);
}

static void *no_descriptors_thread(void *arg)
{
  struct seen *s = arg;
  s->first = count();
  busy();
  s->last = count();
  s->own_fd = own.state;
  return 0;
}

/* A thread that cannot open an event (no descriptor left) counts with the
   OS clock from 0. */
static void cannot_open(void)
{
  struct rlimit old, low;
  struct seen s;
  pthread_t t;
  int made;

  memset(&s, 0, sizeof s);
  if (getrlimit(RLIMIT_NOFILE, &old) != 0) {
    SKIP("perfown: no RLIMIT_NOFILE here");
    return;
  }
  low = old;
  low.rlim_cur = 3;
  if (setrlimit(RLIMIT_NOFILE, &low) != 0) {
    SKIP("perfown: cannot lower RLIMIT_NOFILE");
    return;
  }
  made = pthread_create(&t, 0, no_descriptors_thread, &s) == 0;
  if (made) pthread_join(t, 0);
  setrlimit(RLIMIT_NOFILE, &old);
  CHECK(made && s.own_fd == CPUCYCLES_PERF_OWN_CLOCK && s.first >= 0 && s.last > s.first,
        "a thread that cannot open its event counts on with the OS clock (%lld -> %lld)", s.first,
        s.last);
}

/* ---- the page, simulated ---- */

static void page(void)
{
  static struct perfabi_page pg;
  volatile struct perfabi_page *real;
  long long c;

  CHECK(cpucycles_perf_own_open(&owner) == 0 && own.perf.n == 1, "opened afresh");
  real = own.perf.page[0];
  memset(&pg, 0, sizeof pg);
  pg.lock = 2;
  pg.index = 32;
  pg.offset = 1000;
  pg.pmc_width = 64;
  pg.cap_user_rdpmc = 1;
  own.perf.page[0] = &pg;
  own.shift = 5;
  hw_value = 70;
  hw_reads = 0;
  c = count();
  CHECK(c == 1075 && hw_reads == 1, "a page naming the owner's counter: offset + counter + the "
        "count at fork (%lld)", c);
  pg.index = 3;
  hw_reads = 0;
  c = count();
  CHECK(hw_reads == 0 && c >= 5, "a page naming another counter: not read, the descriptor "
        "instead (%lld)", c);
  CHECK(cpucycles_perfpage_count_at(&pg, 1, hw_read, 0, &c) == 0 && hw_reads == 0,
        "count_at: index 3 is not the only index 1 readable");
  CHECK(cpucycles_perfpage_count_at(&pg, 0, hw_read, 0, &c) == 1 && hw_reads == 1,
        "count_at: any index when only is 0");
  own.perf.page[0] = real;
  own.shift = 0;
  cpucycles_perf_own_close(&owner);
  CHECK(own.perf.n == 0, "closed");
}

/* The perf mappings of this process, counted from /proc/self/maps (-1:
   not readable here). */
static int perf_maps(void)
{
  char line[512];
  int n = 0;
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) n += strstr(line, "perf_event") != 0;
  fclose(f);
  return n;
}

static void open_close(void)
{
  int fds = open_fds(), maps = perf_maps(), i;
  for (i = 0; i < 3; ++i) {
    CHECK(cpucycles_perf_own_open(&owner) == 0 && open_fds() == fds + 1 &&
          (maps < 0 || perf_maps() == maps + 1), "open %d: one descriptor and one mapping more", i);
    cpucycles_perf_own_close(&owner);
    CHECK(open_fds() == fds && (maps < 0 || perf_maps() == maps),
          "close %d: descriptor closed and page unmapped", i);
  }
  cpucycles_perf_own_close(&owner);
  CHECK(own.perf.n == 0 && open_fds() == fds, "closing twice is harmless");
}

int main(void)
{
  long long main_count;

  if (cpucycles_perf_own_open(&owner) != 0) {
    printf("skip perfown: perf_event_open refused a software event here\n");
    return 0;
  }
  busy();
  busy();
  busy();
  main_count = count();
  CHECK(main_count > 0 && own.perf.page[0] && own.perf.page[0]->index == 0,
        "the first thread's event counts (%lld), through its descriptor (index 0)", main_count);
  threads(main_count);
  forked();
  error_state();
  cannot_open();
  page();
  open_close();
  return check_done();
}
