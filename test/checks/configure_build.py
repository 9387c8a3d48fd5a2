# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""configure_build.py: configure and make as packagers run them, building.

In a copy of the source made read-only (and watched: root may write
anyway): `../src/configure` from another directory builds there, with
`make CFLAGS=-O1` (the library's own flags, -fPIC among them, stay);
nothing is written into the source. Then, the copy writable again: a
version bump makes `make` run configure again with its first arguments,
and the library reports the new version; a header a test program includes
makes that program out of date; --disable-static and --disable-shared
leave their library out of `make install`; and a POSIX build (Linux's
macros undefined, so configure takes it for a system it has no layer for)
builds and runs cpucycles-info.
"""
import os
import re
import shutil
import stat
import tempfile

from tools import MAKE_VARS, build_env, clean_env, config, last_lines as last, output as run

NATIVE = True

# Two jobs for the scratch builds, as packagers' makes have several: the
# suite around this check runs one program at a time, and a core would
# wait meanwhile.
JOBS = '-j2'

# What a build reads from the source tree.
SOURCE = ['configure', 'version', 'Makefile', 'GNUmakefile', 'compilers', 'cpucycles', 'include',
          'command', 'scripts-build', 'doc', 'test', 'bench']


def snapshot(root):
    """Every path under root with its size and modification time."""
    seen = []
    for top, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(top, name)
            st = os.lstat(path)
            seen.append((os.path.relpath(path, root), st.st_size, st.st_mtime_ns))
    return sorted(seen)


def writable(root, on):
    for top, dirs, files in os.walk(root):
        for name in [top] + [os.path.join(top, f) for f in files]:
            if os.path.islink(name):
                continue
            mode = os.stat(name).st_mode
            os.chmod(name, (mode | stat.S_IWUSR) if on else (mode & ~0o222))


def check(t):
    cfg, result, skip = t.cfg, t.result, t.skip
    env = clean_env(drop=MAKE_VARS, base=build_env(cfg))
    with tempfile.TemporaryDirectory(prefix='cpucycles-build.') as scratch:
        src = os.path.join(scratch, 'src')
        os.mkdir(src)
        for name in SOURCE:
            path = os.path.join(cfg['SRC'], name)
            if os.path.isdir(path):
                shutil.copytree(path, os.path.join(src, name))
            elif os.path.exists(path):
                shutil.copy(path, os.path.join(src, name))
        writable(src, False)
        try:
            before = snapshot(src)
            built = out_of_tree(src, os.path.join(scratch, 'b'), env, result)
            after = snapshot(src)
            result(before == after, 'the out-of-tree build writes nothing into the source (%s)'
                   % sorted(set(before) ^ set(after))[:4])
        finally:
            writable(src, True)
        if built:
            reconfigure(src, os.path.join(scratch, 'b'), env, result)
        libraries(src, scratch, env, result)
        posix(src, scratch, env, cfg, result, skip)


def out_of_tree(src, b, env, result):
    """-> whether the build succeeded."""
    os.mkdir(b)
    code, out = run(['../src/configure', '--prefix=/opt/oot'], b, env)
    result(code == 0 and os.path.islink(os.path.join(b, 'build', '0'))
           and os.path.exists(os.path.join(b, 'Makefile'))
           and os.path.exists(os.path.join(b, 'GNUmakefile')),
           '../src/configure from another directory writes build/0, a Makefile and a GNUmakefile '
           'there (%d, %s)'
           % (code, last(out)))
    if code != 0:
        return False
    code, out = run(['make', JOBS, 'CFLAGS=-O1'], b, env)
    lines = out.replace('\\\n', ' ').splitlines()  # make echoes a recipe's continued lines
    compiles = [l for l in lines if re.search(r'\s-c\s.*api\.c', l)]
    result(code == 0 and compiles and '-fPIC' in compiles[0].split()
           and '-O1' in compiles[0].split() and '-O2' not in compiles[0].split(),
           'make CFLAGS=-O1 there builds the package with -O1 and still -fPIC (%d, %r)'
           % (code, compiles[:1] or last(out)))
    info = os.path.join(b, 'build', '0', 'package', 'bin', 'cpucycles-info')
    code, out = run([info], b, env)
    result(code == 0 and out.startswith('cpucycles version '),
           'its cpucycles-info runs (%d, %s)' % (code, last(out, 1)))
    return code == 0


def reconfigure(src, b, env, result):
    build = os.path.join(b, 'build', '0')
    with open(os.path.join(src, 'version'), 'w') as f:
        f.write('29991231\n')
    code, out = run(['make', JOBS], b, env)
    got = config(os.path.join(build, 'config.mk'))
    info = os.path.join(build, 'package', 'bin', 'cpucycles-info')
    code2, said = run([info], b, env)
    with open(os.path.join(build, 'package', 'lib', 'pkgconfig', 'cpucycles.pc')) as f:
        pc = f.read()
    result(code == 0 and got.get('VERSION') == '29991231' and got.get('PREFIX') == '/opt/oot'
           and said.startswith('cpucycles version 29991231\n') and 'Version: 29991231' in pc,
           'after a version bump, make re-runs configure with its arguments (prefix %s) and the '
           'library, cpucycles-info and the .pc say the new version (%r)'
           % (got.get('PREFIX'), said.splitlines()[:1]))
    code, out = run(['make', 'test/bin/arith'], build, env)
    deps = os.path.join(build, 'test', 'dep', 'arith.d')
    os.utime(os.path.join(src, 'test', 'include', 'check.h'))
    stale, _ = run(['make', '-q', 'test/bin/arith'], build, env)
    result(code == 0 and os.path.exists(deps) and stale == 1,
           'a test program is out of date once a header it includes changes (%d, %d)'
           % (code, stale))


def libraries(src, scratch, env, result):
    """--disable-static and --disable-shared, built and installed."""
    names = {'static': ['libcpucycles.a'], 'shared': ['libcpucycles.so.1', 'libcpucycles.so']}
    for off in ('static', 'shared'):
        b = os.path.join(scratch, 'no-' + off)
        os.mkdir(b)
        stage = os.path.join(scratch, 'stage-' + off)
        code, out = run(['../src/configure', '--disable-' + off, '--prefix=/p',
                         '--libdir=${prefix}/lib/x'], b, env)
        if code == 0:
            code, out = run(['make', JOBS, 'install', 'DESTDIR=' + stage], b, env)
        libdir = os.path.join(stage, 'p', 'lib', 'x')
        there = sorted(os.listdir(libdir)) if os.path.isdir(libdir) else []
        on = 'shared' if off == 'static' else 'static'
        result(code == 0 and not any(n in there for n in names[off])
               and all(n in there for n in names[on]),
               'configure --disable-%s: make install puts the %s library and not the %s one (%s; %s)'
               % (off, on, off, there, last(out, 1)))


def posix(src, scratch, env, cfg, result, skip):
    """A system with no OS layer here, played by this one: Linux's macros
    undefined, configure has only POSIX to go by."""
    if cfg.get('OS') != 'linux':
        skip('a POSIX build played on Linux: this is %s' % cfg.get('OS'))
        return
    b = os.path.join(scratch, 'posix')
    os.mkdir(b)
    unlinux = '-U__linux__ -U__linux -U__gnu_linux__ -Ulinux'
    code, out = run(['../src/configure'], b,
                    dict(env, CPPFLAGS=(env.get('CPPFLAGS', '') + ' ' + unlinux).strip()))
    got = config(os.path.join(b, 'build', '0', 'config.mk'))
    counters = got.get('COUNTERS', '').split()
    result(code == 0 and got.get('OS') == 'posix' and 'os-posix' in out
           and 'default-perfevent' not in counters and 'default-monotonic' in counters,
           'configure for a system without an OS layer: one note, os-posix, no Linux counters '
           '(%d, %s, %s)' % (code, got.get('OS'), counters))
    if code != 0:
        return
    code, out = run(['make', JOBS], b, env)
    info = os.path.join(b, 'build', '0', 'package', 'bin', 'cpucycles-info')
    code2, said = run([info], b, env)
    result(code == 0 and code2 == 0 and 'cpucycles implementation ' in said,
           'the POSIX build makes the package and its cpucycles-info runs (%d, %d, %s)'
           % (code, code2, last(said or out, 1)))
