"""manpages.py: a man page renders without a warning from man(1).

Shared by test/run (the installed pages) and autogen/check (the committed
ones). man --warnings passes groff's warnings through; any line on stderr
is one. Skipped, and said so, where man is not installed.
"""
import os
import shutil
import subprocess


def check(paths, result, skip):
    if not shutil.which('man'):
        skip('man pages render without warnings: man is not installed')
        return
    # A fixed width and locale, so the result does not depend on the
    # terminal or on the user's language.
    env = dict(os.environ, MANWIDTH='80', LC_ALL='C.UTF-8', MAN_KEEP_FORMATTING='')
    for path in paths:
        p = subprocess.run(['man', '--warnings', '-l', path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env)
        err = p.stderr.decode('utf-8', 'replace').strip()
        out = p.stdout.decode('utf-8', 'replace')
        ok = p.returncode == 0 and not err and 'NAME' in out and 'SYNOPSIS' in out
        why = err.splitlines()[0] if err else 'status %d, sections NAME and SYNOPSIS' % p.returncode
        result(ok, 'man page %s renders without warnings%s'
               % (os.path.basename(path), '' if ok else ' (%s)' % why))
