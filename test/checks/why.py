# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""why.py: the codes of the `cpucycles why` lines, as the library can give
them (the table in cpucycles/why.c), as doc/why.md explains them (its
headings under "The codes", in the same order) and as the man page of
cpucycles-info lists them (its WHY CODES section): the three must name
the same codes, so that no line a script or a person meets is left
unexplained. Reads files only: every build runs it.
"""
import os
import re


def library_codes(src):
    with open(os.path.join(src, 'cpucycles', 'why.c')) as f:
        text = f.read()
    m = re.search(r'static const char codes\[\]\[\d+\] = \{(.*?)\};', text, re.S)
    return re.findall(r'"([^"]+)"', m.group(1)) if m else []


def doc_codes(src):
    with open(os.path.join(src, 'doc', 'why.md')) as f:
        text = f.read()
    part = text.split('\n## The codes\n', 1)[-1].split('\n## ', 1)[0]
    return [c.strip() for h in re.findall(r'^### (.+)$', part, re.M) for c in h.split(',')]


def man_codes(src):
    with open(os.path.join(src, 'doc', 'man-src', 'cpucycles-info.1.md')) as f:
        text = f.read()
    part = text.split('\n# WHY CODES\n', 1)[-1].split('\n# ', 1)[0]
    # the terms: lines of bold names followed by a definition line
    terms = re.findall(r'^(\*\*.+)\n: ', part, re.M)
    return [c for t in terms for c in re.findall(r'\*\*([a-z-]+)\*\*', t)]


def check(t):
    lib, doc, man = library_codes(t.src), doc_codes(t.src), man_codes(t.src)
    t.result(len(lib) >= 20 and len(set(lib)) == len(lib),
             'cpucycles/why.c has its table of codes, each once (%d)' % len(lib))
    t.result(all(re.fullmatch(r'[a-z]+(-[a-z]+)*', c) for c in lib),
             'every code is lowercase and hyphenated (%s)'
             % [c for c in lib if not re.fullmatch(r'[a-z]+(-[a-z]+)*', c)])
    t.result(doc == lib, 'doc/why.md explains the codes of cpucycles/why.c, in its order '
             '(missing: %s, unknown: %s)' % ([c for c in lib if c not in doc],
                                            [c for c in doc if c not in lib]))
    t.result(sorted(man) == sorted(lib), "cpucycles-info's man page lists the same codes "
             '(missing: %s, unknown: %s)' % ([c for c in lib if c not in man],
                                            [c for c in man if c not in lib]))
