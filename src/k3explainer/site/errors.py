"""Build diagnostics: every problem is reported as `path:line:col: message`, all at once."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.message}"


class BuildError(Exception):
    """Raised once per build with every diagnostic collected so far."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(set(diagnostics))
        super().__init__("\n".join(map(str, self.diagnostics)))


class Diagnostics:
    """Collects problems while a build goes on, so one run reports all of them."""

    def __init__(self, root: Path):
        self.root = root
        self.items: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []  # printed, never fatal (an entry nobody cites)

    def rel(self, path: Path | str) -> str:
        p = Path(path)
        try:
            return p.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return p.as_posix()

    def add(self, path: Path | str, line: int, col: int, message: str) -> None:
        self.items.append(Diagnostic(self.rel(path), max(line, 1), max(col, 1), message))

    def warn(self, path: Path | str, line: int, col: int, message: str) -> None:
        self.warnings.append(Diagnostic(self.rel(path), max(line, 1), max(col, 1), "warning: " + message))

    def raise_if_any(self) -> None:
        if self.items:
            raise BuildError(self.items)


def read_source(path: Path, diags: Diagnostics) -> str | None:
    """A UTF-8 source file's text, or None (reported at the file) when it is not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        diags.add(path, 1, 1, f"not valid UTF-8 ({e.reason} at byte {e.start})")
        return None
