"""`k3explainer new DIR` starts an explainer that builds, checks clean and passes its own tests as
it is, with nothing of the flagship in it: the engine brings the page frame, runtime and widgets."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from k3explainer.cli import main
from k3explainer.new import STARTER
from k3explainer.site.pipeline import Project, build

# every test the starter ships, so "all of them passed" is checked, not a count typed here
STARTER_TESTS = sum(
    p.read_text(encoding="utf-8").count("\ndef test_") for p in (STARTER / "figures").glob("*/test_*.py")
)


def test_a_new_explainer_checks_and_builds_with_nothing_of_the_flagship(tmp_path, capsys):
    project = tmp_path / "softmax"
    assert main(["new", str(project)]) == 0
    assert "k3explainer build" in capsys.readouterr().out
    assert {p.name for p in project.iterdir()} >= {
        "content",
        "figures",
        "README.md",
        ".ci",
        "package.json",
    }
    assert not (project / "templates").exists() and not (project / "static" / "js" / "runtime").exists()

    assert main(["check", "--root", str(project)]) == 0
    assert "checked 1 sections and 1 live figures: no problems" in capsys.readouterr().out
    summary = build(Project(project), tmp_path / "site")
    assert summary.sections == 1 and list(summary.figures) == ["fig-01"]
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Softmax at a temperature" in page and "Kimi" not in page and "GPT-2" not in page


@pytest.mark.browser  # the starter's own tests drive its figure in Chromium
def test_a_new_author_s_commands_from_an_empty_folder(tmp_path):
    """The path the README gives, as commands in a shell: `k3explainer new demo`, `cd demo`,
    `k3explainer build`, then the starter's own test command, which passes every test it ships."""
    command = (
        [shutil.which("k3explainer")] if shutil.which("k3explainer") else [sys.executable, "-m", "k3explainer.cli"]
    )

    def run(args, cwd):
        done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        return done.stdout

    assert "started an explainer in demo" in run(command + ["new", "demo"], tmp_path)
    assert "built 1 sections, 1 live figures" in run(command + ["build"], tmp_path / "demo")
    assert (tmp_path / "demo" / "_site" / "index.html").is_file()
    assert "checked 1 sections and 1 live figures: no problems" in run(command + ["check"], tmp_path / "demo")
    assert f"{STARTER_TESTS} passed" in run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "figures"], tmp_path / "demo"
    )


def test_a_new_explainer_is_signed_by_its_author_and_dated_today(tmp_path, capsys):
    from datetime import date

    assert main(["new", str(tmp_path / "p"), "--author", 'Ada "Countess" Lovelace']) == 0
    site = (tmp_path / "p" / "content" / "site.yaml").read_text(encoding="utf-8")
    assert '  - name: "Ada \\"Countess\\" Lovelace"\n' in site and f"published: {date.today().isoformat()}\n" in site
    build(Project(tmp_path / "p"), tmp_path / "site")
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "By Ada &#34;Countess&#34; Lovelace</span>" in page
    assert '<meta name="citation_author" content="Ada &#34;Countess&#34; Lovelace">' in page


def test_new_never_writes_into_a_folder_that_holds_files(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["new", str(tmp_path)]) == 1
    assert "already holds files; give a new or empty folder" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_project_file_replaces_the_themes_a_missing_required_one_is_named_an_optional_one_is_not(tmp_path, capsys):
    project = tmp_path / "p"
    assert main(["new", str(project)]) == 0
    (project / "static" / "css").mkdir(parents=True, exist_ok=True)
    (project / "static" / "css" / "base.css").write_text(":root { --own-paper: #fff; }\n", encoding="utf-8")
    (project / "templates").mkdir()
    (project / "templates" / "base.html").write_text(
        (Project(project).file("templates/base.html"))
        .read_text(encoding="utf-8")
        .replace("<body", "<body data-own-frame", 1),
        encoding="utf-8",
    )
    build(Project(project), tmp_path / "site")
    css = (tmp_path / "site" / "assets" / "site.css").read_text(encoding="utf-8")
    assert css.count("--own-paper:#fff") == 1 and "--heat-hi" not in css  # the project's base.css, not the theme's
    assert ".fig-takeaway{" in css  # the theme's other sheets stay
    assert "data-own-frame" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    (project / "content" / "site.yaml").unlink()
    capsys.readouterr()
    assert main(["check", "--root", str(project)]) == 1
    assert "content/site.yaml:1:1: missing: every project has its settings here" in capsys.readouterr().err
    (project / "content" / "symbols.yaml").unlink()  # optional: only the equation's \\sym names are now unknown
    capsys.readouterr()
    assert main(["check", "--root", str(project)]) == 1
    err = capsys.readouterr().err
    assert not any(line.startswith("content/symbols.yaml") for line in err.splitlines())
    assert "content/01-temperature.md:15:44: unknown symbol 'sm-tau'" in err  # at the \\sym, below the $$
