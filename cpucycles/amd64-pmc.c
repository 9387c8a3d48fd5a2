/* amd64-pmc: the core's cycle counter through RDPMC. Needs 64-bit x86 and
   Linux perf_event: opening a cycle event and mapping its page makes the
   kernel allow RDPMC in user mode (perf_event_paranoid at most 2,
   /sys/devices/cpu/rdpmc not 0) and tells which counter holds the event. */
#if !defined(__x86_64__)
#error "amd64-pmc is for 64-bit x86"
#endif
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>
#include "counter.h"
#include "perf.h"

static int fd = -1;
static volatile struct perf_event_mmap_page *page;
static size_t pagesize;

#define BARRIER() __asm__ __volatile__("" ::: "memory")

/* The page is a seqlock: read index and offset, read the counter, and start
   over if the kernel rewrote the page meanwhile. The hardware counter is
   pmc_width bits wide; its top bit is a sign. */
static long long pmc_read(void)
{
  unsigned int seq, index, lo, hi;
  unsigned long long count;
  unsigned width;

  do {
    seq = page->lock;
    BARRIER();
    index = page->index;
    count = (unsigned long long)page->offset;
    if (index) {
      __asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(index - 1));
      width = page->pmc_width;
      if (width > 0 && width < 64) {
        unsigned long long raw = ((unsigned long long)hi << 32) | lo;
        count += (unsigned long long)((long long)(raw << (64 - width)) >> (64 - width));
      }
    }
    BARRIER();
  } while (page->lock != seq);
  return (long long)count;
}

static void pmc_release(void)
{
  if (page) munmap((void *)page, pagesize);
  page = 0;
  if (fd >= 0) close(fd);
  fd = -1;
}

static int pmc_setup(struct cpucycles_setup *s)
{
  void *p;
  long ps = sysconf(_SC_PAGESIZE);

  pagesize = ps > 0 ? (size_t)ps : 4096;
  fd = cpucycles_perf_open_cycles();
  if (fd < 0) return -1;
  p = mmap(0, pagesize, PROT_READ, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    pmc_release();
    return -1;
  }
  page = p;
  if (!page->cap_user_rdpmc || !page->index) {
    pmc_release();
    return -1;
  }
  s->kind = CPUCYCLES_CORE;
  return 0;
}

COUNTER_DEFINE(pmc_read, pmc_setup, pmc_release);
