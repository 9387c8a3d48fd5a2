# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""trustlines.py: cpucycles-info's trust and crosscore lines (doc/trust.md),
judged against this machine as Python reads it apart from the C code:
/proc/cpuinfo's flags for the hypervisor and the TSC, the clocksource
file, the process's affinity. Used by test/checks/info.py (the lines)
and test/checks/trustdoc.py (the codes the sources can print).
"""
import os
import re

PREFIXES = ('trust', 'crosscore')


def documented(src):
    """doc/trust.md -> {'trust': {code, ...}, 'crosscore': {...}}: the codes
    in the first column of each section's table."""
    codes = {p: set() for p in PREFIXES}
    section = None
    with open(os.path.join(src, 'doc', 'trust.md'), encoding='utf-8') as f:
        for line in f:
            m = re.match(r'## `cpucycles (\w+)`', line)
            if line.startswith('## '):
                section = m.group(1) if m and m.group(1) in codes else None
            m = re.match(r'\| `([a-z0-9-]+)` \|', line)
            if m and section:
                codes[section].add(m.group(1))
    return codes


def in_man_page(src):
    """doc/man-src/cpucycles-info.1.md -> the same: the bold codes of its
    TRUST CODES and CROSSCORE CODES sections."""
    codes = {p: set() for p in PREFIXES}
    section = None
    with open(os.path.join(src, 'doc', 'man-src', 'cpucycles-info.1.md'), encoding='utf-8') as f:
        for line in f:
            if line.startswith('# '):
                m = re.match(r'# (TRUST|CROSSCORE) CODES$', line.strip())
                section = m.group(1).lower() if m else None
            elif section and line.startswith('**'):
                codes[section].update(re.findall(r'\*\*([a-z0-9-]+)\*\*', line))
    return codes


def printed_by_sources(src):
    """Every code command/*.c can print -> {'trust': {...}, 'crosscore': {...}}."""
    codes = {p: set() for p in PREFIXES}
    folder = os.path.join(src, 'command')
    for name in sorted(os.listdir(folder)):
        if name.endswith('.c'):
            with open(os.path.join(folder, name), encoding='utf-8') as f:
                for p, code in re.findall(r'"cpucycles (trust|crosscore) ([a-z0-9-]+)', f.read()):
                    codes[p].add(code)
    return codes


def cpuinfo_flags():
    """The first CPU's flags in /proc/cpuinfo (x86 Linux), or None."""
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('flags'):
                    return set(line.split(':', 1)[1].split())
    except OSError:
        pass
    return None


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def codes_of(lines, prefix):
    """[(code, rest)] of the lines of one prefix."""
    out = []
    for line in lines:
        m = re.match(r'cpucycles %s ([a-z0-9-]+)(?: (.*))?$' % prefix, line)
        if m:
            out.append((m.group(1), m.group(2) or ''))
    return out


SUMMARIES = ('offset', 'unmeasured', 'one-cpu', 'per-thread', 'no-counter', 'not-available')


def check_lines(t, trust, crosscore, impl, counter, rerun):
    """trust, crosscore: the lines of each prefix, in order; counter: impl's
    row of cpucycles/options (tables.Counter), None when it has none. rerun(): the
    crosscore lines of another run of cpucycles-info, for a measurement a
    busy machine left without bounds."""
    result = t.result
    doc = documented(t.src)
    tcodes = codes_of(trust, 'trust')
    ccodes = codes_of(crosscore, 'crosscore')
    result(len(tcodes) == len(trust) and len(ccodes) == len(crosscore),
           'every trust and crosscore line is the prefix and a code')
    undocumented = sorted({c for c, _ in tcodes} - doc['trust']) + \
        sorted({c for c, _ in ccodes} - doc['crosscore'])
    result(not undocumented, 'every code printed is in doc/trust.md (not: %s)' % undocumented)
    result(all(': ' in r or c in ('pair', 'pair-unmeasured') for c, r in tcodes + ccodes),
           'every trust line says what it read, then after ": " what it means')
    found = dict(tcodes)
    # only where the program runs here, natively: an emulator answers CPUID
    # and a guest has its own /sys
    native = not t.prefix
    if t.here == 'linux' and native:
        check_linux(t, found)
    elif t.here == 'macos':
        result('sysfs-none' in found and 'affinity-unknown' in found,
               'macOS: no /sys lines but sysfs-none, and affinity-unknown (%s)' % sorted(found))
    check_crosscore(t, ccodes, impl, counter, native and t.here == 'linux', rerun)


def check_linux(t, found):
    result = t.result
    current = read('/sys/devices/system/clocksource/clocksource0/current_clocksource')
    if current:
        result(found.get('clocksource', '').startswith(current + ' ('),
               'the clocksource line names %s, as its file says (%r)' % (current, found.get('clocksource')))
    else:
        result('clocksource-none' in found, 'no clocksource file: clocksource-none')
    allowed = sorted(os.sched_getaffinity(0))
    line = found.get('affinity', '')
    m = re.match(r'(\S+) \(sched_getaffinity: (\d+) CPUs? of (\d+) online\)', line)
    cpus = set()
    for part in (m.group(1).split(',') if m else []):
        a, _, b = part.partition('-')
        cpus.update(range(int(a), int(b or a) + 1))
    result(m is not None and sorted(cpus) == allowed and int(m.group(2)) == len(allowed),
           'the affinity line lists the CPUs this process may run on, %s (%r)' % (allowed, line))
    flags = cpuinfo_flags()
    x86 = t.cfg.get('HOST') in ('amd64', 'x86', 'x32')
    if not x86:
        result('hypervisor-unknown' in found, 'not x86: hypervisor-unknown')
        return
    if flags is None:
        t.skip('info: no flags in /proc/cpuinfo to compare the CPUID lines with')
        return
    # Linux sets "hypervisor" from CPUID 1 ECX bit 31, and "nonstop_tsc"
    # (with "constant_tsc") from CPUID 0x80000007 EDX bit 8
    if 'hypervisor' in flags:
        result(re.match(r'\S+ \(CPUID 1 ECX bit 31 set', found.get('hypervisor', '')) is not None,
               'a hypervisor, as /proc/cpuinfo says, with its vendor (%r)' % found.get('hypervisor'))
    else:
        result('hypervisor-none' in found, 'no hypervisor, as /proc/cpuinfo says')
    if 'nonstop_tsc' in flags:
        result('tsc-invariant' in found, 'the TSC invariant, as /proc/cpuinfo says (nonstop_tsc)')
    elif 'constant_tsc' not in flags:
        result('tsc-variant' in found or 'tsc-unknown' in found,
               'the TSC not invariant, as /proc/cpuinfo says (neither constant_tsc nor nonstop_tsc)')
    else:
        result(any(c in found for c in ('tsc-invariant', 'tsc-variant', 'tsc-unknown')),
               'a line on the TSC (constant_tsc without nonstop_tsc: either)')
    kernel = [c for c in found if c.startswith('tsc-kernel-')]
    result(len(kernel) == 1 and (kernel[0] == 'tsc-kernel-uses') == (current == 'tsc'),
           'one verdict on the kernel and the TSC, uses iff its clocksource is tsc (%s)' % kernel)


def check_crosscore(t, ccodes, impl, counter, here, rerun):
    result = t.result
    summaries = [c for c, _ in ccodes if c in SUMMARIES]
    result(len(summaries) == 1, 'one crosscore summary (%s)' % summaries)
    if counter and counter.kind == 'none':
        want = 'no-counter'
    elif counter and counter.per_thread:
        want = 'per-thread'
    elif here:
        want = 'one-cpu' if len(os.sched_getaffinity(0)) == 1 else 'offset'
    else:
        return
    tries = 1
    # a busy machine can leave a pair without bounds: the answer then is
    # "unmeasured", and another run is the way to a number
    while want == 'offset' and summaries == ['unmeasured'] and tries < 3:
        ccodes = codes_of(rerun(), 'crosscore')
        summaries = [c for c, _ in ccodes if c in SUMMARIES]
        tries += 1
    result(summaries == [want], 'crosscore says %s for %s here (%s, %d runs)'
           % (want, impl, summaries, tries))
    if want != 'offset' or summaries != [want]:
        return
    found = dict(ccodes)
    m = re.match(r'(-?\d+) cycles cpu(\d+) cpu(\d+) within (-?\d+)\.\.\.(-?\d+) \((\d+) pairs of '
                 r'(\d+) CPUs measured\): ', found['offset'])
    result(m is not None, 'the offset line: a number of cycles, the pair and its bounds (%r)'
           % found['offset'])
    if not m:
        return
    mid, a, b, lo, hi = (int(m.group(k)) for k in range(1, 6))
    result(lo <= mid <= hi, 'the offset %d within its bounds %d...%d' % (mid, lo, hi))
    pair = 'cpu%d cpu%d offset %d...%d ' % (a, b, lo, hi)
    result(any(c == 'pair' and r.startswith(pair) for c, r in ccodes),
           'a pair line with the same bounds (%s)' % pair)
    back = [r for c, r in ccodes if c == 'backwards']
    verdict = [c for c, _ in ccodes if c.startswith('unpinned-')]
    expect = 'unpinned-backwards' if back else 'unpinned-offset' if lo > 0 or hi < 0 else 'unpinned-ok'
    result(verdict == [expect], 'the verdict for an unpinned benchmark is %s (%s)' % (expect, verdict))
