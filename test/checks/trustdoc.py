# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""trustdoc: doc/trust.md and the cpucycles-info man page list every code
cpucycles-info's sources can print after "cpucycles trust" and
"cpucycles crosscore", and no code they cannot; and the counters
cpucycles/options makes per-thread for cpucycles-info (reads event, or
kind core-kernel: scripts-build/tables.py's Counter.per_thread) are
exactly those whose files open a perf event for each thread (the
library's cpucycles_perf_own_* functions, reached through the headers a
counter file includes).
"""
import os
import re

import trustlines


def includes(src, name, seen):
    """The local headers cpucycles/<name> includes, transitively, with it."""
    if name in seen:
        return seen
    path = os.path.join(src, 'cpucycles', name)
    if not os.path.isfile(path):
        return seen
    seen.add(name)
    with open(path, encoding='utf-8') as f:
        for header in re.findall(r'#include "([^"]+)"', f.read()):
            includes(src, header, seen)
    return seen


def opens_own_event(src, counter):
    for name in includes(src, counter + '.c', set()):
        if name in ('perf.h', 'perf.c'):
            continue  # declares and defines them for every counter
        with open(os.path.join(src, 'cpucycles', name), encoding='utf-8') as f:
            if 'cpucycles_perf_own_' in f.read():
                return True
    return False


def check(t):
    doc = trustlines.documented(t.src)
    code = trustlines.printed_by_sources(t.src)
    man = trustlines.in_man_page(t.src)
    for prefix in trustlines.PREFIXES:
        for where, listed in (('doc/trust.md', doc), ('the cpucycles-info man page', man)):
            t.result(code[prefix] and code[prefix] == listed[prefix],
                     '%s lists the %s codes of command/ (only in the sources: %s; only in '
                     'the page: %s)' % (where, prefix, sorted(code[prefix] - listed[prefix]),
                                        sorted(listed[prefix] - code[prefix])))
    counters = t.tables.counters(t.src)
    wrong = [c.name for c in counters if c.per_thread != opens_own_event(t.src, c.name)]
    t.result(not wrong, 'per-thread in cpucycles/options exactly where a counter opens a perf '
             'event of its thread (wrong for: %s)' % wrong)
