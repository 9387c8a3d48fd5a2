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

CMAKE = '''cmake_minimum_required(VERSION 3.13)
project(user C)
find_package(PkgConfig REQUIRED)
if(STATIC)
  # the imported target then resolves -lcpucycles to libcpucycles.a
  set(CMAKE_FIND_LIBRARY_SUFFIXES .a)
endif()
pkg_check_modules(CPUCYCLES REQUIRED IMPORTED_TARGET cpucycles)
add_executable(user user.c)
target_link_libraries(user PRIVATE PkgConfig::CPUCYCLES)
'''

MESON = '''project('user', 'c')
executable('user', 'user.c', dependencies: dependency('cpucycles', static: %s))
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
    # CMake's two projects one after the other, Meson's beside them (each
    # tool's files in work/ are its own): host tools, half the wait
    jobs = {}
    for tool, build, needs in (('cmake', cmake, ['cmake']), ('meson', meson, ['meson', 'ninja'])):
        missing = [t for t in needs if not shutil.which(t)]
        for static in (False, True):
            what = '%s project (%s) builds against the installed library and runs' % (
                'a CMake' if tool == 'cmake' else 'a Meson', 'static' if static else 'shared')
            if missing:
                skip('%s: %s is not installed' % (what, missing[0]))
                continue
            if cfg.get('STATIC' if static else 'SHARED') == 'no':
                skip('%s: configure was told --disable-%s' % (what, 'static' if static else 'shared'))
                continue
            out = os.path.join(work, '%s-%s' % (tool, 'static' if static else 'shared'))
            jobs.setdefault(tool, []).append(
                (what, static, lambda build=build, out=out, static=static:
                 build(cfg, cc, cross, prefix, destdir, env, work, out, static)))

    def in_turn(tool):
        return [(tool, what, static, make()) for what, static, make in jobs[tool]]
    with concurrent.futures.ThreadPoolExecutor(max(1, len(jobs))) as pool:
        done = [pool.submit(in_turn, tool) for tool in sorted(jobs)]
        for future in done:
            for tool, what, static, (binary, log) in future.result():
                if binary is None and ZIG_LINKER in log and tool == 'meson':
                    skip('%s: this Meson does not recognise zig cc\'s linker (-Wl,--version says '
                         '"zig ld"), so it cannot set the project up' % what)
                    continue
                if binary is None:
                    result(False, '%s (%s)' % (what, log))
                    continue
                verify(cfg, prefix, destdir, binary, static, what, result)


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


def cmake(cfg, cc, cross, prefix, destdir, env, work, out, static):
    """-> (the built program or None, what went wrong)"""
    with open(os.path.join(work, 'CMakeLists.txt'), 'w') as f:
        f.write(CMAKE)
    # CC's own words follow the compiler (ARG1): CMake puts its -isystem
    # flags before CMAKE_C_FLAGS, and `zig cc` needs `cc` first
    words = shlex.split(cfg['CC'])
    code, log = run(['cmake', '-S', work, '-B', out, '-DSTATIC=%s' % ('ON' if static else 'OFF'),
                     '-DCMAKE_C_COMPILER=' + words[0],
                     '-DCMAKE_C_COMPILER_ARG1=' + ' '.join(words[1:]),
                     '-DCMAKE_C_FLAGS=' + cfg.get('CFLAGS', ''),
                     '-DCMAKE_EXE_LINKER_FLAGS=' + cfg.get('LDFLAGS', '')], env=env)
    if code == 0:
        code, log = run(['cmake', '--build', out], env=env)
    return (os.path.join(out, 'user') if code == 0 else None), last_lines(log)


def meson(cfg, cc, cross, prefix, destdir, env, work, out, static):
    source = os.path.join(work, 'meson-source-%s' % ('static' if static else 'shared'))
    os.makedirs(source)
    shutil.copy(os.path.join(work, 'user.c'), source)
    with open(os.path.join(source, 'meson.build'), 'w') as f:
        f.write(MESON % ('true' if static else 'false'))
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
    return (os.path.join(out, 'user') if code == 0 else None), said[-1] if said else last_lines(log)


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
