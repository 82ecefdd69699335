"""A scratch copy of the project that a test may break, and a way to build it like `build.py` does."""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path

from k3explainer.site.cli import main

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Scratch:
    root: Path

    def path(self, rel: str) -> Path:
        return self.root / rel

    def read(self, rel: str) -> str:
        return self.path(rel).read_text(encoding="utf-8")

    def write(self, rel: str, text: str | bytes) -> None:
        p = self.path(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text if isinstance(text, bytes) else text.encode())

    def line_of(self, rel: str, needle: str) -> int:
        """1-based line of the first line containing `needle`."""
        for i, line in enumerate(self.read(rel).splitlines(), 1):
            if needle in line:
                return i
        raise AssertionError(f"{needle!r} not in {rel}")

    def replace(self, rel: str, old: str, new: str) -> int:
        """Replace the first `old` and return the line it was on."""
        line = self.line_of(rel, old.splitlines()[0])
        text = self.read(rel)
        assert old in text, f"{old!r} not in {rel}"
        self.write(rel, text.replace(old, new, 1))
        return line

    def build(self, out: Path, capsys) -> tuple[int, str]:
        code = main(["--out", str(out)], root=self.root)
        captured = capsys.readouterr()
        return code, captured.err + captured.out


def scratch_project(tmp: Path) -> Scratch:
    root = tmp / "project"
    for folder in ("content", "figures", "experiments"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for file in ("build.py", "derived.py"):
        shutil.copy(ROOT / file, root / file)
    (root / "src").symlink_to(ROOT / "src")
    (root / "tests").symlink_to(ROOT / "tests")  # the tests content/corrections.yaml names
    (root / "node_modules").symlink_to(ROOT / "node_modules")
    (ROOT / ".cache").mkdir(exist_ok=True)
    (root / ".cache").symlink_to(ROOT / ".cache")  # share rendered math between scratch builds
    return Scratch(root)


def tree_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(folder).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()
