# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""upstream.py: upstream's build interface, as distributions' recipes
drive it, in a scratch copy of the tree: --host with the machine names
`uname -m` and the ports' ARCH give (this machine's own is a native
build), --noclean, --darwin and --nodarwin, compilers/default as the
packager's knob (its line's flags reach config.mk whether CC is set or
not, CFLAGS after them), a second --host beside the first, build/<host>'s
Makefile for any make (BSD make when installed) with a target per package
file, and the install layout PREFIX/{bin,lib,include,man} without
cpucycles.pc unless asked. make test-packagers builds whole packages that
way; these are the quick checks.
"""
import os
import shutil
import sys
import tempfile

from tools import build_env, clean_env, config, load_configure, run

NATIVE = True

INPUTS = ['configure', 'version', 'compilers', 'cpucycles', 'include', 'scripts-build', 'command',
          'doc', 'Makefile', 'GNUmakefile']

# Machine names -> the host upstream's configure maps them to.
NAMES = {'x86_64': 'amd64', 'amd64': 'amd64', 'i386': 'x86', 'i686': 'x86', 'x86': 'x86',
         'aarch64': 'arm64', 'arm64': 'arm64', 'armv8': 'arm64', 'armv7': 'arm32',
         'armv6': 'arm32', 'armv7l': 'arm32', 'riscv64': 'riscv64', 'riscv32': 'riscv32',
         'riscv': 'riscv32', 'mips64': 'mips64', 'mips64el': 'mips64', 'mips': 'mips32',
         'ppc64': 'ppc64', 'powerpc64': 'ppc64', 'powerpc64le': 'ppc64', 'powerpc': 'ppc32',
         'ppc': 'ppc32', 'sparc64': 'sparc64', 'sparcv9': 'sparc64', 'sun4u': 'sparc64',
         's390x': 's390x', 'ppc64el': 'ppc64', 'loong64': 'loong64', 'loongarch64': 'loong64'}


def check(t):
    cfg, result = t.cfg, t.result
    conf = load_configure(t.src, 'configure_upstream')
    native = conf.native_host()
    for name, want in NAMES.items():
        host, triplet, cross, os_name = conf.resolve_host(name)
        result(host == want and cross == (want != native) and os_name == conf.native_os(),
               '--host=%s means %s, %s (%s, cross %s)'
               % (name, want, 'native here' if want == native else 'a cross build', host, cross))
    with tempfile.TemporaryDirectory(prefix='cpucycles-upstream.') as scratch:
        for name in INPUTS:
            src = os.path.join(cfg['SRC'], name)
            (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(scratch, name))
        env = build_env(cfg)
        plain = clean_env()
        configure = [sys.executable, 'configure']
        arguments(t, scratch, configure, env, native)
        knob(t, scratch, configure, env, plain)
        portable(t, scratch, configure, plain)


def arguments(t, scratch, configure, env, native):
    result = t.result
    machine = os.uname().machine
    code, out, err = run(configure + ['--host=' + machine], scratch, env)
    got = config(os.path.join(scratch, 'build', native))
    result(code == 0 and got.get('HOST') == native and not got.get('RUN')
           and os.readlink(os.path.join(scratch, 'build', '0')) == native,
           '--host=%s (uname -m) is a native build in build/%s, build/0 -> %s (%d, %r)'
           % (machine, native, native, code, err.strip()[-200:]))
    marker = os.path.join(scratch, 'build', native, 'cpucycles', 'marker.o')
    open(marker, 'w').close()
    code, out, err = run(configure + ['--noclean'], scratch, env)
    result(code == 0 and os.path.exists(marker), 'configure --noclean keeps build/<host>\'s objects')
    code, out, err = run(configure, scratch, env)
    result(code == 0 and not os.path.exists(marker),
           'configure again starts afresh (upstream: it starts with make clean)')
    code, out, err = run(configure + ['--nodarwin'], scratch, env)
    result(code == 0, '--nodarwin is taken for a build that is no macOS one (%r)' % err.strip())
    code, out, err = run(configure + ['--darwin'], scratch, env)
    result(code == 1 and len(err.strip().splitlines()) == 1 and 'darwin' in err,
           '--darwin where the compiler builds for Linux: one line, exit 1 (%d, %r)' % (code, err))
    code, out, err = run(configure + ['--host=frobnitz'], scratch, env)
    result(code == 1 and len(err.strip().splitlines()) == 1 and 'unknown host' in err,
           'an unknown machine name: one line, exit 1 (%d, %r)' % (code, err))
    other = next((h for h, cc in (('x86', 'i686-linux-gnu-gcc'), ('arm64', 'aarch64-linux-gnu-gcc'))
                  if h != native and shutil.which(cc)), None)
    if other is None:
        t.skip('a second --host keeps the first: no cross compiler for x86 or arm64 here')
        return
    first = os.path.join(scratch, 'build', native, 'config.mk')
    before = os.stat(first).st_mtime_ns
    code, out, err = run(configure + ['--host=' + other], scratch, clean_env())
    result(code == 0 and os.readlink(os.path.join(scratch, 'build', '0')) == other
           and os.stat(first).st_mtime_ns == before,
           'a second --host=%s makes build/%s and moves build/0, build/%s untouched (%d, %r)'
           % (other, other, native, code, err.strip()[-200:]))


def knob(t, scratch, configure, env, plain):
    """compilers/default's line is the packager's: its flags reach
    config.mk, and configure says it took it."""
    result = t.result
    line = '%s -O1 -DPACKAGER_MARK=1 -fstack-protector-strong' % env['CC'].split()[0]
    with open(os.path.join(scratch, 'compilers', 'default'), 'w') as f:
        f.write(line + '\n')
    code, out, err = run(configure, scratch, plain)
    got = config(os.path.join(scratch, 'build', '0'))
    result(code == 0 and got.get('CFLAGS') == '-O1 -DPACKAGER_MARK=1 -fstack-protector-strong'
           and 'compilers/default line 1' in out,
           'a packager\'s line in compilers/default builds everything, and configure says so '
           '(%s, %r)' % (got.get('CFLAGS'), out.splitlines()[:1]))
    code, out, err = run(configure, scratch, dict(plain, CC=env['CC'], CFLAGS='-g -O2'))
    got = config(os.path.join(scratch, 'build', '0'))
    result(code == 0 and got.get('CFLAGS', '').startswith('-O1 -DPACKAGER_MARK=1')
           and got.get('CFLAGS', '').endswith('-g -O2'),
           'with CC and CFLAGS set too, the line\'s flags come first and CFLAGS after (%s)'
           % got.get('CFLAGS'))
    shutil.copy(os.path.join(t.src, 'compilers', 'default'), os.path.join(scratch, 'compilers'))


def portable(t, scratch, configure, plain):
    """build/<host>/Makefile under BSD make: a target per package file, and
    the install layout."""
    result = t.result
    bmake = shutil.which('bmake')
    if not bmake:
        t.skip('build/0/Makefile under BSD make: bmake is not installed (Debian package bmake)')
        return
    code, out, err = run(configure + ['--prefix=/opt/up'], scratch, plain)
    build = os.path.join(scratch, 'build', '0')
    code, out, err = run([bmake, '-j2', 'package/lib/libcpucycles.a'], build, plain)
    objects = sorted(os.listdir(os.path.join(build, 'cpucycles')))
    result(code == 0 and os.path.exists(os.path.join(build, 'package', 'lib', 'libcpucycles.a'))
           and 'api.o' in objects and not os.path.exists(os.path.join(build, 'package', 'bin')),
           'bmake -C build/0 package/lib/libcpucycles.a makes the archive from cpucycles/*.o '
           'and nothing else (%d, %r)' % (code, err.strip()[-200:]))
    for name in objects:
        os.remove(os.path.join(build, 'cpucycles', name))
    os.remove(os.path.join(build, 'package', 'lib', 'libcpucycles.a'))
    code, out, err = run([bmake, 'package/lib/libcpucycles.a'], build, plain)
    result(code == 0 and sorted(os.listdir(os.path.join(build, 'cpucycles'))) == objects,
           'objects removed by hand are made again with the archive (%d)' % code)
    stage = os.path.join(scratch, 'stage')
    code, out, err = run([bmake, '-j2', 'install', 'DESTDIR=' + stage], scratch, plain)
    found = sorted(os.path.relpath(os.path.join(d, f), stage)
                   for d, _, files in os.walk(stage) for f in files)
    want = sorted(['opt/up/bin/cpucycles-info', 'opt/up/bin/cpucycles-open',
                   'opt/up/include/cpucycles.h', 'opt/up/lib/libcpucycles.a',
                   'opt/up/lib/libcpucycles.so', 'opt/up/lib/libcpucycles.so.1',
                   'opt/up/man/man1/cpucycles-info.1', 'opt/up/man/man1/cpucycles-open.1',
                   'opt/up/man/man3/cpucycles.3'])
    result(code == 0 and found == want,
           'bmake install: upstream\'s files in PREFIX/{bin,lib,include,man}, no cpucycles.pc '
           '(%d, %s)' % (code, sorted(set(found) ^ set(want)) or err.strip()[-200:]))
    code, out, err = run([bmake, 'test'], scratch, plain)
    result(code != 0 and len(err.strip().splitlines()) == 1 and 'GNU make' in err,
           'bmake test says in one line that the tests need GNU make (%d, %r)' % (code, err))
