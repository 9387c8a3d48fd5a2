# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""mdman.py: a man page in roff from the small markdown of doc/man-src.

Why not pandoc: its man writer changes between releases (2.17 and 3.1
give different pages, so a committed page could only match one of them)
and 2.17 selects the fonts C and CB, which groff 1.23 warns about on a
terminal. The pages use a handful of constructs, so the roff is written
here, with only the requests that groff 1.22, groff 1.23 and mandoc all
take without a warning: .TH .SH .PP .TP .IP .RS/.RE .nf/.fi .nh, \\c and
the fonts B, I and R. The output depends on nothing but the source and the
arguments, so `make doc-check` compares it byte for byte on any machine.

The markdown accepted, one construct per block (blocks are separated by
blank lines):
  # HEADING                a section (NAME first, as "names - summary")
  ``` ... ```              a literal block, shown as is
  - item                   bullet items; lines that do not start with
                           "- " continue the item
  term / : definition      a tagged paragraph (the term on one line, the
                           next line starting with ": ")
  anything else            a paragraph
and inside text **bold** and *italic*. Anything else that markdown would
format (links, inline code, emphasis with _, headings below #, numbered
lists, quotes, tables, HTML, backslash escapes) is refused with the line
number, so the page never says something the HTML does not.
"""
import re


class Error(Exception):
    pass


def _escape(text, literal):
    """Plain text to roff. In bold/italic (names, options, paths) a
    hyphen is the ASCII minus \\-: it copies and pastes as typed and
    groff never breaks a line after it."""
    out = text.replace("'", '\\(aq')
    if literal:
        out = out.replace('-', '\\-')
    return out


def _inline(text, where):
    """**bold** and *italic* to \\fB / \\fI, the rest escaped."""
    for bad, what in (('\\', 'backslash escapes'), ('`', 'inline code'), ('<', 'HTML'),
                      ('](', 'links')):
        if bad in text:
            raise Error('%s: %s are not supported in man pages' % (where, what))
    # an underscore inside a word (cpucycles_version) is a letter
    if re.search(r'(^|\W)_\w|\w_(\W|$)', text):
        raise Error('%s: emphasis with _ is not supported in man pages' % where)
    out = []
    i = 0
    while i < len(text):
        if text.startswith('**', i):
            end = text.find('**', i + 2)
            font = 'B'
            start = i + 2
        elif text[i] == '*':
            end = text.find('*', i + 1)
            font = 'I'
            start = i + 1
        else:
            j = text.find('*', i)
            j = len(text) if j < 0 else j
            out.append(_escape(text[i:j], False))
            i = j
            continue
        inner = text[start:end] if end >= 0 else ''
        if not inner or '*' in inner:
            raise Error('%s: unbalanced or nested * in %r' % (where, text))
        out.append('\\f%s%s\\fR' % (font, _escape(inner, True)))
        i = end + (2 if font == 'B' else 1)
    return ''.join(out)


def _wrap(roff, width=80):
    """A text line cut at spaces into lines of at most WIDTH bytes (mandoc
    -Tlint asks for 80). Never after a full stop: groff would take the
    line end for a sentence end and widen the space."""
    words, out, cur = roff.split(' '), [], ''
    for word in words:
        longer = len((cur + ' ' + word).encode('utf-8')) > width
        if cur and longer and not re.search(r'[.?!][\'")\]*]*$', cur):
            out.append(cur)
            cur = word
        else:
            cur = cur + ' ' + word if cur else word
    out.append(cur)
    # a line that would start with a control character gets the
    # zero-width \\& in front
    return ['\\&' + l if l.startswith('.') else l for l in out]


def _text_lines(lines, where):
    """Source lines to roff input lines, each sentence starting a line:
    groff and mandoc see a sentence end only at the end of an input line,
    and give it the wider space there."""
    out = []
    for line in lines:
        roff = _inline(line.strip(), where)
        out += [w for part in _sentences(roff) for w in _wrap(part)]
    return out


def _sentences(roff):
    """A line split after each full stop, question or exclamation mark
    (and the closing quotes, brackets or font change after it) that a
    space and a capital or a bold/italic word follow."""
    return re.sub(r'([.?!](?:\\f[RBI]|["\')\]])*) +(?=[A-Z"]|\\f[BI])', '\\1\n', roff).split('\n')


def _blocks(text):
    """[(first line number, [lines])], fenced blocks kept whole."""
    blocks, cur, start, fenced = [], [], 0, False
    for n, line in enumerate(text.split('\n'), 1):
        if fenced:
            cur.append(line)
            if line.strip() == '```':
                fenced = False
                blocks.append((start, cur))
                cur = []
        elif line.strip() == '':
            if cur:
                blocks.append((start, cur))
                cur = []
        else:
            if not cur:
                start = n
            cur.append(line.rstrip())
            if line.startswith('```'):
                if len(cur) > 1 or line.strip() != '```':
                    raise Error('line %d: a literal block starts with a bare ``` line, '
                                'after a blank line' % n)
                fenced = True
    if fenced:
        raise Error('line %d: literal block not closed' % start)
    if cur:
        blocks.append((start, cur))
    return blocks


NOT_SUPPORTED = [
    (r'#{2,}\s', 'headings below #'), (r'\d+[.)]\s', 'numbered lists'), (r'[*+]\s', 'lists with * or +'),
    (r'>', 'quotes'), (r'\|', 'tables'), (r'<', 'HTML'), (r'(-{3,}|\*{3,}|_{3,})$', 'rules'), (r'=+$|-+$', 'underlined headings'),
]


def convert(text, title, section, date, source, manual, comments=()):
    """The man page (a str ending in a newline) for markdown TEXT.
    COMMENTS are roff comment lines put first."""
    out = ['.\\" ' + c for c in comments]
    out.append('.TH "%s" "%s" "%s" "%s" "%s"' % (title, section, date, source, manual))
    # no hyphenation: a name or option split at a line end would read wrong
    out.append('.nh')
    headings = []
    after_heading = False
    for n, lines in _blocks(text):
        where = 'line %d' % n
        first = lines[0]
        if first.startswith('# '):
            if len(lines) > 1:
                raise Error('%s: a heading is a block of its own' % where)
            heading = first[2:].strip()
            if not re.fullmatch(r'[A-Z][A-Z ]*[A-Z]', heading):
                raise Error('%s: section names are upper case words, not %r' % (where, heading))
            headings.append(heading)
            out.append('.SH ' + heading)
            after_heading = True
            continue
        if not headings:
            raise Error('%s: text before the first heading' % where)
        # a paragraph directly after .SH needs no .PP (mandoc warns about it)
        para = [] if after_heading else ['.PP']
        after_heading = False
        if first.startswith('```'):
            # indented and unfilled; not .EX/.EE, whose font and
            # hyphenation handling differs between groff 1.22 and 1.23
            # (1.22's .EE turns hyphenation back on, a font it names
            # warns on 1.23's terminals)
            out += para + ['.RS 4', '.nf']
            for line in lines[1:-1]:
                if '\\' in line:
                    raise Error('%s: backslashes are not supported in literal blocks' % where)
                out.append(('\\&' + line) if line.startswith(('.', "'")) else line)
            out += ['.fi', '.RE']
            continue
        if first.startswith(('    ', '\t')):
            raise Error('%s: indented literal blocks are not supported in man pages' % where)
        for k, line in enumerate(lines):
            for pattern, what in NOT_SUPPORTED:
                if re.match(pattern, line):
                    raise Error('line %d: %s are not supported in man pages' % (n + k, what))
        if headings == ['NAME']:
            # what lexgrog, apropos and whatis read: "names \- summary"
            if not re.fullmatch(r'\S.* - \S.*', ' '.join(lines)):
                raise Error('%s: NAME is "name, name - what they do"' % where)
            names, summary = ' '.join(l.strip() for l in lines).split(' - ', 1)
            out += _wrap('%s \\- %s' % (_escape(names, True), _inline(summary, where)))
        elif first.startswith('- '):
            items = []
            for line in lines:
                if line.startswith('- '):
                    items.append([line[2:]])
                else:
                    items[-1].append(line)
            for item in items:
                out += ['.IP \\(bu 2'] + _text_lines(item, where)
        elif len(lines) > 1 and lines[1].startswith(': '):
            if any(l.startswith(': ') for l in lines[2:]):
                raise Error('%s: one term and one definition per block' % where)
            # .TP takes one input line as the tag: a long one goes on
            # with \c, which groff 1.22, 1.23 and mandoc all honour there
            tag = _wrap(_inline(first.strip(), where), 77)
            out += ['.TP'] + [l + ' \\c' for l in tag[:-1]] + tag[-1:] + \
                _text_lines([lines[1][2:]] + lines[2:], where)
        elif any(l.startswith(': ') for l in lines):
            raise Error('%s: a definition follows its term, a single line' % where)
        else:
            out += para + _text_lines(lines, where)
    if headings[:2] != ['NAME', 'SYNOPSIS']:
        raise Error('a man page starts with the sections NAME and SYNOPSIS, not %s' % headings[:2])
    return '\n'.join(out) + '\n'
