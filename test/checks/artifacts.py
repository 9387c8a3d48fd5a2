# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""artifacts.py: what the build hands out, checked from outside.

- cpucycles.pc gives a static link -pthread (Libs.private).
- libcpucycles.a links into a program built with link-time optimization
  and into one built without it, whatever flags built the archive, and
  the program runs: the archive holds machine code (scripts-build/portable.py).
- make dist's tarball (scripts-build/dist) holds every file git tracks,
  under libcpucycles-VERSION/, and nothing else. Only where the source is
  a git checkout: an unpacked tarball has no git, and the check says so.
"""
import os
import shlex
import shutil
import sys
import tarfile
import tempfile

from tools import run

RUNS = True

PROGRAM = r'''
#include <stdio.h>
#include <cpucycles.h>
int main(void)
{
  long long t0 = cpucycles(), t1 = cpucycles();
  if (t1 < t0 || !cpucycles_implementation()[0]) return 1;
  printf("%s\n", cpucycles_version());
  return 0;
}
'''


def version(cfg):
    with open(os.path.join(cfg['SRC'], 'version')) as f:
        return f.read().strip()


def compiler(cfg):
    """The user's compiler and flags, as configure recorded them."""
    return (shlex.split(cfg['CC']) + shlex.split(cfg.get('CPPFLAGS', ''))
            + shlex.split(cfg.get('CFLAGS', '')))


def lto_works(cfg, work, ldflags):
    """Whether the toolchain links any program with -flto (clang needs its
    linker plugin or lld)."""
    source = os.path.join(work, 'empty.c')
    with open(source, 'w') as f:
        f.write('int main(void) { return 0; }\n')
    return run(compiler(cfg) + ['-flto', source, '-o', source + '.out'] + ldflags + ['-flto'])[0] == 0


def static_links(cfg, prefix, build, result, skip):
    archive = os.path.join(build, 'package', 'lib', 'libcpucycles.a')
    include = os.path.join(build, 'package', 'include')
    with tempfile.TemporaryDirectory(prefix='cpucycles-static.') as work:
        source = os.path.join(work, 'user.c')
        with open(source, 'w') as f:
            f.write(PROGRAM)
        ldflags = shlex.split(cfg.get('LDFLAGS', ''))
        for what, flags in (('with -flto', ['-flto']), ('without LTO', ['-fno-lto'])):
            binary = os.path.join(work, 'user-' + flags[0].strip('-'))
            cmd = compiler(cfg) + flags + ['-I' + include, source, '-o', binary, archive] \
                + ldflags + flags + ['-pthread']
            code, out, err = run(cmd)
            if code != 0 and flags == ['-flto'] and not lto_works(cfg, work, ldflags):
                skip('libcpucycles.a in a program built %s: this toolchain cannot link with -flto'
                     % what)
                continue
            result(code == 0, 'libcpucycles.a links into a program built %s (%s)'
                   % (what, err.strip()[-300:]))
            if code != 0:
                continue
            code, out, err = run(prefix + [binary])
            result(code == 0 and out.strip() == version(cfg),
                   'that program runs (%r)' % (out.strip() or err.strip()))


def git_files(src):
    """The tracked files, or None where src is not the top of a git checkout."""
    if not shutil.which('git'):
        return None
    code, top, err = run(['git', '-C', src, 'rev-parse', '--show-toplevel'])
    if code != 0 or os.path.realpath(top.strip()) != os.path.realpath(src):
        return None
    code, out, err = run(['git', '-C', src, 'ls-files', '-z'])
    return set(f for f in out.split('\0') if f) if code == 0 else None


def dist(cfg, result, skip):
    src = cfg['SRC']
    files = git_files(src)
    if files is None:
        skip('make dist\'s tarball holds every tracked file: %s is not a git checkout '
             '(an unpacked tarball?) or git is missing' % src)
        return
    top = 'libcpucycles-' + version(cfg)
    with tempfile.TemporaryDirectory(prefix='cpucycles-dist.') as work:
        code, out, err = run([sys.executable, os.path.join(src, 'scripts-build', 'dist'), work])
        tarball = os.path.join(work, top + '.tar.gz')
        result(code == 0 and out.strip() == tarball, 'scripts-build/dist writes %s.tar.gz (%s)'
               % (top, err.strip()[-200:] or out.strip()))
        if not os.path.exists(tarball):
            return
        with tarfile.open(tarball) as tar:
            members = tar.getmembers()
        names = [m.name for m in members]
        result(all(n == top or n.startswith(top + '/') for n in names),
               'every name in the tarball is under %s/' % top)
        held = set(m.name[len(top) + 1:] for m in members if not m.isdir())
        result(held == files, 'the tarball holds the %d tracked files and nothing else '
               '(missing: %s, extra: %s)' % (len(files), sorted(files - held)[:5],
                                             sorted(held - files)[:5]))
        executable = [m.name for m in members if m.name.endswith('/configure')]
        result(any(m.mode & 0o111 for m in members if m.name in executable),
               'configure is executable in the tarball')


def pc_private(build, result):
    """cpucycles.pc tells a static link what the archive needs beyond
    itself: the pthread functions it calls."""
    path = os.path.join(build, 'package', 'lib', 'pkgconfig', 'cpucycles.pc')
    private = []
    with open(path) as f:
        for line in f:
            if line.startswith('Libs.private:'):
                private += line.split(':', 1)[1].split()
    result('-pthread' in private, 'cpucycles.pc: Libs.private has -pthread (%s)' % private)


def check(t):
    cfg, prefix, build, native, result, skip = t.cfg, t.prefix, t.build, t.native, t.result, t.skip
    pc_private(build, result)
    static_links(cfg, prefix, build, result, skip)
    if native:
        dist(cfg, result, skip)
    else:
        skip('make dist\'s tarball: a cross build (%s); the native build checks it' % cfg['HOST'])
