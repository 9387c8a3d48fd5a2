# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""manpages.py: a man page renders without a warning from any formatter.

Shared by test/run (the installed pages) and autogen/check (the committed
ones). Each page goes through what a reader or a packager runs on it:
  - man --warnings, as lintian runs it (its groff-message tag): any line
    on stderr is a warning;
  - groff -mandoc -ww -z on the terminal device and on PostScript: groff
    1.23 warns on a terminal about fonts 1.22 took silently, and the other
    way round for PostScript, so both devices are asked;
  - mandoc -Tlint, which reads man(7) more strictly than groff (a
    paragraph macro right after a heading, lines over 80 bytes, unknown
    escapes): any message is a failure, at every level, style included;
  - lexgrog, which lintian runs for its bad-whatis-entry tag: the NAME
    section parses into "name - summary" entries.
A tool that is not installed is skipped, and said so; each tool that is
there checks every page, whatever its version.
"""
import os
import shutil

import tools


def run(cmd, env=None):
    return tools.run(cmd, env=env, timeout=120)


def why(ok, code, text):
    """What a failure said: its first line, or its exit status."""
    if ok:
        return ''
    lines = text.strip().splitlines()
    return ' (%s)' % (lines[0] if lines else 'status %d' % code)


def groff_devices():
    """The devices of those groff can format for here (groff-base has the
    terminals only)."""
    if not shutil.which('groff'):
        return []
    return [d for d in ('utf8', 'ps') if run(['groff', '-T' + d, '-z'])[0] == 0]


def check(paths, result, skip):
    # A fixed width and locale, so the result does not depend on the
    # terminal or on the user's language.
    env = dict(os.environ, MANWIDTH='80', LC_ALL='C.UTF-8', MAN_KEEP_FORMATTING='')
    tools = {t: shutil.which(t) for t in ('man', 'groff', 'mandoc', 'lexgrog')}
    for tool, path in sorted(tools.items()):
        if not path:
            skip('man pages checked by %s: %s is not installed' % (tool, tool))
    devices = groff_devices()
    for path in paths:
        name = os.path.basename(path)
        if tools['man']:
            # as lintian runs it (Lintian::Check::Documentation::Manual)
            code, out, err = run(['man', '--warnings', '-E', 'UTF-8', '-l', '-Tutf8', '-Z', path],
                                 env=env)
            ok = code == 0 and not err.strip()
            result(ok, 'man page %s: no warning from man --warnings -Tutf8, as lintian runs it%s'
                   % (name, why(ok, code, err)))
            code, out, err = run(['man', '--warnings', '-l', path], env=env)
            ok = code == 0 and not err.strip() and 'NAME' in out and 'SYNOPSIS' in out
            result(ok, 'man page %s renders without warnings, with NAME and SYNOPSIS%s'
                   % (name, why(ok, code, err)))
        for device in devices:
            code, out, err = run(['groff', '-mandoc', '-ww', '-z', '-T' + device, path], env=env)
            ok = code == 0 and not (out + err).strip()
            result(ok, 'man page %s: no warning from groff -ww -T%s%s'
                   % (name, device, why(ok, code, out + err)))
        if tools['mandoc']:
            code, out, err = run(['mandoc', '-Tlint', path], env=env)
            ok = not (out + err).strip()
            result(ok, 'man page %s: no message from mandoc -Tlint%s' % (name, why(ok, code, out + err)))
        if tools['lexgrog']:
            code, out, err = run(['lexgrog', path], env=env)
            ok = code == 0 and any(' - ' in l for l in out.splitlines())
            result(ok, 'man page %s: lexgrog reads its NAME section%s' % (name, why(ok, code, out + err)))
