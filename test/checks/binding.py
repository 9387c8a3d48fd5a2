# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""binding.py: what the dynamic loader binds for the shared library, as
glibc's loader reports it (LD_DEBUG=bindings).

A process that never calls the library has at most 20 of its symbols
bound at start (the rest stay lazy), and a first call goes through the
loader's lazy resolver for nothing but sigsetjmp, which cannot be called
through a pointer, and the memcpy and memset that a compiler may call to
copy or clear a structure (clang does): the libc functions the library
itself calls in a first call are bound with its data
(cpucycles/prebound.h). Run natively, on glibc only; a
library that LDFLAGS linked with -z now binds everything at start, as
asked, and only the first call is checked then.
"""
import os
import re
import shlex

import exports
from tools import run

PROGRAM = r'''
#include <stdio.h>
#include <cpucycles.h>
int main(int argc, char **argv)
{
  (void)argv;
  fputs("binding: main\n", stderr);
  if (argc > 1) return 0;
  if (cpucycles() < 0) return 1;
  fputs("binding: called\n", stderr);
  return 0;
}
'''

START_LIMIT = 20
RUNS = True
LAZY_ALLOWED = {'__sigsetjmp', 'sigsetjmp', 'memcpy', 'memset'}
BINDING = re.compile(r"binding file (\S+) \[\d+\] to (\S+) \[\d+\]: \w+ symbol `([^']+)'")


def check(t):
    cfg, build = t.cfg, t.build
    if cfg.get('OS') != 'linux' or not t.native or t.prefix:
        t.skip('binding: the loader\'s bindings are read natively on Linux only')
        return
    if exports.sanitized(cfg):
        t.skip('binding: a sanitizer build binds its runtime\'s interceptors too')
        return
    lib = os.path.join(build, 'package', 'lib')
    work = os.path.join(build, 'obj', 'binding')
    os.makedirs(work, exist_ok=True)
    source, program = os.path.join(work, 'binding.c'), os.path.join(work, 'binding')
    with open(source, 'w') as f:
        f.write(PROGRAM)
    code, out, err = run(shlex.split(cfg['CC']) + shlex.split(cfg.get('CFLAGS', '')) +
                         ['-I' + os.path.join(build, 'package', 'include'), '-o', program, source,
                          '-L' + lib, '-lcpucycles', '-Wl,-rpath,' + lib] +
                         shlex.split(cfg.get('LDFLAGS', '')))
    if code != 0:
        t.result(False, 'binding: the program builds (%s)' % err.strip()[:200])
        return
    env = dict(os.environ, LD_DEBUG='bindings')
    env.pop('LD_BIND_NOW', None)
    code, out, err = run([program], env=env)
    lines = err.splitlines()
    if not any(BINDING.search(line) for line in lines):
        t.skip('binding: the C library\'s loader reports no bindings (LD_DEBUG is glibc\'s)')
        return
    phase, at_start, in_call = 'start', [], []
    for line in lines:
        if line.startswith('binding: main'):
            phase = 'main'
        elif line.startswith('binding: called'):
            phase = 'after'
        m = BINDING.search(line)
        if not m:
            continue
        source_file, target, name = m.groups()
        ours = os.path.basename(source_file).startswith('libcpucycles')
        if phase == 'start' and (ours or os.path.basename(target).startswith('libcpucycles')):
            at_start.append(name)
        elif phase == 'main' and ours:
            in_call.append(name)
    t.result(code == 0 and phase == 'after', 'binding: the program made its first call (exit %d)' % code)
    lazy = sorted(set(in_call) - LAZY_ALLOWED)
    t.result(not lazy, 'binding: a first call binds nothing through the lazy resolver but sigsetjmp '
             '(and a compiler\'s memcpy, memset) (%d bound: %s)'
             % (len(in_call), ' '.join(in_call) or 'none'))
    code, dynamic, err = run([exports.readelf(cfg), '-d', os.path.join(lib, 'libcpucycles.so.1')])
    if re.search(r'\bBIND_NOW\b|\bNOW\b', dynamic):
        t.skip('binding: at most %d symbols bound at start: the library is linked -z now (LDFLAGS), '
               'which binds them all then' % START_LIMIT)
        return
    t.result(len(at_start) <= START_LIMIT, 'binding: at most %d of the library\'s symbols bound at '
             'start (%d: %s)' % (START_LIMIT, len(at_start), ' '.join(at_start)))
