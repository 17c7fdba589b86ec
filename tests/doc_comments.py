#!/usr/bin/env python3
"""Every public declaration of libevtool has a doc comment.

usage: doc_comments.py HEADER...             check; exit 1 listing the
                                             undocumented declarations
       doc_comments.py --functions HEADER... print the names of the
                                             exported functions declared
       doc_comments.py --self-test           check the checker on a
                                             header with known gaps

A declaration is anything at file scope: a function prototype or inline
function, a typedef, a struct, union or enum definition, a variable and
every #define except the include guard. Its doc comment is a /** ... */
comment ending on the line just before it (no blank line between), or a
/**< ... */ comment on its first line. Members and enum constants are not
checked: a group of constants may share its enum's comment. A macro
defined in several branches of an #if needs the comment on one of them.
Declarations inside `#ifdef __cplusplus` (extern "C") are scaffolding.
"""
import re
import sys


def strip(text):
    """The text with comments and literals blanked (newlines kept), and
    its comments as a list of (kind, first_line, last_line), 1-based:
    kind "doc" for /**, "trailing" for /**<, "plain" for /* and //."""
    out = []
    comments = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            end = text.find('*/', i + 2)
            if end < 0:
                raise SyntaxError(f'line {line}: unterminated comment')
            body = text[i:end + 2]
            kind = ('trailing' if body.startswith('/**<') else
                    'doc' if body.startswith('/**') and body != '/**/'
                    else 'plain')
            nl = body.count('\n')
            comments.append((kind, line, line + nl))
            out.append(' ' + '\n' * nl)
            line += nl
            i = end + 2
        elif text.startswith('//', i):
            end = text.find('\n', i)
            end = n if end < 0 else end
            comments.append(('plain', line, line))
            out.append(' ')
            i = end
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + ' ' * (j - i - 1) + c)
            i = j + 1
        else:
            if c == '\n':
                line += 1
            out.append(c)
            i += 1
    return ''.join(out), comments


def declarations(path):
    """Yields (line, kind, name, text, first) for each file-scope
    declaration; `first` is false for one that starts on the line where
    another ended (it cannot have a comment of its own before it)."""
    text = open(path, encoding='utf-8').read()
    code, _ = strip(text)
    lines = code.split('\n')
    guard = None
    cond = []           # the stack of open #if's: True for __cplusplus
    depth = 0           # braces of the declaration being read
    start, buf = None, []
    ended = None        # the line where the last declaration ended
    i = 0
    while i < len(lines):
        first = i
        logical = lines[i]
        while logical.endswith('\\') and i + 1 < len(lines):
            i += 1
            logical = logical[:-1] + ' ' + lines[i]
        i += 1
        s = logical.strip()
        if not s:
            continue
        if s.startswith('#'):
            if depth or start is not None:
                continue    # inside a declaration: not one of its own
            d = re.match(r'#\s*(\w+)\s*(.*)', s)
            word, rest = (d.group(1), d.group(2)) if d else ('', '')
            if word in ('if', 'ifdef', 'ifndef'):
                cond.append(word == 'ifdef' and rest.strip() == '__cplusplus')
                if word == 'ifndef' and guard is None:
                    guard = rest.strip()
            elif word == 'endif' and cond:
                cond.pop()
            elif word == 'define' and not any(cond):
                name = re.match(r'\w+', rest).group(0)
                if name != guard:
                    yield first + 1, 'macro', name, s, True
            continue
        if any(cond):
            continue
        for ch in s:
            if start is None:
                if ch.isspace():
                    continue
                start, buf = first + 1, []
            buf.append(ch)
            if ch == '{':
                depth += 1
            elif ch == '}':
                depth -= 1
                head = ''.join(buf).split('{', 1)[0].strip()
                if depth == 0 and head.endswith(')'):
                    yield (start, 'function', _name(head), head,
                           start != ended)
                    start, buf, ended = None, [], i
            elif ch == ';' and depth == 0:
                decl = ''.join(buf).strip()
                yield start, _kind(decl), _name(decl), decl, start != ended
                start, buf, ended = None, [], i
        if start is not None:
            buf.append(' ')


def _kind(decl):
    if decl.startswith('typedef'):
        return 'typedef'
    if re.match(r'(enum|struct|union)\b[^(]*\{', decl):
        return 'type'
    if re.search(r'\)\s*;$', decl) and '(' in decl:
        return 'function'
    return 'variable'


def _name(decl):
    """The declared name: of a function, the identifier before its
    parameter list; of a typedef, the last identifier (or the one in
    (*name) for a function pointer); of a type, its tag."""
    body = re.sub(r'\{.*\}', '{}', decl, flags=re.S)
    if body.startswith('typedef'):
        m = re.search(r'\(\s*\*\s*(\w+)\s*\)', body)
        if m:
            return m.group(1)
        return re.findall(r'\w+', body)[-1]
    m = re.match(r'(?:enum|struct|union)\s+(\w+)\s*\{', body)
    if m:
        return m.group(1)
    m = re.search(r'(\w+)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*;?$', body)
    if m:
        return m.group(1)
    names = re.findall(r'\w+', re.sub(r'\[[^]]*\]', '', body.split('=')[0]))
    return names[-1] if names else body


def undocumented(path):
    text = open(path, encoding='utf-8').read()
    _, comments = strip(text)
    doc_ends = {c[2] for c in comments if c[0] == 'doc'}
    on_line = {}
    for kind, first, last in comments:
        on_line.setdefault(first, set()).add(kind)
    documented_macros = set()
    missing = []
    for line, kind, name, decl, alone in declarations(path):
        ok = alone and (line - 1 in doc_ends or
                        'trailing' in on_line.get(line, ()))
        if kind == 'macro':
            if ok:
                documented_macros.add(name)
                missing = [m for m in missing if m[2] != name or
                           m[1] != 'macro']
                continue
            if name in documented_macros:
                continue
        if not ok:
            missing.append((line, kind, name))
    return missing


# A header with every kind of declaration, documented and not: the
# checker must report exactly the names in SELF_TEST_MISSING.
SELF_TEST_HEADER = r'''/*
 * a file comment
 */
#ifndef SELF_TEST_H
#define SELF_TEST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** documented */
#define DOC_MACRO 1
#define BARE_MACRO 2
#define TRAILING_MACRO 3 /**< documented on its line */
/* a plain comment is not a doc comment */
#define PLAIN_MACRO 4
/** documented */

#define AFTER_BLANK 5
/** a multi-line macro */
#define MULTI_LINE { 1, \
		     2 }
#define MULTI_BARE { 1, \
		     2 }
#if defined(__GNUC__)
/** documented in one branch */
#define BRANCHES 1
#else
#define BRANCHES 0
#endif

/** documented */
typedef struct doc_opaque doc_opaque;
typedef struct bare_opaque bare_opaque;

/** documented; its members need none */
typedef struct doc_struct {
	int a;
	char text[4];
} doc_struct;

struct bare_struct {
	int a; /* "a string with } and ; in a comment" */
};

/** documented */
enum doc_enum { DOC_A, DOC_B };
enum bare_enum {
	BARE_A = '}',
	BARE_B
};

/** documented */
typedef void (*doc_fn)(void *ctx, int (*inner)(int));
typedef void (*bare_fn)(void *ctx);

/**
 * documented
 */
EV_API int doc_function(const char *s,
			int n);
EV_API int bare_function(void);
int bare_unexported(doc_struct *s, const char *t);

/** documented */
static inline int doc_inline(int x)
{
	return x ? "}" [0] : '{';
}

static inline int bare_inline(int x)
{
	if (x) {
		return 1;
	}
	return 0;
}

/** documented */
extern const int doc_variable;
extern const int bare_variable;
/** documented */
extern int doc_pair; extern int bare_pair_second;

#ifdef __cplusplus
}
#endif

#endif
'''

SELF_TEST_MISSING = [
    ('macro', 'BARE_MACRO'), ('macro', 'PLAIN_MACRO'),
    ('macro', 'AFTER_BLANK'), ('macro', 'MULTI_BARE'),
    ('typedef', 'bare_opaque'), ('type', 'bare_struct'),
    ('type', 'bare_enum'), ('typedef', 'bare_fn'),
    ('function', 'bare_function'), ('function', 'bare_unexported'),
    ('function', 'bare_inline'), ('variable', 'bare_variable'),
    ('variable', 'bare_pair_second'),
]
SELF_TEST_FUNCTIONS = ['doc_function', 'bare_function', 'bare_unexported']


def self_test():
    import tempfile
    with tempfile.NamedTemporaryFile('w', suffix='.h', delete=False) as f:
        f.write(SELF_TEST_HEADER)
    try:
        got = [(k, n) for _, k, n in undocumented(f.name)]
        functions = [n for _, k, n, d, _ in declarations(f.name)
                     if k == 'function' and not d.startswith('static')]
    finally:
        import os
        os.unlink(f.name)
    ok = True
    if sorted(got) != sorted(SELF_TEST_MISSING):
        print('self-test: reported', sorted(got))
        print('self-test: expected', sorted(SELF_TEST_MISSING))
        ok = False
    if functions != SELF_TEST_FUNCTIONS:
        print('self-test: functions', functions, 'expected',
              SELF_TEST_FUNCTIONS)
        ok = False
    print('self-test:', 'ok' if ok else 'FAILED')
    return 0 if ok else 1


def main(argv):
    if argv == ['--self-test']:
        return self_test()
    if argv and argv[0] == '--functions':
        for path in argv[1:]:
            for _, kind, name, decl, _ in declarations(path):
                if kind == 'function' and not decl.startswith('static'):
                    print(name)
        return 0
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    bad = 0
    checked = 0
    for path in argv:
        checked += sum(1 for _ in declarations(path))
        for line, kind, name in undocumented(path):
            print(f'{path}:{line}: {kind} {name}: no doc comment '
                  '(/** */ on the line before, or /**< */ on its line)')
            bad += 1
    print(f'{checked} declarations, {bad} without a doc comment')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
