# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""installed.py: the library as a user gets it from `make install`.

Installs into a temporary DESTDIR, then checks what a user relies on: the
files are in the directories configure was given, cpucycles.pc names them
and this version, a program built with nothing but `pkg-config --cflags
--libs cpucycles` compiles, links and runs against the installed library,
so do CMake and Meson projects (consumers.py), one linked statically with
the `--static` flags runs, man finds the installed man pages, which render
without warnings, and make uninstall takes out exactly what was put.
"""
import os
import shlex
import shutil
import tempfile

import consumers
import manpages

from tools import clean_env, run

RUNS = True

PROGRAM = r'''
#include <stdio.h>
#include <string.h>
#include <cpucycles.h>
int main(void)
{
  long long t0 = cpucycles(), t1 = cpucycles();
  const char *name = cpucycles_implementation();
  if (t1 < t0 || !name || !*name) return 1;
  printf("%s %s\n", cpucycles_version(), name);
  return 0;
}
'''


# The shared library and its link, as each OS names them.
SHARED = {'linux': ('libcpucycles.so.1', 'libcpucycles.so'),
          'macos': ('libcpucycles.1.dylib', 'libcpucycles.dylib')}


def check(t):
    cfg, prefix, build, result, skip = t.cfg, t.prefix, t.build, t.result, t.skip
    with tempfile.TemporaryDirectory(prefix='cpucycles-install.') as destdir:
        # a make of our own: the jobserver of the `make test` around us is
        # not ours to use
        env = clean_env(drop=('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL'))
        no_pc(cfg, build, env, result)
        # cpucycles.pc as --enable-pkgconfig would install it, for the
        # checks of pkg-config, CMake and Meson below
        asked = cfg.get('PKGCONFIGDIR') or os.path.join(cfg['LIBDIR'], 'pkgconfig')
        code, out, err = run(['make', '-s', 'install', 'DESTDIR=' + destdir,
                              'PKGCONFIGDIR=' + asked], env=env, cwd=build)
        result(code == 0, 'make install DESTDIR=... succeeds (%s)' % err.strip()[-200:])
        ours = files_under(destdir)
        shared = SHARED.get(cfg.get('OS', 'linux'), SHARED['linux'])
        libs = {'STATIC': [('LIBDIR', 'libcpucycles.a')],
                'SHARED': [('LIBDIR', shared[0]), ('LIBDIR', shared[1])]}
        # --disable-static, --disable-shared: that library is not installed
        left_out = [f for key, files in libs.items() if cfg.get(key) == 'no' for f in files]
        wanted = [('BINDIR', 'cpucycles-info'), ('INCLUDEDIR', 'cpucycles.h'),
                  ('LIBDIR', 'pkgconfig/cpucycles.pc'),
                  ('MANDIR', 'man1/cpucycles-info.1'), ('MANDIR', 'man3/cpucycles.3')]
        wanted += [f for files in libs.values() for f in files if f not in left_out]
        missing = [os.path.join(cfg[d], w) for d, w in wanted
                   if not os.path.exists(destdir + os.path.join(cfg[d], w))]
        result(not missing, 'make install puts every file in configure\'s directories (missing: %s)'
               % missing)
        extra = [os.path.join(cfg[d], w) for d, w in left_out
                 if os.path.lexists(destdir + os.path.join(cfg[d], w))]
        if left_out:
            result(not extra, 'make install leaves out the library configure was told to '
                   '(installed: %s)' % extra)
        pc = destdir + os.path.join(cfg['LIBDIR'], 'pkgconfig', 'cpucycles.pc')
        if os.path.exists(pc):
            values = pc_variables(pc)
            for name in ('prefix', 'libdir', 'includedir'):
                want = cfg['PREFIX' if name == 'prefix' else name.upper()]
                result(values.get(name) == want, 'cpucycles.pc: %s is configure\'s %s (%r)'
                       % (name, want, values.get(name)))
        mandir = destdir + cfg['MANDIR']
        mandirs = [os.path.join(mandir, d) for d in ('man1', 'man3')]
        manpages.check([os.path.join(d, f) for d in mandirs if os.path.isdir(d)
                        for f in sorted(os.listdir(d))], result, skip)
        man_finds(mandir, cfg.get('OS', 'linux'), result, skip)
        pkgconfig(cfg, prefix, destdir, result, skip)
        uninstall(cfg, build, destdir, env, ours, result, asked)


def no_pc(cfg, build, env, result):
    """Upstream installs no cpucycles.pc, and an RPM's file list names
    each installed file: without --enable-pkgconfig, make install puts
    none anywhere."""
    if cfg.get('PKGCONFIGDIR'):
        return
    with tempfile.TemporaryDirectory(prefix='cpucycles-install.') as destdir:
        code, out, err = run(['make', '-s', 'install', 'DESTDIR=' + destdir], env=env, cwd=build)
        pcs = [f for f in files_under(destdir) if f.endswith('.pc')]
        result(code == 0 and not pcs,
               'without --enable-pkgconfig make install installs no cpucycles.pc (%d, %s)'
               % (code, pcs))


def files_under(root):
    """Every file and link below root, as paths relative to it."""
    found = set()
    for top, dirs, files in os.walk(root):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            found.add(os.path.relpath(os.path.join(top, name), root))
    return found


def plant_foreign(cfg, destdir):
    """Files of another package in the directories make install writes
    to, which make uninstall must leave alone."""
    planted = []
    for var, name in (('LIBDIR', 'libother.so.1'), ('LIBDIR', 'pkgconfig/other.pc'),
                      ('INCLUDEDIR', 'other.h'), ('BINDIR', 'other'), ('MANDIR', 'man3/other.3')):
        path = destdir + os.path.join(cfg[var], name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write('not cpucycles\n')
        planted.append(os.path.relpath(path, destdir))
    return planted


def uninstall(cfg, build, destdir, env, ours, result, pcdir):
    """make uninstall takes out every file and link make install put, and
    nothing else (the directories may stay: other packages share them)."""
    foreign = plant_foreign(cfg, destdir)
    code, out, err = run(['make', '-s', 'uninstall', 'DESTDIR=' + destdir, 'PKGCONFIGDIR=' + pcdir],
                         env=env, cwd=build)
    result(code == 0, 'make uninstall DESTDIR=... succeeds (%s)' % err.strip()[-200:])
    left = files_under(destdir)
    result(ours and not (ours & left), 'make uninstall removes all %d files make install put (left: %s)'
           % (len(ours), sorted(ours & left)))
    result(all(f in left for f in foreign), 'make uninstall leaves the other files in those '
           'directories (gone: %s)' % sorted(set(foreign) - left))


def pc_variables(path):
    """The variables a .pc file defines, ${...} references expanded."""
    values = {}
    with open(path) as f:
        for line in f:
            name, eq, value = line.strip().partition('=')
            if eq and name.isidentifier():
                for key, known in values.items():
                    value = value.replace('${%s}' % key, known)
                values[name] = value
    return values


def man_finds(mandir, os_name, result, skip):
    """man, pointed at the installed directory, finds every page by name."""
    if not shutil.which('man'):
        skip('man -M MANDIR finds the installed pages: man is not installed')
        return
    pages = [('3', 'cpucycles'), ('1', 'cpucycles-info')]
    if os_name == 'linux':
        pages.append(('1', 'cpucycles-open'))
    for section, page in pages:
        code, out, err = run(['man', '-M', mandir, '-w', section, page])
        want = os.path.join(mandir, 'man' + section, page + '.' + section)
        result(code == 0 and out.strip() == want, 'man -M MANDIR -w %s %s finds %s (%r)'
               % (section, page, want, out.strip() or err.strip()))


def pkgconfig(cfg, prefix, destdir, result, skip):
    if not shutil.which('pkg-config'):
        skip('pkg-config builds a program against the installed library: pkg-config is not installed')
        skip('CMake and Meson projects build against the installed library: '
             'pkg-config is not installed')
        return
    # The sysroot maps the .pc's paths into the staging directory, as it
    # would for a cross or staged build; system directories are kept so
    # that --prefix=/usr still yields usable flags there.
    env = dict(os.environ, PKG_CONFIG_PATH='',
               PKG_CONFIG_LIBDIR=destdir + os.path.join(cfg['LIBDIR'], 'pkgconfig'),
               PKG_CONFIG_SYSROOT_DIR=destdir, PKG_CONFIG_ALLOW_SYSTEM_CFLAGS='1',
               PKG_CONFIG_ALLOW_SYSTEM_LIBS='1')
    with open(os.path.join(cfg['SRC'], 'version')) as f:
        version = f.read().strip()
    code, out, err = run(['pkg-config', '--modversion', 'cpucycles'], env=env)
    result(code == 0 and out.strip() == version, 'pkg-config --modversion cpucycles is %s (%r)'
           % (version, out.strip() or err.strip()))
    code, flags, err = run(['pkg-config', '--cflags', '--libs', 'cpucycles'], env=env)
    result(code == 0 and '-lcpucycles' in flags.split(), 'pkg-config --cflags --libs cpucycles (%r)'
           % (flags.strip() or err.strip()))
    if code == 0 and cfg.get('SHARED') == 'no':
        skip('a program builds with the pkg-config flags alone and runs against the shared '
             'library: configure was told --disable-shared')
    elif code == 0:
        build_with_flags(cfg, prefix, destdir, flags, result)
    code, static, err = run(['pkg-config', '--cflags', '--static', '--libs', 'cpucycles'], env=env)
    result(code == 0 and '-pthread' in static.split(),
           'pkg-config --static --libs cpucycles adds what the archive\'s pthread calls need (%r)'
           % (static.strip() or err.strip()))
    if code == 0:
        build_static(cfg, prefix, destdir, static, result, skip)
    consumers.check(cfg, prefix, destdir, env, PROGRAM, result, skip)


def build_with_flags(cfg, prefix, destdir, flags, result):
    with open(os.path.join(cfg['SRC'], 'version')) as f:
        version = f.read().strip()
    work = destdir
    source = os.path.join(work, 'user.c')
    binary = os.path.join(work, 'user')
    with open(source, 'w') as f:
        f.write(PROGRAM)
    code, out, err = run(shlex.split(cfg['CC']) + shlex.split(cfg.get('CFLAGS', ''))
                         + [source, '-o', binary] + shlex.split(flags)
                         + shlex.split(cfg.get('LDFLAGS', '')))
    result(code == 0, 'a program builds with the pkg-config flags alone (%s)' % err.strip()[-300:])
    if code != 0:
        return
    if cfg.get('OS') == 'macos':
        # it names the install path; staged under DESTDIR, dyld finds the
        # file by name through DYLD_LIBRARY_PATH
        libdir = cfg['LIBDIR']
        want = os.path.join(libdir, 'libcpucycles.1.dylib')
        code, out, err = run(['otool', '-L', binary])
        result(want in out, 'the program is linked against %s' % want)
        env = dict(os.environ, DYLD_LIBRARY_PATH=destdir + cfg['LIBDIR'])
    else:
        code, out, err = run([cfg['NM'][:-2] + 'readelf', '-d', binary])
        result('Shared library: [libcpucycles.so.1]' in out,
               'the program is linked against libcpucycles.so.1')
        env = dict(os.environ, LD_LIBRARY_PATH=destdir + cfg['LIBDIR'])
    code, out, err = run(prefix + [binary], env=env)
    result(code == 0 and out.split()[:1] == [version],
           'the program runs against the installed library (%r)' % (out.strip() or err.strip()))


def build_static(cfg, prefix, destdir, flags, result, skip):
    """A program linked with the installed archive and the --static flags,
    as a static build of a user's program links it."""
    if cfg.get('OS') == 'macos':
        skip('a program links libcpucycles.a with pkg-config --static: the macOS linker has no -l:FILE')
        return
    source = os.path.join(destdir, 'user-static.c')
    binary = os.path.join(destdir, 'user-static')
    with open(source, 'w') as f:
        f.write(PROGRAM)
    # Where the shared library is installed too, -l:FILE (GNU ld, lld)
    # makes the linker take the archive; where it is not, -lcpucycles
    # finds the archive alone, as a static-only install's users link it.
    words = shlex.split(flags)
    if cfg.get('SHARED') != 'no':
        words = ['-l:libcpucycles.a' if w == '-lcpucycles' else w for w in words]
    cc = shlex.split(cfg['CC']) + shlex.split(cfg.get('CPPFLAGS', '')) + shlex.split(cfg.get('CFLAGS', ''))
    code, out, err = run(cc + [source, '-o', binary] + words + shlex.split(cfg.get('LDFLAGS', '')))
    result(code == 0, 'a program links libcpucycles.a with the pkg-config --static flags (%s)'
           % err.strip()[-300:])
    if code != 0:
        return
    code, out, err = run([cfg['NM'][:-2] + 'readelf', '-d', binary])
    result(code == 0 and 'libcpucycles' not in out, 'that program needs no libcpucycles.so')
    code, out, err = run(prefix + [binary])
    with open(os.path.join(cfg['SRC'], 'version')) as f:
        version = f.read().strip()
    result(code == 0 and out.split()[:1] == [version],
           'that program runs (%r)' % (out.strip() or err.strip()))
