"""Shipped scripts without their comment lines.

The sources keep long comments (why, not what); readers' browsers do not need them. Only whole
comment lines go: a line that is just `// …`, or a block comment that starts a line and ends a
line. Anything else (a comment after code, a `/*` inside a string) is left exactly as written, so
the stripping cannot change what a script does.
"""

from __future__ import annotations


def strip_comment_lines(source: str) -> str:
    lines = source.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        text = lines[i].strip()
        if text.startswith("//"):
            i += 1
            continue
        if text.startswith("/*"):
            after_open = lines[i][lines[i].index("/*") + 2 :]
            if "*/" in after_open:
                end, tail = i, after_open.split("*/", 1)[1]
            else:
                end = next((j for j in range(i + 1, len(lines)) if "*/" in lines[j]), None)
                tail = lines[end].split("*/", 1)[1] if end is not None else "code"
            if tail.strip() == "":
                i = end + 1
                continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)
