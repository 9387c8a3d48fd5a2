# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""configure.py: ./configure as a packager and a user with a typo meet it.

Runs configure in a scratch copy of the files it reads, so that nothing it
does (or wrongly does) can touch the build under test: install directories
given as `--opt value` and `--opt=value` reach config.mk, their defaults
follow the prefix, counters of another operating system are not reported
as failures, and a configure that fails says so in one line, names the
Debian package of a missing cross compiler, and leaves build/ exactly as
it was (the earlier build of the host, and the build/0 link).
"""
import os
import shutil
import subprocess
import sys
import tempfile

# What configure reads from the source tree.
INPUTS = ['configure', 'version', 'compilers', 'cpucycles', 'include']


def run(cmd, cwd, env=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=600)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def config(path):
    with open(path) as f:
        return dict(l.rstrip('\n').split(' = ', 1) for l in f if ' = ' in l)


def tree(root):
    """Every path under root, with a link's target: what a failure must
    leave unchanged."""
    seen = []
    for top, dirs, files in os.walk(root):
        for name in sorted(dirs + files):
            path = os.path.join(top, name)
            seen.append((path, os.readlink(path) if os.path.islink(path) else None))
    return sorted(seen)


def check(cfg, result, skip):
    with tempfile.TemporaryDirectory(prefix='cpucycles-configure.') as scratch:
        for name in INPUTS:
            src = os.path.join(cfg['SRC'], name)
            (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(scratch, name))
        env = {k: v for k, v in os.environ.items() if k not in ('CC', 'CFLAGS', 'CPPFLAGS', 'LDFLAGS')}
        env['CC'] = cfg['CC'].split()[0]
        configure = [sys.executable, 'configure']
        code, out, err = run(configure, scratch, dict(env, CC='false'))
        result(code == 1 and not os.path.lexists(os.path.join(scratch, 'build')),
               'a configure that fails in a fresh tree leaves no build/ (%d)' % code)
        code, out, err = run(configure + ['--prefix', '/usr', '--libdir', '/usr/lib/x86_64-linux-gnu',
                                          '--bindir=/usr/sbin'], scratch, env)
        result(code == 0, 'configure --prefix /usr --libdir DIR --bindir=DIR succeeds (%r)'
               % err.strip()[-200:])
        if code != 0:
            return
        got = config(os.path.join(scratch, 'build', '0', 'config.mk'))
        want = {'PREFIX': '/usr', 'LIBDIR': '/usr/lib/x86_64-linux-gnu', 'BINDIR': '/usr/sbin',
                'INCLUDEDIR': '/usr/include', 'MANDIR': '/usr/share/man'}
        result(all(got.get(k) == v for k, v in want.items()),
               'config.mk has the directories given, the others under the prefix (%s)'
               % {k: got.get(k) for k in want})
        result('skipping' not in out and 'default-mach' not in got.get('COUNTERS', ''),
               'configure reports no counter of this host as skipped, default-mach is not built '
               '(%r)' % [l for l in out.splitlines() if 'skipping' in l])
        failures(scratch, configure, env, cfg, result)
        defaults(scratch, configure, env, result)


def failures(scratch, configure, env, cfg, result):
    """Each failing configure: one line on stderr, exit 1, build/ unchanged."""
    empty = os.path.join(scratch, 'empty-path')
    os.mkdir(empty)
    bare = {k: v for k, v in env.items() if k != 'CC'}
    # a triplet of another machine, so that its compiler is a cross one
    other = 's390x-linux-gnu' if cfg['HOST'] == 'arm64' else 'aarch64-linux-gnu'
    cases = [
        (['--host=' + other], dict(bare, PATH=empty), 'gcc-' + other),
        (['--host', other], dict(bare, PATH=empty), 'gcc-' + other),
        ([], dict(bare, PATH=empty), '(Debian package gcc)'),
        ([], dict(env, CC='false'), 'false'),
        (['--libdir', 'lib'], env, 'absolute'),
        (['--prefix'], env, '--prefix'),
        (['--host=bogus'], env, 'bogus'),
    ]
    for args, case_env, named in cases:
        before = tree(os.path.join(scratch, 'build'))
        code, out, err = run(configure + args, scratch, case_env)
        lines = err.splitlines()
        after = tree(os.path.join(scratch, 'build'))
        what = ' '.join(['configure'] + args + (['with CC=false'] if case_env.get('CC') == 'false'
                                                else ['without a compiler on PATH']
                                                if case_env.get('PATH') == empty else []))
        result(code == 1 and len(lines) == 1 and lines[0].startswith('configure: ')
               and named in lines[0],
               '%s: one line on stderr naming %r, exit 1 (%d, %r)' % (what, named, code, lines))
        result(before == after, '%s leaves build/ as it was (%s)'
               % (what, sorted(set(before) ^ set(after))[:4]))


def defaults(scratch, configure, env, result):
    code, out, err = run(configure + ['--prefix=/opt/cc', '--help'], scratch, env)
    result(code == 0 and '--libdir' in out and '--opt VALUE' in out,
           'configure --help lists --libdir and both forms of a value')
    from importlib.machinery import SourceFileLoader
    sys.dont_write_bytecode = True
    conf = SourceFileLoader('configure_under_test', os.path.join(scratch, 'configure')).load_module()
    opts = conf.parse_args(['--prefix', '/opt/cc/', '--mandir=/opt/man'])
    want = {'prefix': '/opt/cc', 'bindir': '/opt/cc/bin', 'libdir': '/opt/cc/lib',
            'includedir': '/opt/cc/include', 'mandir': '/opt/man'}
    result(all(opts.get(k) == v for k, v in want.items()),
           'the directories default to the GNU layout under the prefix (%s)'
           % {k: opts.get(k) for k in want})
