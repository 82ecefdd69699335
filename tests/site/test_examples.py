"""Every explainer in examples/ checks clean, builds, and passes its own tests: the engine is tested
on an article that is not the flagship (nothing here counts the flagship's sections or figures)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from k3explainer.cli import main
from k3explainer.site.pipeline import Project, build

from .project import ROOT

EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if (p / "content").is_dir())


def test_there_is_an_example():
    assert [p.name for p in EXAMPLES] == ["bloom-filter"]


@pytest.mark.browser  # the example's own tests drive its figures in Chromium
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_an_example_checks_builds_and_passes_its_tests(example, tmp_path, capsys):
    assert main(["check", "--root", str(example)]) == 0
    assert "no problems" in capsys.readouterr().out
    summary = build(Project(example), tmp_path / "site")
    assert summary.sections >= 1 and summary.figures and not summary.pending
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Kimi" not in page and "GPT-2" not in page
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "figures"],
        cwd=example,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
