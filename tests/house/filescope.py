#!/usr/bin/env python3
"""The file-scope mutable variables of C sources: one line each,
FILE: NAME.  qsort's context pointers (a name with "sort" in it) are
left out: qsort takes no context argument."""
import re
import sys


def strip(src):
    # comments, strings and characters, left to right
    src = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                 r"'(?:\\.|[^'\\\n])*'",
                 lambda m: ' ' if m.group(0)[0] == '/' else '0', src,
                 flags=re.S)
    return re.sub(r'^\s*#[^\n]*(\\\n[^\n]*)*', ' ', src, flags=re.M)


def statements(src):
    """The top-level statements that end with ';' (function bodies are
    skipped)."""
    depth, start, opened = 0, 0, 0
    for i, c in enumerate(src):
        if c in '{([':
            if depth == 0 and c == '{':
                opened = i
            depth += 1
        elif c in '})]':
            depth -= 1
            if depth == 0 and c == '}' and \
                    src[start:opened].rstrip().endswith(')'):
                start = i + 1           # a function's body
        elif c == ';' and depth == 0:
            yield src[start:i]
            start = i + 1


def split_top(text):
    parts, depth, cur = [], 0, ''
    for c in text:
        if c in '{([':
            depth += 1
        elif c in '})]':
            depth -= 1
        if c == ',' and depth == 0:
            parts.append(cur)
            cur = ''
        else:
            cur += c
    return parts + [cur]


def declarators(stmt):
    s = ' '.join(stmt.split())
    if not s or re.match(r'(typedef|extern)\b', s):
        return []
    head = s.split('=')[0]
    if re.fullmatch(r'(struct|union|enum)\s+\w+', s):
        return []                       # a forward declaration
    if re.match(r'(static\s+)?(struct|union|enum)\s*\w*\s*\{', s) and \
            s.endswith('}'):
        return []                       # a type, no variable
    s = re.sub(r'\{.*\}', '{}', s)      # initializers
    if '(' in head and not re.search(r'\(\s*\*', head):
        return []                       # a function's prototype
    first, *rest = split_top(s)
    m = re.match(r'(.*?)(\w+)\s*(\[[^]]*\]\s*)*(=.*)?$', first.strip())
    if not m:
        return []
    before = m.group(1)
    spec = before.split('*')[0]
    found = []
    for d, lead in [(m.group(2), before)] + [
            (x.split('=')[0].strip(), spec + x.split('=')[0])
            for x in rest]:
        dm = re.search(r'(\w+)\s*(\[[^]]*\]\s*)*$', d)
        if not dm:
            continue
        lead = lead if d == m.group(2) else lead[:lead.rfind(dm.group(1))]
        if '*' in lead:
            const = re.search(r'\*\s*const\s*$', lead) is not None
        else:
            const = re.search(r'\bconst\b', lead) is not None
        if not const:
            found.append(dm.group(1))
    return found


def main():
    total = 0
    for path in sys.argv[1:]:
        with open(path) as f:
            src = strip(f.read())
        for stmt in statements(src):
            for name in declarators(stmt):
                if 'sort' in name:
                    continue
                print(f'{path}: {name}')
                total += 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
