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
#include "perf.h"

#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC (1UL << 3)
#endif
#ifndef PERF_PMU_TYPE_SHIFT
#define PERF_PMU_TYPE_SHIFT 32
#endif

/* An event for this thread; for a hardware event, on the PMU of the given
   type (0: whichever PMU the generic hardware event lands on). Kernels and
   hypervisors differ in which exclusions they accept, so every combination
   is tried, most exclusive first. */
/* Set once the kernel has said there is no hardware cycle event here
   (ENOENT, ENODEV) or no perf_event at all (ENOSYS): three counters ask
   during one selection, and the answer does not change. */
static int no_hardware, no_perf;

static int open_one(unsigned int type, unsigned long long config, unsigned int pmu,
                    unsigned long long config1, int inherit)
{
  struct perf_event_attr attr;
  int kernel, hv;

  if (no_perf || (type == PERF_TYPE_HARDWARE && no_hardware)) return -1;

  for (kernel = 1; kernel >= 0; --kernel)
    for (hv = 1; hv >= 0; --hv) {
      long fd;
      memset(&attr, 0, sizeof attr);
      attr.type = type;
      attr.size = sizeof attr;
      attr.config = config | (unsigned long long)pmu << PERF_PMU_TYPE_SHIFT;
      attr.config1 = config1;
      attr.inherit = inherit ? 1 : 0;
      attr.exclude_kernel = (unsigned)kernel;
      attr.exclude_hv = (unsigned)hv;
      fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
      if (fd >= 0) return (int)fd;
      /* No such event, no such PMU, no perf_event at all: no exclusion
         changes that, and three more refused calls per counter were ~10 us
         of a first call in a VM without a PMU. */
      if (errno == ENOSYS) no_perf = 1;
      if ((errno == ENOENT || errno == ENODEV) && type == PERF_TYPE_HARDWARE) no_hardware = 1;
      if (errno == ENOENT || errno == ENODEV || errno == ENOSYS) return -1;
    }
  return -1;
}

int cpucycles_perf_open_cycles(void)
{
  return open_one(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 0, 0);
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

/* What a forked child sees in place of a page it could not get back: index
   0, so the page reader falls back to the descriptor. */
static const struct perf_event_mmap_page zero_page;

static size_t page_size(void)
{
  long ps = sysconf(_SC_PAGESIZE);
  return ps > 0 ? (size_t)ps : 4096;
}

static void drop(struct cpucycles_perf *p, int unmap)
{
  int i;
  for (i = 0; i < p->n; ++i) {
    if (unmap && p->page[i] && p->page[i] != &zero_page)
      munmap((void *)p->page[i], page_size());
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

  if (p->type == PERF_TYPE_HARDWARE) n = machine_core_types(types);
  p->n = 0;
  for (i = 0; i < (n ? n : 1); ++i) {
    void *page;
    p->fd[i] = open_one(p->type, p->config, n ? types[i] : 0, p->config1,
                        p->flags & CPUCYCLES_PERF_INHERIT);
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

/* The kernel does not copy perf mappings into a forked child, and the
   events count the parent only; a child reading a page it no longer has
   would crash. So every mapped event set still open is opened afresh in
   the child; failing that, its pages read as index 0. */
#define LIVE_MAX 8
static struct cpucycles_perf *live[LIVE_MAX];

static void in_child(void)
{
  int i;
  for (i = 0; i < LIVE_MAX; ++i) {
    struct cpucycles_perf *p = live[i];
    if (!p) continue;
    drop(p, 0);
    if (open_events(p) != 0) {
      p->n = 1;
      p->fd[0] = -1;
      p->page[0] = (volatile struct perf_event_mmap_page *)&zero_page;
    }
  }
}

static int watch(struct cpucycles_perf *p)
{
  static int registered;
  int i;
  if (!registered) {
    if (pthread_atfork(0, 0, in_child) != 0) return -1;
    registered = 1;
  }
  for (i = 0; i < LIVE_MAX; ++i)
    if (!live[i]) {
      live[i] = p;
      return 0;
    }
  return -1;
}

static void unwatch(struct cpucycles_perf *p)
{
  int i;
  for (i = 0; i < LIVE_MAX; ++i)
    if (live[i] == p) live[i] = 0;
}

int cpucycles_perf_open_event(struct cpucycles_perf *p, unsigned int type,
                              unsigned long long config, unsigned long long config1, int flags)
{
  p->type = type;
  p->config = config;
  p->config1 = config1;
  p->flags = flags;
  if (open_events(p) != 0) return -1;
  if ((flags & CPUCYCLES_PERF_MAP) && watch(p) != 0) {
    drop(p, 1);
    return -1;
  }
  return 0;
}

int cpucycles_perf_open(struct cpucycles_perf *p, unsigned long long config1, int flags)
{
  return cpucycles_perf_open_event(p, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, config1, flags);
}

void cpucycles_perf_close(struct cpucycles_perf *p)
{
  unwatch(p);
  drop(p, 1);
}

int cpucycles_perf_user_read(const struct cpucycles_perf *p)
{
  int i;
  for (i = 0; i < p->n; ++i)
    if (!p->page[i] || !p->page[i]->cap_user_rdpmc) return 0;
  return p->n > 0;
}

long long cpucycles_perf_fd_count(int fd)
{
  int64_t count;
  if (fd < 0 || read(fd, &count, sizeof count) != (ssize_t)sizeof count) return 0;
  return (long long)count;
}

