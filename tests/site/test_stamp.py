"""A build with nothing changed is skipped (the output is kept as it is); any change to what the
output depends on, or to the output itself, builds again."""
from __future__ import annotations

import pytest

from k3explainer.site import stamp
from k3explainer.site.pipeline import THEME

from .project import scratch_project

SKIPPED = "nothing changed since this build"


def _mtimes(out):
    return {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}


@pytest.fixture
def built(tmp_path, capsys):
    """A scratch project built once into out/."""
    s = scratch_project(tmp_path)
    out = tmp_path / "out"
    code, text = s.build(out, capsys)
    assert code == 0 and SKIPPED not in text
    return s, out


def test_a_second_build_with_nothing_changed_keeps_the_output_and_says_so(built, capsys):
    s, out = built
    before = _mtimes(out)
    code, text = s.build(out, capsys)
    assert code == 0 and SKIPPED in text
    sections = len(list(s.path("content").glob("[0-9][0-9]-*.md")))
    assert f"built {sections} sections" in text  # the last build's summary, repeated
    assert _mtimes(out) == before


@pytest.mark.parametrize("rel", ["content/figures/fig-06.yaml", "static/js/figures/fig-06-delta-rule.js",
                                 "figures/fig_06_delta_rule.py", "templates/index.html"])
def test_an_edited_input_builds_again(built, capsys, rel):
    s, out = built
    if not s.path(rel).is_file():  # a project file that overrides the theme's (templates/index.html)
        s.write(rel, (THEME / rel).read_text(encoding="utf-8"))
    s.write(rel, s.read(rel) + "\n")
    code, text = s.build(out, capsys)
    assert code == 0 and SKIPPED not in text
    assert s.build(out, capsys)[1].count(SKIPPED) == 1  # and then it is up to date again


@pytest.mark.parametrize("damage", ["edit", "delete", "add"])
def test_a_touched_output_builds_again(built, capsys, damage):
    s, out = built
    page = out / "index.html"
    if damage == "edit":
        page.write_text(page.read_text(encoding="utf-8").replace("<main", "<main data-x", 1), encoding="utf-8")
    elif damage == "delete":
        (out / "assets" / "site.css").unlink()
    else:
        (out / "stray.html").write_text("left behind", encoding="utf-8")
    code, text = s.build(out, capsys)
    assert code == 0 and SKIPPED not in text
    assert "data-x" not in page.read_text(encoding="utf-8") and (out / "assets" / "site.css").is_file()
    assert not (out / "stray.html").exists()


def test_another_output_folder_is_built(built, capsys, tmp_path):
    s, _ = built
    code, text = s.build(tmp_path / "elsewhere", capsys)
    assert code == 0 and SKIPPED not in text


def test_the_fingerprint_follows_the_engine_the_libraries_and_node_packages(built, tmp_path, monkeypatch):
    s, _ = built
    engine = tmp_path / "engine"
    (engine / "figures").mkdir(parents=True)
    (engine / "figures" / "fig.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(stamp, "ENGINE", engine)
    first = stamp.fingerprint(s.root)
    (engine / "figures" / "fig.py").write_text("X = 2\n", encoding="utf-8")
    edited = stamp.fingerprint(s.root)
    assert edited != first
    real = stamp.metadata.version
    monkeypatch.setattr(stamp.metadata, "version", lambda n: "0.0" if n == "numpy" else real(n))
    assert stamp.fingerprint(s.root) != edited
    monkeypatch.setattr(stamp.metadata, "version", real)
    package = s.root / "node_modules"
    package.unlink()  # the scratch project's link to the real node_modules
    (package / "temml").mkdir(parents=True)
    (package / "temml" / "package.json").write_text('{"version": "0.0.1"}', encoding="utf-8")
    assert stamp.fingerprint(s.root) != edited


def test_without_the_package_metadata_nothing_is_skipped(built, capsys, monkeypatch):
    s, out = built
    def missing(name):
        raise stamp.metadata.PackageNotFoundError(name)
    monkeypatch.setattr(stamp.metadata, "requires", missing)
    code, text = s.build(out, capsys)
    assert code == 0 and SKIPPED not in text
