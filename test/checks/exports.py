# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""exports.py: the built libraries, seen from outside.

The shared library exports exactly the API, needs nothing but libc, is
named libcpucycles.so.1 with its development link beside it; the static
library defines no global symbol but the API and holds machine code a
program can link. A Mac's own build: its package checked as test/macos
checks a cross-built one. Needs no running: every build does it.
"""
import os
import re

import macho
from tools import run

API = macho.API


def check(t):
    cfg, build = t.cfg, t.build
    if cfg.get('OS') == 'macos':
        libdir = cfg.get('LIBDIR') or cfg['PREFIX'] + '/lib'
        macho.check_package(os.path.join(build, 'package'), cfg['HOST'], libdir, cfg['NM'], 'otool',
                            t.result)
        return
    shared(t, cfg, os.path.join(build, 'package', 'lib'))
    archive(t, cfg, os.path.join(build, 'package', 'lib', 'libcpucycles.a'))


def sanitized(cfg):
    """A sanitizer build: configure keeps the user's flags apart from CC."""
    return '-fsanitize=' in ' '.join([cfg['CC'], cfg.get('CFLAGS', ''), cfg.get('LDFLAGS', '')])


def readelf(cfg):
    return cfg['NM'][:-2] + 'readelf'


def shared(t, cfg, libdir):
    lib = os.path.join(libdir, 'libcpucycles.so.1')
    code, out, err = run([cfg['NM'], '-D', '--defined-only', lib])
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDBRVWGS':
            names.add(parts[2].split('@')[0])
    t.result(code == 0 and names == API,
             'libcpucycles.so.1 exports exactly the API (extra: %s, missing: %s)'
             % (sorted(names - API), sorted(API - names)))
    code, out, err = run([readelf(cfg), '-d', lib])
    needed = re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', out)
    if sanitized(cfg):
        # a sanitizer build links its runtime; the check is for real builds
        needed = [n for n in needed if not re.match(r'lib(asan|ubsan|tsan|stdc\+\+|m|gcc_s)\.so', n)]
    soname = re.findall(r'\(SONAME\)\s+Library soname: \[([^\]]+)\]', out)
    t.result(code == 0 and all(n.startswith('libc.so') for n in needed) and needed,
             'libcpucycles.so.1 needs only libc (needs %s)' % needed)
    t.result(soname == ['libcpucycles.so.1'], 'SONAME is libcpucycles.so.1 (%s)' % soname)
    link = os.path.join(libdir, 'libcpucycles.so')
    t.result(os.path.islink(link) and os.readlink(link) == 'libcpucycles.so.1',
             'libcpucycles.so links to libcpucycles.so.1')


def archive(t, cfg, lib):
    """The static library defines no global symbol but the API, so that a
    program linking it statically meets none of the library's own names
    (except on MIPS: see scripts-build/portable.py), whatever flags built it:
    LTO and sanitizers included."""
    if cfg['HOST'].startswith('mips'):
        t.skip('libcpucycles.a defines no global symbol but the API: not on MIPS, whose '
               'functions cannot be made local after the partial link')
        return
    code, out, err = run([cfg['NM'], '-g', '--defined-only', lib])
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            names.add(parts[2])
    t.result(code == 0 and names == API,
             'libcpucycles.a defines no global symbol but the API (extra: %s, missing: %s)'
             % (sorted(names - API)[:10], sorted(API - names)))
    # Machine code, not compiler bytecode (LTO's, which readelf does not
    # read as ELF, or gcc's sections of it): any program links it.
    code, out, err = run([readelf(cfg), '-S', '-W', lib])
    t.result(code == 0 and not err.strip() and '.gnu.lto_' not in out,
             'libcpucycles.a holds machine code, no LTO bytecode (%s)'
             % (err.strip()[:200] or 'readelf -S'))
    # A COMDAT group whose signature was made local would be discarded in
    # favour of a program's own copy, leaving references to nothing.
    code, out, err = run([readelf(cfg), '-g', lib])
    t.result(code == 0 and 'COMDAT group' not in out,
             'libcpucycles.a holds no COMDAT group (%s)' % (err.strip() or 'readelf -g'))
