/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* perf.c: opening, mapping and closing the perf_event cycle events that
   the perf counters rely on (see perf.h). Compiled for Linux only
   (scripts-build/os-linux.mk). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "internal.h"
#include "perfpage.h"

/* An event for this thread; for a hardware event, on the PMU of the given
   type (0: whichever PMU the generic hardware event lands on). Kernels and
   hypervisors differ in which exclusions they accept, so every combination
   is tried, most exclusive first. */
/* Set once the kernel has said there is no hardware cycle event here
   (ENOENT, ENODEV) or no perf_event at all (ENOSYS): three counters ask
   during one selection, and the answer does not change. */
static int no_hardware, no_perf;

static int open_one(unsigned int type, unsigned long long config, unsigned int pmu,
                    unsigned long long config1)
{
  struct perfabi_attr attr;
  int kernel, hv;

  if (no_perf || (type == PERFABI_TYPE_HARDWARE && no_hardware)) return -1;

  for (kernel = 1; kernel >= 0; --kernel)
    for (hv = 1; hv >= 0; --hv) {
      long fd;
      memset(&attr, 0, sizeof attr);
      attr.type = type;
      attr.size = sizeof attr;
      attr.config = config | (unsigned long long)pmu << PERFABI_PMU_TYPE_SHIFT;
      attr.config1 = config1;
      /* A flexible event is taken off its counter whenever more events
         want counters than there are (multiplexing), and a counter read
         in user mode then stops or belongs to another event. A pinned one
         stays on whenever its thread runs, or fails for good (its page
         says index 0 and read() returns no bytes), which readers treat
         as failure. */
      attr.pinned = 1;
      attr.exclude_kernel = (unsigned)kernel;
      attr.exclude_hv = (unsigned)hv;
      fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERFABI_FLAG_FD_CLOEXEC);
      if (fd >= 0) return (int)fd;
      /* No such event, no such PMU, no perf_event at all: no exclusion
         changes that, and three more refused calls per counter were ~10 us
         of a first call in a VM without a PMU. */
      if (errno == ENOSYS) no_perf = 1;
      if ((errno == ENOENT || errno == ENODEV) && type == PERFABI_TYPE_HARDWARE) no_hardware = 1;
      if (errno == ENOENT || errno == ENODEV || errno == ENOSYS) return -1;
    }
  return -1;
}

/* A PMU type file: a decimal number and a newline. The name is joined by
   hand into a small buffer: snprintf and a page-sized buffer took 5 KB of
   a first call's stack, which may be a signal handler's 8 KiB. Only tests
   give a root, and a short one. */
static int read_type(const char *root, const char *pmu, unsigned int *type)
{
  static const char dir[] = "/sys/bus/event_source/devices/", file[] = "/type";
  char name[128], buf[32];
  size_t r = strlen(root), p = strlen(pmu);
  unsigned long long v = 0;
  ssize_t n, i;
  int fd;

  if (r + sizeof dir - 1 + p + sizeof file > sizeof name) return -1;
  memcpy(name, root, r);
  memcpy(name + r, dir, sizeof dir - 1);
  memcpy(name + r + sizeof dir - 1, pmu, p);
  memcpy(name + r + sizeof dir - 1 + p, file, sizeof file);
  fd = open(name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return -1;
  n = read(fd, buf, sizeof buf);
  close(fd);
  if (n <= 0 || n == (ssize_t)sizeof buf) return -1;
  if (buf[n - 1] == '\n') --n;
  for (i = 0; i < n; ++i) {
    if (buf[i] < '0' || buf[i] > '9') return -1;
    v = v * 10 + (unsigned)(buf[i] - '0');
    if (v > 0xffffffffULL) return -1;
  }
  if (n == 0) return -1;
  *type = (unsigned int)v;
  return 0;
}

int cpucycles_perf_core_types(const char *root, unsigned int types[CPUCYCLES_PERF_MAX])
{
  static const char *const pmus[CPUCYCLES_PERF_MAX] = { "cpu_core", "cpu_atom" };
  int i, n = 0;
  for (i = 0; i < CPUCYCLES_PERF_MAX; ++i)
    if (read_type(root, pmus[i], &types[n]) == 0) ++n;
  return n;
}

/* An event's count through its descriptor: 0 when read() gives no count,
   as for a pinned event in its error state. */
static int fd_count(int fd, long long *count)
{
  int64_t c;
  if (fd < 0 || read(fd, &c, sizeof c) != (ssize_t)sizeof c) return 0;
  *count = (long long)c;
  return 1;
}

static size_t page_size(void)
{
  long ps = sysconf(_SC_PAGESIZE);
  return ps > 0 ? (size_t)ps : 4096;
}

static void drop(struct cpucycles_perf *p, int unmap)
{
  int i;
  for (i = 0; i < p->n; ++i) {
    if (unmap && p->page[i]) munmap((void *)p->page[i], page_size());
    p->page[i] = 0;
    if (p->fd[i] >= 0) close(p->fd[i]);
    p->fd[i] = -1;
  }
  p->n = 0;
}

/* This machine's core PMUs, looked up once: three counters open cycle
   events during one selection, and each sysfs lookup of a first call is
   a cold path walk of several microseconds. */
static int machine_core_types(unsigned int types[CPUCYCLES_PERF_MAX])
{
  static unsigned int known[CPUCYCLES_PERF_MAX];
  static int n = -1;
  int i;
  if (n < 0) n = cpucycles_perf_core_types("", known);
  for (i = 0; i < n; ++i) types[i] = known[i];
  return n;
}

static int open_events(struct cpucycles_perf *p)
{
  unsigned int types[CPUCYCLES_PERF_MAX];
  int i, n = 0;

  if (p->type == PERFABI_TYPE_HARDWARE) n = machine_core_types(types);
  p->n = 0;
  for (i = 0; i < (n ? n : 1); ++i) {
    void *page;
    p->fd[i] = open_one(p->type, p->config, n ? types[i] : 0, p->config1);
    p->page[i] = 0;
    p->n = i + 1;
    if (p->fd[i] < 0) goto fail;
    if (!(p->flags & CPUCYCLES_PERF_MAP)) continue;
    page = mmap(0, page_size(), PROT_READ, MAP_SHARED, p->fd[i], 0);
    if (page == MAP_FAILED) goto fail;
    p->page[i] = page;
  }
  return 0;
fail:
  drop(p, 1);
  return -1;
}

static void forget_own(int child);
static void before_fork(void);

/* The kernel does not copy perf mappings into a forked child, and the
   events it inherits count the parent: a child reading a page it no longer
   has would crash. So the child's thread drops them and opens its own on
   its first read. */
static void in_child(void)
{
  forget_own(1);
}

static int fork_handled(void)
{
  static int registered;
  if (!registered) {
    if (pthread_atfork(before_fork, 0, in_child) != 0) return -1;
    registered = 1;
  }
  return 0;
}

int cpucycles_perf_user_read(const struct cpucycles_perf *p)
{
  int i;
  for (i = 0; i < p->n; ++i)
    if (!p->page[i] || !p->page[i]->cap_user_rdpmc) return 0;
  return p->n > 0;
}

/* ---- each thread's own events ---- */

/* The owners whose threads may hold events, so that a thread's events are
   closed when it exits and dropped in a forked child. Written by the
   selecting thread before the counter is published. */
#define OWNERS_MAX 4
static struct cpucycles_perf_owner *owners[OWNERS_MAX];
static pthread_key_t exit_key;
static int exit_key_made;

/* This thread's events of every owner, closed (unmap: and unmapped; a
   forked child has descriptors but no pages). In a forked child the
   thread goes on from the count it had as it forked. */
static void forget_own(int child)
{
  int i;
  for (i = 0; i < OWNERS_MAX; ++i)
    if (owners[i]) {
      struct cpucycles_perf_own *t = owners[i]->mine();
      drop(&t->perf, !child);
      t->state = CPUCYCLES_PERF_OWN_NONE;
      if (child) t->shift = t->last = t->at_fork;
    }
}

/* Before a fork, the forking thread's count, for the child to go on from
   (a read of its page or descriptor, only where it has events). */
static void before_fork(void)
{
  int i;
  for (i = 0; i < OWNERS_MAX; ++i)
    if (owners[i]) {
      struct cpucycles_perf_own *t = owners[i]->mine();
      t->at_fork = t->state == CPUCYCLES_PERF_OWN_NONE ? t->last : cpucycles_perf_own_count(owners[i]);
    }
}

static void at_thread_exit(void *unused)
{
  (void)unused;
  forget_own(0);
}

static int adopt(struct cpucycles_perf_owner *o)
{
  int i, free_slot = -1;
  if (fork_handled() != 0) return -1;
  if (!exit_key_made) {
    if (pthread_key_create(&exit_key, at_thread_exit) != 0) return -1;
    exit_key_made = 1;
  }
  for (i = 0; i < OWNERS_MAX; ++i) {
    if (owners[i] == o) return 0;
    if (!owners[i] && free_slot < 0) free_slot = i;
  }
  if (free_slot < 0) return -1;
  owners[free_slot] = o;
  return 0;
}

/* Opens the calling thread's events; 0, or -1 with nothing open. The
   owner is adopted once an event opens, so a first call on a machine
   without perf_event registers nothing. The key's value only has to be
   non-null for at_thread_exit to run. */
static int open_own(struct cpucycles_perf_owner *o, struct cpucycles_perf_own *t)
{
  t->perf.type = o->type;
  t->perf.config = o->config;
  t->perf.config1 = o->config1;
  t->perf.flags = o->flags & CPUCYCLES_PERF_MAP;
  if (open_events(&t->perf) != 0) return -1;
  if (adopt(o) != 0 || pthread_setspecific(exit_key, (void *)o) != 0) {
    drop(&t->perf, 1);
    return -1;
  }
  t->state = CPUCYCLES_PERF_OWN_OPEN;
  return 0;
}

int cpucycles_perf_own_open(struct cpucycles_perf_owner *o)
{
  struct cpucycles_perf_own *t = o->mine();
  drop(&t->perf, 1);
  t->state = CPUCYCLES_PERF_OWN_NONE;
  t->shift = t->last = 0;
  return open_own(o, t);
}

void cpucycles_perf_own_close(struct cpucycles_perf_owner *o)
{
  struct cpucycles_perf_own *t = o->mine();
  drop(&t->perf, 1);
  t->state = CPUCYCLES_PERF_OWN_NONE;
}

/* From here on the thread counts with the OS clock at the estimated rate,
   starting from a count no smaller than any it returned: its events are
   gone (an error state, which a pinned event enters when the kernel
   cannot give it a counter) or it could not open any (no descriptors
   left). Readings go on increasing and never decrease. A stopped event's
   page holds its final count in offset, with index 0. The rate is the
   estimate from the persecond sources, the figure cpucycles_persecond()
   gives, asked here rather than of the API above: a file below api.c
   never calls it (doc/internals.md). */
static void start_clock(struct cpucycles_perf_own *t)
{
  long long base = t->last, stopped = t->shift;
  int i;
  for (i = 0; i < t->perf.n; ++i)
    if (t->perf.page[i] && !t->perf.page[i]->index) stopped += (long long)t->perf.page[i]->offset;
  if (stopped > base) base = stopped;
  drop(&t->perf, 1);
  t->base = base;
  t->since = cpucycles_os_ns();
  if (!t->persecond) t->persecond = cpucycles_persecond_here();
  t->state = CPUCYCLES_PERF_OWN_CLOCK;
}

static long long on_clock(const struct cpucycles_perf_own *t)
{
  double rate = (double)t->persecond / 1e9;
  long long ns = cpucycles_os_ns() - t->since;
  return t->base + (long long)((double)(ns > 0 ? ns : 0) * rate);
}

long long cpucycles_perf_own_count(struct cpucycles_perf_owner *o)
{
  struct cpucycles_perf_own *t = o->mine();
  long long total = t->shift, c;
  int i;

  if (t->state == CPUCYCLES_PERF_OWN_NONE && open_own(o, t) != 0) start_clock(t);
  if (t->state == CPUCYCLES_PERF_OWN_CLOCK) return on_clock(t);
  for (i = 0; i < t->perf.n; ++i) {
    if (o->counter && t->perf.page[i] &&
        cpucycles_perfpage_count_at(t->perf.page[i], o->only, o->counter, 0, &c)) {
      total += c;
      continue;
    }
    if (!fd_count(t->perf.fd[i], &c)) {
      start_clock(t);
      return on_clock(t);
    }
    total += c;
  }
  t->last = total;
  return total;
}

