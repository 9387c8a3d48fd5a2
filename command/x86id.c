/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* x86id.c: see x86id.h. Each CPUID in a virtual machine traps to the
   hypervisor (microseconds), so only the leaves whose existence an
   earlier leaf states are asked. */
#include <string.h>
#include "words.h"
#include "x86id.h"

/* The 12 bytes of three registers, in the order given, as a string. */
static void spell(char out[13], unsigned a, unsigned b, unsigned c)
{
  unsigned r[3];
  int i;
  r[0] = a;
  r[1] = b;
  r[2] = c;
  for (i = 0; i < 12; ++i) out[i] = (char)(r[i / 4] >> (8 * (i % 4)));
  out[12] = 0;
}

void x86id_ask(x86id_cpuid_fn *cpuid, void *ctx, struct x86id *id)
{
  unsigned r[4];

  memset(id, 0, sizeof *id);
  id->present = 1;
  cpuid(ctx, 0, r);
  spell(id->vendor, r[1], r[3], r[2]);
  if (r[0] >= 1) {
    cpuid(ctx, 1, r);
    id->leaf1_ecx = r[2];
    id->hypervisor = (r[2] >> 31) & 1;
  }
  /* the hypervisor range is only defined when bit 31 says one is there;
     otherwise the leaf answers whatever the CPU answers beyond its maximum */
  if (id->hypervisor) {
    cpuid(ctx, 0x40000000, r);
    id->hv_max = r[0];
    spell(id->hv_vendor, r[1], r[2], r[3]);
  }
  cpuid(ctx, 0x80000000, r);
  id->max_ext = r[0];
  /* an old CPU answers a leaf beyond its range with another leaf's values */
  if (r[0] >= 0x80000007 && r[0] <= 0x800000ff) {
    cpuid(ctx, 0x80000007, r);
    id->invariant_known = 1;
    id->power_edx = r[3];
  }
}

int x86id_intel(const struct x86id *id)
{
  return id->present && strcmp(id->vendor, "GenuineIntel") == 0;
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static void instruction(void *ctx, unsigned leaf, unsigned r[4])
{
  (void)ctx;
  __cpuid_count(leaf, 0, r[0], r[1], r[2], r[3]);
}

void x86id_read(struct x86id *id)
{
#ifdef __i386__
  /* a 486 or older has no CPUID: __get_cpuid_max tries EFLAGS.ID first
     (every x86-64 has the instruction, and each one asked in a virtual
     machine is an exit, so only here) */
  if (__get_cpuid_max(0, 0) == 0) {
    memset(id, 0, sizeof *id);
    return;
  }
#endif
  x86id_ask(instruction, 0, id);
}
#else
void x86id_read(struct x86id *id)
{
  memset(id, 0, sizeof *id);
}
#endif

void x86id_report(FILE *out, const struct x86id *id)
{
  char vendor[WORDS_MAX + 4];
  size_t len;

  if (!id->present) {
    fprintf(out, "cpucycles trust hypervisor-unknown (no CPUID on this CPU): whether this is a "
                 "virtual machine cpucycles-info cannot tell here\n");
    return;
  }
  if (!id->invariant_known)
    fprintf(out, "cpucycles trust tsc-unknown 0x%08x (CPUID 0x80000000 EAX, the highest extended "
                 "leaf, is below 0x80000007): the CPU does not say whether its TSC is invariant; "
                 "count on it running at one rate only if the kernel uses it (tsc-kernel-uses)\n",
            id->max_ext);
  else if (id->power_edx & (1U << 8))
    fprintf(out, "cpucycles trust tsc-invariant 0x%08x (CPUID 0x80000007 EDX bit 8 set): the TSC "
                 "ticks at one rate whatever the core's frequency and sleep states, so its ticks "
                 "are time, and core cycles only at that rate\n", id->power_edx);
  else
    fprintf(out, "cpucycles trust tsc-variant 0x%08x (CPUID 0x80000007 EDX bit 8 clear): the TSC "
                 "may change rate with the core's frequency or stop in sleep states: its ticks are "
                 "neither time nor cycles\n", id->power_edx);

  if (!id->hypervisor) {
    fprintf(out, "cpucycles trust hypervisor-none 0x%08x (CPUID 1 ECX bit 31 clear): no "
                 "hypervisor says it is there (one that hides is not seen)\n", id->leaf1_ecx);
    return;
  }
  /* the vendor pads with NULs or spaces; keep what it spelled */
  len = strlen(id->hv_vendor);
  while (len && id->hv_vendor[len - 1] == ' ') --len;
  words_one(id->hv_vendor, len, vendor);
  fprintf(out, "cpucycles trust hypervisor %s (CPUID 1 ECX bit 31 set, CPUID 0x40000000 EBX ECX "
               "EDX): a virtual machine: its virtual CPUs share the host's cores and may be "
               "descheduled mid-measurement, and the PMU and the frequency are the host's to give "
               "or withhold\n", vendor);
}
