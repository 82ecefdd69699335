"""Every kind of bad input stops the build with `path:line:col: message` at the mistake itself,
and with nothing else: each case in diagnostics/*.txt breaks one thing in a fresh copy of the
starter project (`k3explainer new`'s, one section and one figure) and lists the build's whole
report. The files use the mdit-py-plugins fixture format (title, input, expected):

    a misspelt spec field is named at its own line          ← title
    .
    figures/fig-01-temperature/figure.yaml                  ← the file to change, then its edit:
    -caption: >-                                              lines to take out (the first match)
    +captoin: >-                                              and lines to put in their place
    .                                                         (only + lines: appended to the file;
    figures/…/figure.yaml:3:1: captoin: Extra inputs …        `(empty)`, `(deleted)`, `(copy of
    .                                                         PATH)`: what they say)

An input may change several files, one after the other. `--update-golden` rewrites each case's
expected report from what the build says now (read the diff before committing it). That a failed
build leaves the previous output untouched is tested once, through the CLI, in test_build.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from k3explainer.new import STARTER
from k3explainer.site import projectcode
from k3explainer.site.errors import BuildError
from k3explainer.site.pipeline import compile_site
from k3explainer.site.project import Project

HERE = Path(__file__).parent / "diagnostics"
ROOT = Path(__file__).resolve().parents[2]
CASES = [
    (f, line, title, edits, expected)
    for f in sorted(HERE.glob("*.txt"))
    for line, title, edits, expected in read_fixture_file(f)
]


def apply_edits(root: Path, edits: str) -> None:
    """Apply a case's input: a path line, then `-` lines (taken out), `+` lines (put in)."""
    path, old, new = None, [], []

    def flush():
        if path is None:
            return
        file = root / path
        if old and old[0].startswith("(copy of "):
            source = root / old[0].removeprefix("(copy of ").removesuffix(")")
            if source.is_dir():
                shutil.copytree(source, file)
            else:
                file.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(source, file)
        elif old == ["(deleted)"]:
            file.unlink()
        elif old == ["(empty)"]:
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text("", encoding="utf-8")
        elif old:
            text = file.read_text(encoding="utf-8")
            before = "\n".join(old) + "\n"
            assert before in text, f"{path} has no line(s) {before!r}"
            file.write_text(text.replace(before, "".join(n + "\n" for n in new), 1), encoding="utf-8")
        else:
            file.parent.mkdir(parents=True, exist_ok=True)
            text = file.read_text(encoding="utf-8") if file.is_file() else ""
            file.write_text(text + "".join(n + "\n" for n in new), encoding="utf-8")

    for line in edits.splitlines():
        if line.startswith("-"):
            old.append(line[1:])
        elif line.startswith("+"):
            new.append(line[1:])
        elif line in ("(deleted)", "(empty)") or line.startswith("(copy of "):
            old.append(line)
        elif line.strip():
            flush()
            path, old, new = line.strip(), [], []
    flush()


@pytest.fixture
def starter(tmp_path_factory, tmp_path):
    """A fresh copy of the starter, sharing one math cache per worker (Temml runs once per formula)."""
    root = tmp_path / "project"
    shutil.copytree(STARTER, root, ignore=shutil.ignore_patterns("__pycache__"))
    shared = tmp_path_factory.getbasetemp() / "math-cache"
    shared.mkdir(exist_ok=True)
    (root / ".cache").symlink_to(shared)
    yield root
    projectcode.mount(ROOT)  # the flagship again, as the other tests expect


def report(root: Path) -> list[str]:
    try:
        compile_site(Project(root))
    except BuildError as e:
        return [str(d) for d in e.diagnostics]
    return []


@pytest.mark.parametrize(
    ("fixture", "line", "title", "edits", "expected"), CASES, ids=[f"{c[0].stem}:{c[1] + 1}:{c[2]}" for c in CASES]
)
def test_a_mistake_is_reported_at_its_own_place(fixture, line, title, edits, expected, starter, update_golden):
    apply_edits(starter, edits)
    got = report(starter)
    if update_golden:
        _rewrite_expected(fixture, title, got)
        return
    assert got == expected.splitlines(), f"{fixture.name}:{line + 1}: {title}"


def test_the_starter_itself_builds_clean(starter):
    assert report(starter) == []


def test_a_reference_nobody_cites_is_a_warning_the_check_prints(starter, capsys):
    from k3explainer.site.cli import main

    bib = starter / "content" / "references.bib"
    bib.write_text(
        bib.read_text(encoding="utf-8") + "@misc{unused,\n  author = {A, B},\n  title = {T},\n"
        "  year = {2020},\n  url = {https://example.org/},\n}\n",
        encoding="utf-8",
    )
    assert main(["--check"], root=starter) == 0
    err = capsys.readouterr().err
    assert "content/references.bib:12:1: warning: reference 'unused' is never cited" in err.splitlines()


@pytest.mark.parametrize("rel", ["figures/fig-99-new/figure.yaml", "content/42-extra.md"])
def test_a_file_that_is_not_utf8_is_named_at_its_first_line(rel, starter):
    (starter / rel).parent.mkdir(parents=True, exist_ok=True)
    (starter / rel).write_bytes(b"---\nid: caf\xe9\n")
    assert f"{rel}:1:1: not valid UTF-8 (invalid continuation byte at byte 11)" in report(starter)


def _rewrite_expected(fixture: Path, title: str, got: list[str]) -> None:
    """Replace the expected block of the case titled `title` (found by its title: an earlier
    rewrite may have moved it)."""
    lines = fixture.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i in range(1, len(lines)) if lines[i].rstrip() == "." and lines[i - 1].strip() == title)
    dots = [i for i in range(start, len(lines)) if lines[i].rstrip() == "."][:3]
    lines[dots[1] + 1 : dots[2]] = [g + "\n" for g in got]
    fixture.write_text("".join(lines), encoding="utf-8")
