"""The `k3explainer` command acts on the project at --root (or the current folder), never on the
package's own checkout."""

from __future__ import annotations

import os

from k3explainer.cli import main

from .project import scratch_project


def test_check_validates_without_writing(tmp_path, capsys):
    s = scratch_project(tmp_path)
    assert main(["check", "--root", str(s.root)]) == 0
    assert "no problems" in capsys.readouterr().out
    assert not (s.root / "_site").exists()


def test_build_writes_into_the_project_it_is_pointed_at(tmp_path, capsys, monkeypatch):
    s = scratch_project(tmp_path)
    monkeypatch.chdir(s.root)  # no --root: the folder you stand in
    assert main(["build"]) == 0
    assert (s.root / "_site" / "index.html").is_file()


def test_check_reports_a_problem_at_its_place(tmp_path, capsys):
    s = scratch_project(tmp_path)
    s.write("content/02-attention.md", s.read("content/02-attention.md") + "\n::: calout Aside\nText.\n:::\n")
    assert main(["check", f"--root={s.root}"]) == 1
    err = capsys.readouterr().err
    assert "content/02-attention.md:" in err and "did you mean 'callout'?" in err


def test_outside_a_project_and_unknown_commands_say_what_to_do(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["build"]) == 1
    assert "not a project (no content/ folder); give its folder with --root" in capsys.readouterr().err
    assert main(["serv"]) == 2
    assert "unknown command 'serv'; did you mean 'serve'?" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []
