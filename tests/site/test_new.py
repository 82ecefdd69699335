"""`k3explainer new DIR` starts an explainer that builds, checks clean and passes its own tests as
it is, with nothing of the flagship in it: the engine brings the page frame, runtime and widgets."""
from __future__ import annotations

import subprocess
import sys

from k3explainer.cli import main
from k3explainer.site.pipeline import Project, build


def test_a_new_explainer_builds_and_passes_its_own_tests(tmp_path, capsys):
    project = tmp_path / "softmax"
    assert main(["new", str(project)]) == 0
    assert "k3explainer build" in capsys.readouterr().out
    assert {p.name for p in project.iterdir()} >= {"content", "figures", "static", "tests", "README.md", ".ci", "package.json"}
    assert not (project / "templates").exists() and not (project / "static" / "js" / "runtime").exists()

    assert main(["check", "--root", str(project)]) == 0
    assert "checked 1 sections and 1 live figures: no problems" in capsys.readouterr().out
    summary = build(Project(project), tmp_path / "site")
    assert summary.sections == 1 and list(summary.figures) == ["fig-01"]
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Softmax at a temperature" in page and "Kimi" not in page and "GPT-2" not in page

    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "tests"],
                         cwd=project, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "3 passed" in run.stdout


def test_new_never_writes_into_a_folder_that_holds_files(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["new", str(tmp_path)]) == 1
    assert "already holds files; give a new or empty folder" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
