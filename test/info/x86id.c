/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* x86id.c: the TSC and hypervisor lines of cpucycles-info
   (command/x86id.c) from CPUs played by a table of CPUID leaves: a KVM
   guest on AMD, an old Intel without the power leaf, Hyper-V, a variant
   TSC, a hostile vendor string; which leaves each one is asked; and the
   real instruction where there is one. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "capture.h"
#include "x86id.h"

struct leaf {
  unsigned leaf, r[4];
};

struct cpu {
  const struct leaf *leaves;
  int n;
  unsigned asked[16];
  int nasked;
};

/* Registers spelling 12 bytes, as CPUID lays a vendor out (leaf 0: EBX
   EDX ECX; the hypervisor leaf: EBX ECX EDX). */
static unsigned word(const char *s, int k)
{
  return (unsigned)(unsigned char)s[4 * k] | (unsigned)(unsigned char)s[4 * k + 1] << 8 |
         (unsigned)(unsigned char)s[4 * k + 2] << 16 | (unsigned)(unsigned char)s[4 * k + 3] << 24;
}

/* A leaf the table lacks answers zeros, as a CPU does within its range. */
static void cpuid(void *ctx, unsigned leaf, unsigned r[4])
{
  struct cpu *c = ctx;
  int i;
  if (c->nasked < 16) c->asked[c->nasked++] = leaf;
  memset(r, 0, 4 * sizeof r[0]);
  for (i = 0; i < c->n; ++i)
    if (c->leaves[i].leaf == leaf) memcpy(r, c->leaves[i].r, 4 * sizeof r[0]);
}

static int asked(const struct cpu *c, unsigned leaf)
{
  int i;
  for (i = 0; i < c->nasked; ++i)
    if (c->asked[i] == leaf) return 1;
  return 0;
}

static void report(const struct x86id *id)
{
  FILE *f = capture_start();
  x86id_report(f, id);
  capture_end(f);
}

static int printable(void)
{
  const unsigned char *p;
  for (p = (const unsigned char *)capture_out; *p; ++p)
    if ((*p < ' ' || *p > '~') && *p != '\n') return 0;
  return 1;
}

#define PLAY(table, c, id)                                      \
  do {                                                          \
    memset(&c, 0, sizeof c);                                    \
    c.leaves = table;                                           \
    c.n = (int)(sizeof table / sizeof table[0]);                \
    x86id_ask(cpuid, &c, &id);                                  \
    report(&id);                                                \
  } while (0)

int main(void)
{
  struct cpu c;
  struct x86id id;
  const char *amd = "AuthenticAMD", *intel = "GenuineIntel", *kvm = "KVMKVMKVM\0\0\0",
             *hv = "Microsoft Hv";
  const struct leaf kvm_amd[] = {
    {0, {0x10, word(amd, 0), word(amd, 2), word(amd, 1)}},
    {1, {0x00a00f11, 0, 0xfed83203, 0x178bfbff}},
    {0x40000000, {0x40000001, word(kvm, 0), word(kvm, 1), word(kvm, 2)}},
    {0x80000000, {0x80000021, 0, 0, 0}},
    {0x80000007, {0, 0, 0, 0x00000100}},
  };
  const struct leaf old_intel[] = {
    {0, {0x0d, word(intel, 0), word(intel, 2), word(intel, 1)}},
    {1, {0x000206a7, 0, 0x1fbae3bf, 0xbfebfbff}},
    {0x80000000, {0x80000004, 0, 0, 0}},
    /* beyond the range: an Intel answers another leaf's values; a test
       that asks it would see this bit and say invariant */
    {0x80000007, {0, 0, 0, 0x00000100}},
    {0x40000000, {0x40000001, 1, 2, 3}},
  };
  const struct leaf hyperv[] = {
    {0, {0x16, word(intel, 0), word(intel, 2), word(intel, 1)}},
    {1, {0x000906ea, 0, 0x80000000, 0}},
    {0x40000000, {0x4000000b, word(hv, 0), word(hv, 1), word(hv, 2)}},
    {0x80000000, {0x80000008, 0, 0, 0}},
    {0x80000007, {0, 0, 0, 0}},
  };
  const struct leaf hostile[] = {
    {0, {1, 0x01020304, 0xffffffff, 0x0a0d1b7f}},
    {1, {0, 0, 0x80000000, 0}},
    {0x40000000, {0x40000000, 0x0a0d1b7f, 0x20202020, 0x00ff80c3}},
    {0x80000000, {0x12345678, 0, 0, 0}},
  };

  PLAY(kvm_amd, c, id);
  CAPTURED("cpucycles trust tsc-invariant 0x00000100 (CPUID 0x80000007 EDX bit 8 set): ",
       "KVM on AMD: invariant TSC");
  CAPTURED("cpucycles trust hypervisor KVMKVMKVM (CPUID 1 ECX bit 31 set, CPUID 0x40000000 EBX ECX "
       "EDX): ", "KVM on AMD: the hypervisor's vendor, its padding gone");
  CHECK(capture_lines() == 2, "KVM on AMD: two lines (%d)", capture_lines());
  CHECK(!x86id_intel(&id), "KVM on AMD: not Intel");
  CHECK(c.nasked == 5, "KVM on AMD: five leaves asked (%d)", c.nasked);

  PLAY(old_intel, c, id);
  CAPTURED("cpucycles trust tsc-unknown 0x80000004 (CPUID 0x80000000 EAX, the highest extended leaf, "
       "is below 0x80000007): ", "old Intel: the power leaf is beyond its range");
  CAPTURED("cpucycles trust hypervisor-none 0x1fbae3bf (CPUID 1 ECX bit 31 clear): ",
       "old Intel: no hypervisor");
  CHECK(!asked(&c, 0x80000007) && !asked(&c, 0x40000000),
        "old Intel: neither the leaf beyond the range nor the hypervisor's is asked");
  CHECK(x86id_intel(&id), "old Intel: Intel");

  PLAY(hyperv, c, id);
  CAPTURED("cpucycles trust tsc-variant 0x00000000 (CPUID 0x80000007 EDX bit 8 clear): ",
       "Hyper-V guest: the TSC bit clear");
  CAPTURED("cpucycles trust hypervisor Microsoft_Hv (", "Hyper-V: its vendor as one word");

  PLAY(hostile, c, id);
  CHECK(printable(), "hostile registers: printable lines");
  CAPTURED("cpucycles trust tsc-unknown 0x12345678 (", "hostile: an extended maximum out of its range");
  CAPTURED("cpucycles trust hypervisor ??_??? (", "hostile vendor bytes: each unprintable a ?, "
       "a run of spaces and line ends one _, cut at the first NUL");
  CHECK(!asked(&c, 0x80000007), "hostile: no leaf 0x80000007 asked");
  CHECK(capture_lines() == 2, "hostile: two lines (%d)", capture_lines());

  memset(&id, 0, sizeof id);
  report(&id);
  CAPTURED("cpucycles trust hypervisor-unknown (no CPUID on this CPU): ", "no CPUID: one line saying so");
  CHECK(capture_lines() == 1, "no CPUID: that line alone (%d)", capture_lines());

  x86id_read(&id);
#if defined(__x86_64__) || defined(__i386__)
  CHECK(id.present, "this x86 CPU answers CPUID");
  CHECK(strlen(id.vendor) == 12 || id.vendor[0] == 0, "its vendor has 12 bytes (%s)", id.vendor);
#else
  CHECK(!id.present, "no CPUID on this CPU: present 0");
#endif
  return check_done();
}
