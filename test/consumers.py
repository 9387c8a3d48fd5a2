# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""consumers.py: CMake and Meson projects built against the staged install.

What a user of either build system writes to find the library through its
pkg-config file: CMake's `pkg_check_modules(... IMPORTED_TARGET
cpucycles)` and Meson's `dependency('cpucycles')`, each once linked with
the shared library and once with the static one. Each program must build,
be linked the way it asked (libcpucycles.so.1 needed, or not), and run.
A cross build configures both tools for the cross compiler (and Meson for
the emulator); where a tool is missing its checks are skipped, and said so.
"""
import concurrent.futures
import os
import shlex
import shutil

import tools
from tools import last_lines, output as run

# One project per tool, its programs those of the libraries configure
# built: user-shared linked with the shared library, user-static with the
# static one (a configure run per tool, not per program, halves its time).
CMAKE_HEAD = '''cmake_minimum_required(VERSION 3.13)
project(user C)
find_package(PkgConfig REQUIRED)
'''
CMAKE_SHARED = '''pkg_check_modules(CPUCYCLES REQUIRED IMPORTED_TARGET cpucycles)
add_executable(user-shared user.c)
target_link_libraries(user-shared PRIVATE PkgConfig::CPUCYCLES)
'''
# after the shared program's lookup: from here on -lcpucycles resolves to
# libcpucycles.a, for this second lookup's imported target
CMAKE_STATIC = '''set(CMAKE_FIND_LIBRARY_SUFFIXES .a)
pkg_check_modules(CPUCYCLES_STATIC REQUIRED IMPORTED_TARGET cpucycles)
add_executable(user-static user.c)
target_link_libraries(user-static PRIVATE PkgConfig::CPUCYCLES_STATIC)
'''

MESON_HEAD = '''project('user', 'c')
'''
MESON_PROGRAM = '''executable('user-%s', 'user.c', dependencies: dependency('cpucycles', static: %s))
'''

# Meson's answer when it cannot tell what linker a compiler drives; 1.0
# (Debian 12) gives it for `zig cc` (test/riscv32's compiler).
ZIG_LINKER = 'Unable to detect linker for compiler `zig cc'


def check(cfg, prefix, destdir, env, program, result, skip):
    """env: the environment in which pkg-config finds the staged
    cpucycles.pc; program: the C source of a user's program."""
    work = os.path.join(destdir, 'consumers')
    os.makedirs(work)
    with open(os.path.join(work, 'user.c'), 'w') as f:
        f.write(program)
    # configure keeps the user's CFLAGS apart from CC: a program built
    # against the library takes both (a sanitizer's flags, -m32)
    cc = shlex.split(cfg['CC']) + shlex.split(cfg.get('CFLAGS', ''))
    cross = bool(prefix)
    # CMake's project beside Meson's (each tool's files in work/ are its
    # own): host tools, half the wait
    jobs = {}
    for tool, build, needs in (('cmake', cmake, ['cmake']), ('meson', meson, ['meson', 'ninja'])):
        missing = [t for t in needs if not shutil.which(t)]
        wanted = []
        for static in (False, True):
            what = '%s project (%s) builds against the installed library and runs' % (
                'a CMake' if tool == 'cmake' else 'a Meson', 'static' if static else 'shared')
            if missing:
                skip('%s: %s is not installed' % (what, missing[0]))
            elif cfg.get('STATIC' if static else 'SHARED') == 'no':
                skip('%s: configure was told --disable-%s' % (what, 'static' if static else 'shared'))
            else:
                wanted.append((what, static))
        if wanted:
            out = os.path.join(work, tool + '-build')
            jobs[tool] = pool_job(build, cfg, cc, cross, prefix, destdir, env, work, out, wanted)
    with concurrent.futures.ThreadPoolExecutor(max(1, len(jobs))) as pool:
        done = [(tool, pool.submit(job)) for tool, job in sorted(jobs.items())]
        for tool, future in done:
            for what, static, binary, log in future.result():
                if binary is None and ZIG_LINKER in log and tool == 'meson':
                    skip('%s: this Meson does not recognise zig cc\'s linker (-Wl,--version says '
                         '"zig ld"), so it cannot set the project up' % what)
                    continue
                if binary is None:
                    result(False, '%s (%s)' % (what, log))
                    continue
                verify(cfg, prefix, destdir, binary, static, what, result)


def pool_job(build, *args):
    """build(..., wanted) as a job for the pool: -> [(what, static, the
    program or None, what went wrong)], one for each of wanted."""
    *rest, wanted = args

    def job():
        built, log = build(*rest, [static for _, static in wanted])
        return [(what, static, built.get(static), log) for what, static in wanted]
    return job


def verify(cfg, prefix, destdir, binary, static, what, result):
    code, out = run([cfg['NM'][:-2] + 'readelf', '-d', binary])
    linked = 'Shared library: [libcpucycles.so.1]' in out
    env = dict(os.environ)
    if not static:
        env['LD_LIBRARY_PATH'] = destdir + cfg['LIBDIR']
    with open(os.path.join(cfg['SRC'], 'version')) as f:
        version = f.read().strip()
    code, out = run(prefix + [binary], env=env)
    result(linked != static and code == 0 and out.split()[:1] == [version],
           '%s (%s libcpucycles.so.1; %r)' % (what, 'needs' if linked else 'does not need',
                                              last_lines(out, 1)))


def program_name(static):
    return 'user-static' if static else 'user-shared'


def cmake(cfg, cc, cross, prefix, destdir, env, work, out, variants):
    """-> ({static: the built program}, what went wrong)"""
    source = os.path.join(work, 'cmake-source')
    os.makedirs(source)
    shutil.copy(os.path.join(work, 'user.c'), source)
    with open(os.path.join(source, 'CMakeLists.txt'), 'w') as f:
        f.write(CMAKE_HEAD + ''.join(CMAKE_STATIC if static else CMAKE_SHARED
                                     for static in sorted(variants)))
    # CC's own words follow the compiler (ARG1): CMake puts its -isystem
    # flags before CMAKE_C_FLAGS, and `zig cc` needs `cc` first
    words = shlex.split(cfg['CC'])
    code, log = run(['cmake', '-S', source, '-B', out,
                     '-DCMAKE_C_COMPILER=' + words[0],
                     '-DCMAKE_C_COMPILER_ARG1=' + ' '.join(words[1:]),
                     '-DCMAKE_C_FLAGS=' + cfg.get('CFLAGS', ''),
                     '-DCMAKE_EXE_LINKER_FLAGS=' + cfg.get('LDFLAGS', '')], env=env)
    if code == 0:
        code, log = run(['cmake', '--build', out], env=env)
    return built(out, variants, code), last_lines(log)


def built(out, variants, code):
    """{static: the program} of those the build made (none if it failed)."""
    if code != 0:
        return {}
    return {s: os.path.join(out, program_name(s)) for s in variants
            if os.path.exists(os.path.join(out, program_name(s)))}


def meson(cfg, cc, cross, prefix, destdir, env, work, out, variants):
    source = os.path.join(work, 'meson-source')
    os.makedirs(source)
    shutil.copy(os.path.join(work, 'user.c'), source)
    with open(os.path.join(source, 'meson.build'), 'w') as f:
        f.write(MESON_HEAD + ''.join(MESON_PROGRAM % ('static' if s else 'shared',
                                                      'true' if s else 'false')
                                     for s in sorted(variants)))
    args = ['meson', 'setup', out, source]
    env = dict(env, LDFLAGS=cfg.get('LDFLAGS', ''))
    if cross:
        args.append('--cross-file=' + cross_file(cfg, cc, prefix, destdir, env, work))
    else:
        env['CC'] = ' '.join(shlex.quote(c) for c in cc)
    code, log = run(args, env=env)
    if code == 0:
        code, log = run(['meson', 'compile', '-C', out], env=env)
    # Meson's own error line says more than the end of its output (where
    # the log file lies)
    said = [l.strip() for l in log.splitlines() if 'ERROR:' in l]
    return built(out, variants, code), said[-1] if said else last_lines(log)


def cross_file(cfg, cc, prefix, destdir, env, work):
    """A Meson cross file for the cross compiler, the emulator as the
    wrapper that runs its programs, and the staged pkg-config directory.
    `pkgconfig` is the key Meson 1.0 (Debian 12) knows; later ones too."""
    path = os.path.join(work, 'cross.ini')
    if os.path.exists(path):
        return path
    code, macros = run(cc + ['-dM', '-E', '-x', 'c', os.devnull])
    big = '__BYTE_ORDER__ __ORDER_BIG_ENDIAN__' in macros
    # Meson's cpu_family from the host table; a host it lacks (configure
    # takes any CPU for the portable counters) by its own name, as alpha's
    known = tools.tables(cfg['SRC']).host(cfg['HOST'])
    cpu = known.meson if known else cfg['HOST']

    def strings(items):
        return '[%s]' % ', '.join(repr(i) for i in items)

    with open(path, 'w') as f:
        f.write('[binaries]\nc = %s\npkgconfig = %r\nexe_wrapper = %s\n'
                % (strings(cc), shutil.which('pkg-config'), strings(prefix)))
        f.write('[properties]\npkg_config_libdir = %s\nsys_root = %r\n'
                % (strings([env['PKG_CONFIG_LIBDIR']]), destdir))
        f.write("[host_machine]\nsystem = 'linux'\ncpu_family = %r\ncpu = %r\nendian = %r\n"
                % (cpu, cpu, 'big' if big else 'little'))
    return path
