/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* perfpage.c: the perf page arithmetic against simulated pages: index,
   offset, sign extension by pmc_width, retrying while the lock moves,
   index 0 sending the read to the descriptor, and a reader of one counter
   reading no other. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "perfpage.h"

/* A simulated PMU: the value each counter holds, which counters were read,
   and how many more reads should find the kernel rewriting the page. */
struct pmu {
  unsigned long long value[8];
  unsigned int last;
  int reads;
  int moves;
  struct perfabi_page *page;
  long long new_offset;
};

static unsigned long long read_counter(unsigned int n, void *arg)
{
  struct pmu *pmu = arg;
  pmu->last = n;
  ++pmu->reads;
  if (pmu->moves > 0) {
    /* as if an interrupt rewrote the page between the lock and the read */
    --pmu->moves;
    pmu->page->lock += 2;
    pmu->page->offset = pmu->new_offset;
  }
  return pmu->value[n & 7];
}

static void page_init(struct perfabi_page *pg, unsigned int index, long long offset,
                      unsigned int width)
{
  memset(pg, 0, sizeof *pg);
  pg->lock = 10;
  pg->index = index;
  pg->offset = offset;
  pg->pmc_width = (uint16_t)width;
  pg->cap_user_rdpmc = 1;
}

static void single(void)
{
  struct perfabi_page pg;
  struct pmu pmu;
  long long c = -1;

  memset(&pmu, 0, sizeof pmu);
  pmu.page = &pg;
  pmu.value[2] = 5000;
  page_init(&pg, 3, 1000000, 48);
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 1 && c == 1005000,
        "index 3, offset 10^6, counter 5000: 1005000 (%lld)", c);
  CHECK(pmu.last == 2, "index 3 reads hardware counter 2 (%u)", pmu.last);

  pmu.value[2] = 0xffffffffff00ULL; /* -256 in 48 bits */
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 1 && c == 1000000 - 256,
        "48-bit counter with its top bit set is negative (%lld)", c);
  pmu.value[2] = 0xabcd000000000005ULL;
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 1 && c == 1000005,
        "bits above pmc_width are ignored (%lld)", c);
  pmu.value[2] = 0x7fffffffffffULL;
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 1 && c == 1000000 + 0x7fffffffffffLL,
        "largest positive 48-bit value is kept (%lld)", c);
  page_init(&pg, 3, -5000, 40);
  pmu.value[2] = 0xffffffffffULL; /* -1 in 40 bits */
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 1 && c == -5001,
        "40-bit counter and a negative offset (%lld)", c);
  page_init(&pg, 1, 7, 64);
  pmu.value[0] = 0x8000000000000000ULL;
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 1 &&
        (unsigned long long)c == 0x8000000000000007ULL, "64-bit counter taken whole");

  page_init(&pg, 3, 1000000, 48);
  pmu.value[2] = 42;
  pmu.moves = 3;
  pmu.new_offset = 2000000;
  pmu.reads = 0;
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 1 && c == 2000042,
        "lock moved three times: the snapshot after the last move (%lld)", c);
  CHECK(pmu.reads == 4, "four reads for three moves (%d)", pmu.reads);

  pmu.moves = 1000000;
  pmu.reads = 0;
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 0,
        "lock that never settles: give up, read the descriptor");
  CHECK(pmu.reads == CPUCYCLES_PERFPAGE_TRIES, "and give up after a bounded number of tries (%d)",
        pmu.reads);
  pmu.moves = 0;

  pmu.reads = 0;
  page_init(&pg, 0, 1000000, 48);
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 0 && pmu.reads == 0,
        "index 0: no counter read, descriptor instead");
  page_init(&pg, 3, 1000000, 48);
  pg.cap_user_rdpmc = 0;
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 0 && pmu.reads == 0,
        "cap_user_rdpmc 0: no counter read");
  page_init(&pg, 3, 1000000, 0);
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 0 && pmu.reads == 0,
        "pmc_width 0: no counter read");
  page_init(&pg, 3, 1000000, 65);
  CHECK(cpucycles_perfpage_count(&pg, read_counter, &pmu, &c) == 0 && pmu.reads == 0,
        "pmc_width 65: no counter read");

  /* A reader of one counter: arm64's PMCCNTR_EL0 (index 32) with a 64-bit
     cycle event, and a 32-bit one whose upper half is UNKNOWN. */
  page_init(&pg, 32, 5000, 64);
  pmu.value[31 & 7] = 0;
  pmu.value[7] = 123;
  pmu.reads = 0;
  CHECK(cpucycles_perfpage_count_at(&pg, 32, read_counter, &pmu, &c) == 1 && c == 5123 &&
        pmu.last == 31, "only index 32: hardware counter 31 read (%lld, counter %u)", c, pmu.last);
  page_init(&pg, 32, 5000, 32);
  pmu.value[7] = 0xdeadbeef00000010ULL;
  CHECK(cpucycles_perfpage_count_at(&pg, 32, read_counter, &pmu, &c) == 1 && c == 5016,
        "32 bits wide: the upper half ignored (%lld)", c);
  page_init(&pg, 4, 5000, 64);
  pmu.reads = 0;
  CHECK(cpucycles_perfpage_count_at(&pg, 32, read_counter, &pmu, &c) == 0 && pmu.reads == 0,
        "only index 32, page names index 4: nothing read, descriptor instead");
  page_init(&pg, 1, 5000, 64);
  CHECK(cpucycles_perfpage_count_at(&pg, 1, read_counter, &pmu, &c) == 1 && pmu.last == 0,
        "only index 1 (RISC-V's cycle CSR): counter 0 read");
  page_init(&pg, 19, 5000, 64);
  pmu.reads = 0;
  CHECK(cpucycles_perfpage_count_at(&pg, 1, read_counter, &pmu, &c) == 0 && pmu.reads == 0,
        "only index 1, event on hpmcounter18 (index 19): nothing read");
}

int main(void)
{
  single();
  return check_done();
}
