#!/usr/bin/env python3
"""Strips `#[cfg(test)]` items (mod blocks, fns, `mod x;`) from every .rs file below a folder, in place (for scripts/source_duplicates.sh)."""
import os, re, sys

def strip(text):
    out, i, n = [], 0, len(text)
    pat = re.compile(r'^[ \t]*#\[cfg\(test\)\][ \t]*\n', re.M)
    while True:
        m = pat.search(text, i)
        if not m:
            out.append(text[i:]); break
        out.append(text[i:m.start()])
        j = m.end()
        # skip to the item's end: first ';' at depth 0 or matching '}' of the first '{'
        depth, k = 0, j
        in_str = False
        while k < n:
            c = text[k]
            if in_str:
                if c == '\\': k += 1
                elif c == '"': in_str = False
            elif c == '"': in_str = True
            elif c == '/' and text.startswith('//', k):
                k = text.find('\n', k); k = n if k < 0 else k
            elif c == '{': depth += 1
            elif c == '}':
                depth -= 1
                if depth == 0: k += 1; break
            elif c == ';' and depth == 0: k += 1; break
            k += 1
        i = k
    return ''.join(out)

root = sys.argv[1]
for d, dirs, files in os.walk(root):
    for f in files:
        if f.endswith('.rs'):
            p = os.path.join(d, f)
            with open(p) as fh: t = fh.read()
            s = strip(t)
            if s != t:
                with open(p, 'w') as fh: fh.write(s)
