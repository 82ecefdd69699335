"""YAML with source positions: every key and value knows its line, duplicate keys are errors.

PyYAML silently keeps the last of two equal keys; composing the node tree first lets us catch
that and remember where each value came from, so validation errors can point at a line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from .yamlwords import explain

if TYPE_CHECKING:
    from .errors import Diagnostics

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Loc = tuple  # a path into the document: ("params", "steps") or ("nodes", 2, "title")


@dataclass
class Marked:
    """A YAML document's data plus (line, col) of every key/value path, 1-based."""

    data: Any
    marks: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    line_offset: int = 0  # lines before the document (front matter inside a Markdown file)

    def where(self, loc: Loc) -> tuple[int, int]:
        """Position of the deepest part of `loc` present in the document."""
        best, prefix = self.marks.get((), (1, 1)), ()
        for part in loc:
            if prefix + (part,) not in self.marks:
                break
            prefix += (part,)
            best = self.marks[prefix]
        return best[0] + self.line_offset, best[1]


class YamlProblem(Exception):
    def __init__(self, line: int, col: int, message: str):
        super().__init__(message)
        self.line, self.col, self.message = line, col, message


def load(text: str, *, line_offset: int = 0) -> Marked:
    """Parse one YAML document; raise YamlProblem (with a position) on syntax errors or duplicates."""
    try:  # parsed once: the data is constructed from the node tree the marks come from
        loader = _Loader(text)
        try:
            root = loader.get_single_node()
            data = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        line, col, words = explain(e, text)
        raise YamlProblem(line + line_offset, col, f"YAML syntax: {words}") from None
    except yaml.YAMLError as e:  # pragma: no cover - libyaml always marks its errors
        raise YamlProblem(1 + line_offset, 1, f"YAML: {e}") from None
    marked = Marked(data, line_offset=line_offset)
    if root is not None:
        _walk(root, (), marked, line_offset)
    return marked


def _walk(node: yaml.Node, loc: Loc, out: Marked, offset: int) -> None:
    out.marks.setdefault(loc, (node.start_mark.line + 1, node.start_mark.column + 1))
    if isinstance(node, yaml.MappingNode):
        seen: set = set()
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                raise YamlProblem(
                    key.start_mark.line + 1 + offset, key.start_mark.column + 1, "keys must be plain words"
                )
            name = key.value
            if name in seen:
                raise YamlProblem(
                    key.start_mark.line + 1 + offset, key.start_mark.column + 1, f"duplicate key {name!r}"
                )
            seen.add(name)
            out.marks[loc + (name,)] = (key.start_mark.line + 1, key.start_mark.column + 1)
            _walk(value, loc + (name,), out, offset)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, loc + (i,), out, offset)


def load_file(path: Path, diags: Diagnostics, what: str) -> Marked | None:
    """A settings file read and parsed, or None with its problem reported at its own place
    (`what` names the file's contents in the message: "site settings", "symbols")."""
    try:
        return load(path.read_text(encoding="utf-8"))
    except YamlProblem as e:
        diags.add(path, e.line, e.col, e.message)
    except (OSError, UnicodeDecodeError) as e:
        diags.add(path, 1, 1, f"cannot read {what}: {e}")
    return None
