"""PyYAML's syntax errors in plain words, pointing at the character that caused them.

The parser reports what it expected at the place it gave up ("did not find expected key",
"found unexpected end of stream"), which is often lines after the mistake: an unclosed quote is
reported at the end of the file. Here each common problem is said as an author would fix it and
placed where the fix goes (the opening quote or bracket, the key that lacks its ':').
Tests: tests/site/fixtures/yaml_syntax.txt.
"""
from __future__ import annotations

import yaml


def _at(text: str, mark) -> str:
    """The character at a mark ('' past the end)."""
    lines = text.splitlines()
    if mark is None or mark.line >= len(lines):
        return ""
    line = lines[mark.line]
    return line[mark.column] if mark.column < len(line) else ""


def _indent(text: str, mark) -> int:
    lines = text.splitlines()
    line = lines[mark.line] if mark is not None and mark.line < len(lines) else ""
    return len(line) - len(line.lstrip(" "))


def explain(e: yaml.MarkedYAMLError, text: str) -> tuple[int, int, str]:
    """(line, col, words), 1-based: where the mistake is and what it is, for one syntax error."""
    mark, words = _explain(e, text)
    if mark is None:
        return 1, 1, words
    col = mark.column
    if "unknown escape" in (e.problem or "") and _at(text, mark) != "\\":
        col -= 1  # libyaml marks the backslash, PyYAML the letter after it: point at the backslash
    return mark.line + 1, col + 1, words


def _explain(e: yaml.MarkedYAMLError, text: str):  # -> (the mark to point at, the words)
    problem, context = e.problem or "", e.context or ""
    pm, cm = e.problem_mark, e.context_mark or e.problem_mark
    char = _at(text, pm)
    if char == "\t" or "tab" in problem:
        return pm, "a tab character: YAML indents with spaces only"
    if "quoted scalar" in context and "end of stream" in problem:
        return cm, "this quote is never closed"
    if "unknown escape" in problem:
        return pm, "an unknown backslash escape inside double quotes: use single quotes, or write \\\\ for one backslash"
    if "flow sequence" in context:
        return cm, "this '[' is never closed, or an item in it lacks its comma"
    if "flow mapping" in context:
        return cm, "this '{' is never closed, or an entry in it lacks its comma"
    if "expected ':'" in problem:
        return cm, "this line is neither 'key: value' nor a list item: a key needs a ':' after it"
    if "mapping values are not allowed" in problem:
        return pm, ("a ': ' where the value cannot hold one: quote the value if the colon is part of it; "
                    "a nested key goes under a key whose line ends with ':'")
    if "expected key" in problem or "expected <block end>" in problem:  # libyaml's words, then PyYAML's
        if char == "-":
            return pm, "a list item where a 'key: value' line was expected: indent the list under its key"
        if pm.column > _indent(text, pm):
            return pm, "text after the value: a closing quote or bracket ends the value, only a # comment may follow"
        return pm, "this line's indentation matches no level above it: keys of one mapping line up exactly"
    if "undefined alias" in problem:
        return pm, "this *alias names no &anchor defined above it"
    if "duplicate anchor" in context:
        return pm, "this &anchor name is already used above"
    if "another document" in problem:
        return pm, "'---' starts a second document: a file holds one"
    if "scanning an alias" in context:
        return pm, "'*' starts an alias: quote the value if it is text"
    if "directive" in context:
        return pm, "'%' at the start of a line starts a directive: quote the value"
    if "cannot start any token" in problem:
        return pm, f"{char!r} cannot start a plain value: put the value in quotes"
    return pm or cm, problem or context
