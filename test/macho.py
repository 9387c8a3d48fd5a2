# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""macho.py: the checks of a built macOS package, shared by test/run on a
Mac (tools nm and otool) and test/macos on Linux (llvm-nm, llvm-otool).

Mach-O facts used: a header's cputype is 0x0100000c for arm64 and
0x01000007 for x86_64; filetype 1 is an object, 2 an executable, 6 a
dylib; C names carry a leading underscore in the symbol table.
"""
import os
import re

from tools import output

API = {'cpucycles', 'cpucycles_implementation', 'cpucycles_version',
       'cpucycles_persecond', 'cpucycles_tracesetup'}
CPUTYPE = {'arm64': 0x0100000c, 'amd64': 0x01000007}
OBJECT, EXECUTE, DYLIB = 1, 2, 6
LIBSYSTEM = '/usr/lib/libSystem.B.dylib'


def headers(otool, path):
    """[(cputype, filetype)] of every Mach-O header otool -h shows (one
    per member of an archive)."""
    code, out = output([otool, '-h', path])
    found = re.findall(r'^\s*0xfeedfacf\s+(\d+)\s+\d+\s+\S+\s+(\d+)\s', out, re.M)
    return [(int(c), int(f)) for c, f in found] if code == 0 else []


def install_name(otool, path):
    code, out = output([otool, '-D', path])
    lines = out.strip().splitlines()
    return lines[1].strip() if code == 0 and len(lines) == 2 else None


def linked(otool, path):
    """The dylibs path is linked against, its own name left out."""
    code, out = output([otool, '-L', path])
    own = install_name(otool, path)
    names = [l.strip().split(' (')[0] for l in out.splitlines()[1:] if l.startswith('\t')]
    return [n for n in names if n != own] if code == 0 else None


def exports(nm, path):
    code, out = output([nm, '-g', '-U', path])
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDBSC' and parts[2].startswith('_'):
            names.add(parts[2][1:])
    return names if code == 0 else None


def is_cpu(otool, path, cpu, filetype):
    found = headers(otool, path)
    return bool(found) and all(h == (CPUTYPE[cpu], filetype) for h in found)


def check_package(pkg, cpu, libdir, nm, otool, result):
    """The package tree pkg, built for cpu (arm64, amd64) and to be
    installed in libdir, as a Mac user gets it."""
    lib = os.path.join(pkg, 'lib', 'libcpucycles.1.dylib')
    result(is_cpu(otool, lib, cpu, DYLIB), 'lib/libcpucycles.1.dylib is a Mach-O %s dylib (%s)'
           % (cpu, headers(otool, lib)))
    want = os.path.join(libdir, 'libcpucycles.1.dylib')
    got = install_name(otool, lib)
    result(got == want, 'its install name is %s (%s)' % (want, got))
    deps = linked(otool, lib)
    result(deps == [LIBSYSTEM], 'it links only %s (%s)' % (LIBSYSTEM, deps))
    names = exports(nm, lib)
    result(names == API, 'it exports exactly the API (extra: %s, missing: %s)'
           % (sorted((names or set()) - API), sorted(API - (names or set()))))
    link = os.path.join(pkg, 'lib', 'libcpucycles.dylib')
    result(os.path.islink(link) and os.readlink(link) == 'libcpucycles.1.dylib',
           'lib/libcpucycles.dylib links to libcpucycles.1.dylib')
    archive = os.path.join(pkg, 'lib', 'libcpucycles.a')
    result(is_cpu(otool, archive, cpu, OBJECT), 'lib/libcpucycles.a holds %s objects only' % cpu)
    info = os.path.join(pkg, 'bin', 'cpucycles-info')
    result(is_cpu(otool, info, cpu, EXECUTE), 'bin/cpucycles-info is a Mach-O %s program' % cpu)
    result(linked(otool, info) == [LIBSYSTEM], 'bin/cpucycles-info needs only libSystem (%s)'
           % linked(otool, info))
    present = sorted(os.path.relpath(os.path.join(d, f), pkg)
                     for d, _, files in os.walk(pkg) for f in files)
    wanted = ['bin/cpucycles-info', 'include/cpucycles.h', 'lib/libcpucycles.1.dylib',
              'lib/libcpucycles.a', 'lib/libcpucycles.dylib', 'lib/pkgconfig/cpucycles.pc',
              'man/man1/cpucycles-info.1', 'man/man3/cpucycles.3']
    missing = [w for w in wanted if w not in present]
    linux = [p for p in ('bin/cpucycles-open', 'man/man1/cpucycles-open.1') if p in present]
    result(not missing and not linux, 'the package has every file (missing: %s) and nothing of '
           'Linux (has: %s)' % (missing, linux))
