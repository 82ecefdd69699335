"""What one build computes that the next can reuse: `--serve` keeps a Memo for its whole life, so a
rebuild after an edit re-reads and re-renders only what the edit touched; a one-shot build starts
with an empty one (and so computes everything, by the very same code).

Each memoised step sits in a slot named for its input (a section's file, a figure's data, a
shipped script) and keeps only its latest result, with the key it was computed from: everything
the step reads (the file's text, the facts object, the renderer's version, ...). A key element
that is a value (str, bytes, numbers, tuples of them) must be equal; any other object must be the
very same one, so results keyed on an object (a parsed section, the facts) stay valid exactly as
long as that object does. A step that reported problems is not kept: the next build runs it again
and reports them again.

Files are read through `Files`, which hands back the same bytes/str object while a file's stat
(mtime, ctime, size, inode) is unchanged, so keys built from file contents compare by identity.
A file read within a second of its last change is read again next time ("racy" as git calls it):
two writes within the file system's timestamp granularity cannot hide the second one.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable

_VALUES = (str, bytes, int, float, bool, type(None), frozenset)
RACY_NS = 1_000_000_000


def same(a: Any, b: Any) -> bool:
    """Key equality: values by value, tuples element by element, other objects by identity."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(map(same, a, b))
    return isinstance(a, _VALUES) and a == b


class Files:
    """File reads cached by stat signature (see the module's docstring)."""

    def __init__(self) -> None:
        self._seen: dict[tuple[Path, str], tuple[tuple, bool, Any]] = {}

    def _get(self, path: Path, mode: str, read: Callable[[Path], Any]):
        st = os.stat(path)
        sig = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev)
        hit = self._seen.get((path, mode))
        if hit is not None and hit[0] == sig and hit[1]:
            return hit[2]
        settled = time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > RACY_NS
        value = read(path)
        if hit is not None and same(hit[2], value):
            value = hit[2]  # unchanged content keeps its object (and its cached hash)
        self._seen[(path, mode)] = (sig, settled, value)
        return value

    def bytes(self, path: Path) -> bytes:
        return self._get(Path(path), "b", Path.read_bytes)

    def text(self, path: Path) -> str:
        """As Path.read_text(encoding="utf-8") (newlines translated; UnicodeDecodeError if not UTF-8)."""
        return self._get(Path(path), "t", lambda p: p.read_text(encoding="utf-8"))


class Memo:
    def __init__(self) -> None:
        self.files = Files()
        self._slots: dict[Any, tuple[Any, Any]] = {}
        self.state: dict[str, Any] = {}  # long-lived helpers (the Markdown parser, Jinja environment, math cache)

    def get(self, slot: Any, key: Any, compute: Callable[[], Any], diags=None) -> Any:
        """The result of `compute()` for `key`, kept in `slot`; with `diags`, a result whose
        computation reported problems is returned but not kept."""
        hit = self._slots.get(slot)
        if hit is not None and same(hit[0], key):
            return hit[1]
        before = len(diags.items) if diags is not None else 0
        value = compute()
        if diags is None or len(diags.items) == before:
            self._slots[slot] = (key, value)
        else:
            self._slots.pop(slot, None)
        return value

    def keep(self, name: str, make: Callable[[], Any]) -> Any:
        if name not in self.state:
            self.state[name] = make()
        return self.state[name]


def parse_file(path: Path, diags, memo: Memo | None, slot: str, parse: Callable[[str], Any], *inputs: Any) -> Any:
    """`parse(text)` of a UTF-8 source file (None, reported, if it is not UTF-8). With a memo, a file
    whose text (and `inputs`) are unchanged is not parsed again."""
    try:
        text = memo.files.text(path) if memo else path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        diags.add(path, 1, 1, f"not valid UTF-8 ({e.reason} at byte {e.start})")
        return None
    if memo is None:
        return parse(text)
    return memo.get((slot, path), (text, *inputs), lambda: parse(text), diags)
