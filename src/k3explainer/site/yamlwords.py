"""PyYAML's syntax errors in plain words, pointing at the character that caused them.

The parser reports what it expected at the place it gave up ("did not find expected key",
"found unexpected end of stream"), which is often lines after the mistake: an unclosed quote is
reported at the end of the file. Here each common problem is said as an author would fix it and
placed where the fix goes (the opening quote or bracket, the key that lacks its ':').
Tests: tests/site/fixtures/yaml_syntax.txt.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import yaml

# (when it applies, which mark points at the mistake, what to say), first match wins; the mark is
# the parser's "problem" or "context" mark, or the "opening" bracket of the line's value. `f` holds
# the parser's problem and context phrases (libyaml's or PyYAML's), the character at the problem
# mark, whether that mark lies after the start of its line's text, whether the parser wanted a key
# (or the end of a block) there, and the column of a bracket that opened the line's value.
_RULES = (
    (lambda f: f.char == "\t" or "tab" in f.problem, "problem", "a tab character: YAML indents with spaces only"),
    (lambda f: "quoted scalar" in f.context and "end of stream" in f.problem, "context", "this quote is never closed"),
    (
        lambda f: "unknown escape" in f.problem,
        "problem",
        "an unknown backslash escape inside double quotes: use single quotes, or write \\\\ for one backslash",
    ),
    (
        lambda f: "block scalar" in f.context,
        "problem",
        "text on the line of a '|' or '>': the block's text starts on the next line, indented",
    ),
    (lambda f: "flow sequence" in f.context, "context", "this '[' is never closed, or an item in it lacks its comma"),
    (lambda f: "flow mapping" in f.context, "context", "this '{' is never closed, or an entry in it lacks its comma"),
    (
        lambda f: "expected ':'" in f.problem,
        "context",
        "this line is neither 'key: value' nor a list item: a key needs a ':' after it",
    ),
    (
        lambda f: "mapping values are not allowed" in f.problem,
        "problem",
        "a ': ' where the value cannot hold one: quote the value if the colon is part of it; "
        "a nested key goes under a key whose line ends with ':'",
    ),
    (
        lambda f: f.block_end and f.opens is not None,
        "opening",
        "a value that starts with '{' or '[' is read as a mapping or list, which ends at its closing "
        "bracket: put the whole value in quotes (a {placeholder} at the start of a name needs them)",
    ),
    (
        lambda f: f.block_end and f.char == "-",
        "problem",
        "a list item where a 'key: value' line was expected: indent the list under its key",
    ),
    (
        lambda f: f.block_end and f.mid_line,
        "problem",
        "text after the value: a closing quote or bracket ends the value, only a # comment may follow",
    ),
    (
        lambda f: f.block_end,
        "problem",
        "this line's indentation matches no level above it: keys of one mapping line up exactly",
    ),
    (lambda f: "undefined alias" in f.problem, "problem", "this *alias names no &anchor defined above it"),
    (lambda f: "duplicate anchor" in f.context, "problem", "this &anchor name is already used above"),
    (lambda f: "another document" in f.problem, "problem", "'---' starts a second document: a file holds one"),
    (lambda f: "scanning an alias" in f.context, "problem", "'*' starts an alias: quote the value if it is text"),
    (lambda f: "directive" in f.context, "problem", "'%' at the start of a line starts a directive: quote the value"),
    (
        lambda f: "cannot start any token" in f.problem,
        "problem",
        lambda char: f"{char!r} cannot start a plain value: put the value in quotes",
    ),
)


def explain(e: yaml.MarkedYAMLError, text: str) -> tuple[int, int, str]:
    """(line, col, words), 1-based: where the mistake is and what it is, for one syntax error."""
    lines = text.splitlines()
    pm = e.problem_mark or e.context_mark
    here = lines[pm.line] if pm is not None and pm.line < len(lines) else ""
    char = here[pm.column] if pm is not None and pm.column < len(here) else ""
    f = SimpleNamespace(
        problem=e.problem or "",
        context=e.context or "",
        char=char,
        mid_line=pm is not None and pm.column > len(here) - len(here.lstrip(" ")),
        block_end="expected key" in (e.problem or "") or "expected <block end>" in (e.problem or ""),
        opens=_bracket_opening(here, pm.column) if pm is not None else None,
    )
    mark, words = pm, f.problem or f.context
    for applies, which, said in _RULES:
        if applies(f):
            mark = (e.context_mark or pm) if which == "context" else pm
            if which == "opening":  # the bracket that opened the value, where the quote goes
                return pm.line + 1, f.opens + 1, said
            words = said(char) if callable(said) else said
            break
    if mark is None:
        return 1, 1, words
    col = mark.column
    if "unknown escape" in f.problem and char != "\\":
        col -= 1  # libyaml marks the backslash, PyYAML the letter after it: point at the backslash
    return mark.line + 1, col + 1, words


def _bracket_opening(line: str, col: int) -> int | None:
    """Column of a '{' or '[' that opens a `key: value` line's value, when the parser stopped
    after it on that line: the bracket closed and text followed ("name: {d}-dim vectors")."""
    m = re.match(r"\s*(?:- +)?[^\s:#][^:#]*:\s+([{\[])", line)
    return m.start(1) if m and m.start(1) < col else None
