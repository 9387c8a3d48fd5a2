# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""info.py: cpucycles-info's output, against its documented format.

Line by line: the version, one tracesetup line a compiled counter (in the
documented order), one why line a counter that did not work (precision 0,
in the same order) with a code doc/why.md lists and its evidence, the
estimate, the implementation (the one the stable-choice rule of
doc/selection.md picks among the traced precisions), the iqm line (its
figure recomputed from the 64 differences it prints), the observed loops,
then the notes: the counter's kind (from cpucycles/options), the estimate
against the longest observed loop, migration, and what to do; then the
trust and crosscore lines, against this machine read apart
(test/trustlines.py, doc/trust.md). Runs cpucycles-info: RUNS.
"""
import os
import re

import trustlines
from tools import run

RUNS = True


def clearly_better(precision, best):
    """doc/selection.md's rule, written apart from select.c: a later counter
    replaces the best so far only when it is lower by more than 32 cycles
    and by more than a quarter of the best's precision."""
    return precision < best - max(32, best // 4)


def check(t):
    """cpucycles-info's output, line by line against its documented format."""
    cfg, result = t.cfg, t.result
    command = t.prefix + [os.path.join(t.build, 'package', 'bin', 'cpucycles-info')]
    code, out, err = run(command, env=t.env)
    result(code == 0, 'cpucycles-info exits 0 (%d)' % code)
    lines = out.splitlines()
    counters = cfg['COUNTERS'].split()
    with open(os.path.join(cfg['SRC'], 'version')) as f:
        version = f.read().strip()
    i = 0

    def take(pattern, what):
        nonlocal i
        m = re.fullmatch(pattern, lines[i]) if i < len(lines) else None
        result(m is not None, 'cpucycles-info line %d: %s (%r)' % (i + 1, what, lines[i] if i < len(lines) else None))
        i += 1
        return m

    take(re.escape('cpucycles version ' + version), 'version')
    precisions = {}
    for k, name in enumerate(counters):
        m = take(r'cpucycles tracesetup %d %s precision (\d+) scaling (\d+\.\d{6}) only32 ([01])'
                 % (k, re.escape(name)), 'tracesetup of %s' % name)
        if m:
            precisions[name] = int(m.group(1))
    codes = why_codes(t.src)
    for name in counters:
        if precisions.get(name) == 0:
            m = take(r'cpucycles why %s (\S+) (.+)' % re.escape(name), 'why %s did not work' % name)
            if m:
                result(m.group(1) in codes, 'why %s: code %s is one doc/why.md lists'
                       % (name, m.group(1)))
                evidence = EVIDENCE.get(m.group(1).split('-')[0])
                if evidence:
                    result(re.search(evidence[0], m.group(2)) is not None,
                           'why %s: %s gives %s (%r)' % (name, m.group(1), evidence[1], m.group(2)))
    m = take(r'cpucycles persecond (\d+)', 'persecond')
    persecond = int(m.group(1)) if m else 0
    m = take(r'cpucycles implementation (\S+)', 'implementation')
    impl = m.group(1) if m else ''
    if m and precisions:
        working = {n: p for n, p in precisions.items() if p > 0}
        best = 'default-zero'
        for name in counters:  # in the documented order
            if name in working and (best not in working or clearly_better(working[name], working[best])):
                best = name
        result(m.group(1) == best, 'implementation %s is the traced counter the stable-choice rule '
               'picks (%s)' % (m.group(1), best))
    m = take(r'cpucycles iqm (-?\d+) ((?:[+-]\d+){64})', 'iqm with 64 differences')
    if m:
        check_iqm(result, int(m.group(1)), [int(x) for x in re.findall(r'[+-]\d+', m.group(2))])
    observed = 0
    longest = None
    while i < len(lines) and lines[i].startswith('cpucycles observed '):
        m = take(r'cpucycles observed persecond (\d+)\.\.\.(\d+) with (\d+) loops (\d+) microseconds',
                 'observed persecond')
        if m:
            observed += 1
            longest = (int(m.group(1)), int(m.group(2)))
            result(longest[0] <= longest[1], 'observed bounds ordered (%s <= %s)'
                   % (m.group(1), m.group(2)))
    result(observed > 0, 'at least one observed persecond line (%d)' % observed)
    notes = []
    while i < len(lines) and not lines[i].startswith(('cpucycles trust ', 'cpucycles crosscore ')):
        m = take(r'cpucycles note (.+)', 'a note, after all observed lines')
        if m:
            notes.append(m.group(1))
    check_notes(t, notes, impl, persecond, longest)
    # then the trust lines and the crosscore lines, nothing else
    trust = []
    while i < len(lines) and lines[i].startswith('cpucycles trust '):
        trust.append(lines[i])
        i += 1
    crosscore = []
    while i < len(lines) and lines[i].startswith('cpucycles crosscore '):
        crosscore.append(lines[i])
        i += 1
    result(i == len(lines) and bool(trust) and bool(crosscore),
           'after the notes, trust lines (%d), then crosscore lines (%d), then nothing (%r)'
           % (len(trust), len(crosscore), lines[i] if i < len(lines) else None))

    def rerun():
        return run(command, env=t.env)[1].splitlines()

    rows = {c.name: c for c in t.tables.counters(t.src)}
    trustlines.check_lines(t, trust, crosscore, impl, rows.get(impl), rerun)


def check_iqm(result, figure, offsets):
    """The iqm line: 64 differences, each printed as itself minus the
    figure; the figure is the mean of the middle 32 of them sorted (16 cut
    at each end), to the nearest integer with a half going up, so it lies
    between the smallest and the largest difference."""
    result(len(offsets) == 64, 'iqm line has 64 differences (%d)' % len(offsets))
    diffs = sorted(figure + o for o in offsets)
    if len(diffs) != 64:
        return
    middle = sum(diffs[16:48])
    result(diffs[0] <= figure <= diffs[-1], 'iqm %d lies between the smallest difference %d and '
           'the largest %d' % (figure, diffs[0], diffs[-1]))
    result(figure == (2 * middle + 32) // 64, 'iqm %d is the mean of the middle 32 of its sorted '
           'differences, %d/32, rounded' % (figure, middle))


# What a why line of each family of codes must quote: the kernel's errno
# for a perf event or its page, by name and number; the signal, by name
# and number.
EVIDENCE = {
    'perf': (r'(perf_event_open|mmap of its page) said E[A-Z0-9]+ \(errno \d+\)',
             "the kernel's errno"),
    'fault': (r'raised SIG[A-Z]+ \(signal \d+\)', 'the signal'),
}


def why_codes(src):
    """The codes doc/why.md lists, from its headings under "The codes"
    (a heading may name several, comma-separated)."""
    with open(os.path.join(src, 'doc', 'why.md')) as f:
        text = f.read()
    return {c.strip() for h in re.findall(r'^### (.+)$', text, re.M) for c in h.split(',')}


# What cpucycles-info says of each kind of counter (the kinds of
# cpucycles/options, read through scripts-build/tables.py), written apart
# from cpucycles-info's own words so that the two check each other. A
# counter read through the kernel counts core cycles as well.
KIND_WORDS = {
    'core': 'counts core cycles', 'core-kernel': 'counts core cycles',
    'offcore': 'counts an off-core clock', 'osclock': 'counts an OS clock', 'none': 'is no counter',
    'unknown': 'is a counter this cpucycles-info does not know',
}
DISAGREE = 0.05  # the threshold cpucycles-info states


def check_notes(t, notes, impl, persecond, longest):
    """The notes after the observed lines: the counter's kind, the estimate
    against the longest observed loop, migration, and what to do."""
    result = t.result
    kinds = {c.name: c.kind for c in t.tables.counters(t.src)}
    kind = kinds.get(impl, 'unknown')
    result(all(k in KIND_WORDS for k in t.tables.COUNTER_KINDS),
           'every kind of counter in scripts-build/tables.py has its words here (missing: %s)'
           % [k for k in t.tables.COUNTER_KINDS if k not in KIND_WORDS])
    result(len(notes) >= 4, 'cpucycles-info prints at least 4 notes (%d)' % len(notes))
    first = notes[0] if notes else ''
    result(first.startswith('%s %s' % (impl, KIND_WORDS[kind])),
           'first note gives %s the kind %s (%r)' % (impl, kind, first))
    rate = [n for n in notes if 'cycles per second' in n]
    if kind in ('core', 'core-kernel', 'offcore') and longest:
        m = re.match(r'observed (\d+)\.\.\.(\d+) cycles per second (agree|disagree) with the '
                     r'estimate (\d+)', rate[0]) if rate else None
        result(m is not None and (int(m.group(1)), int(m.group(2))) == longest
               and int(m.group(4)) == persecond,
               'rate note quotes the longest observed loop %s and the estimate %d (%r)'
               % (longest, persecond, rate[0] if rate else None))
        if m:
            lo, hi = longest
            disagree = persecond < lo * (1 - DISAGREE) or persecond > hi * (1 + DISAGREE)
            result((m.group(3) == 'disagree') == disagree,
                   'rate note says %s for estimate %d against %d...%d at %g'
                   % (m.group(3), persecond, lo, hi, DISAGREE))
    else:
        result(len(rate) == 1, 'one note on cycles per second (%d)' % len(rate))
    result(any('migrates between cores' in n for n in notes), 'a note on migration between cores')
    result(any('pin the process' in n and 'median' in n for n in notes),
           'a note on what to do: pin the process, take medians')
