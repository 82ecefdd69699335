"""`--serve` rebuilds reuse what the last builds computed (site/memo.py): after any sequence of
edits, a rebuild writes exactly the bytes a fresh build of the same input writes, a broken input
is still reported at its path:line:col with the last good output left in place, and the
memoised pieces notice every kind of change (prose, spec, caption, fact, builder, component,
sheet, template, a rewrite that keeps a file's size and modification time)."""
from __future__ import annotations

import os
import re
import shutil
import sys
import time

import pytest

from k3explainer.site import output
from k3explainer.site.memo import Files, Memo, same
from k3explainer.site.pipeline import THEME, Project, build
from k3explainer.site.serve import LiveState, rebuild

from .project import ROOT, scratch_project, tree_digest


@pytest.fixture
def served(tmp_path):
    """A scratch project with caches of its own (seeded from the checkout's, so math and figure
    data need not be computed again) and a serve-style rebuild function keeping one Memo."""
    s = scratch_project(tmp_path)
    (s.root / ".cache").unlink()
    for name in ("math.json", "figures"):
        source = ROOT / ".cache" / name
        if source.is_dir():
            shutil.copytree(source, s.root / ".cache" / name)
        elif source.is_file():
            (s.root / ".cache").mkdir(exist_ok=True)
            shutil.copy(source, s.root / ".cache" / name)
    project, out, live, memo = Project(s.root), tmp_path / "out", LiveState(), Memo()
    fresh_runs = iter(range(1000))

    def step(*changed: str) -> None:
        rebuild(project, out, live, {s.path(c) for c in changed} if changed else None, memo)

    def matches_a_fresh_build() -> bool:
        fresh = tmp_path / f"fresh-{next(fresh_runs)}"
        build(project, fresh)  # a new Memo: everything parsed, rendered and written anew
        return tree_digest(out) == tree_digest(fresh)

    step()
    assert live.errors == []
    return s, out, live, step, matches_a_fresh_build


def test_after_every_kind_of_edit_a_rebuild_equals_a_fresh_build(served):
    s, out, live, step, matches_a_fresh_build = served

    edits = [
        # prose, with a new formula (rendered by node on the same rebuild) and a fact
        ("content/06-deltanet.md", lambda t: t + "\nOne more sentence, $\\beta_t^2 + 1$, and {{kimi_k3.total_params}}.\n"),
        # a figure's param: its builder runs again
        ("content/figures/fig-02.yaml", lambda t: t.replace("  seed: 2\n", "  seed: 3\n", 1)),
        # a caption
        ("content/figures/fig-12.yaml", lambda t: t.replace("caption: >-\n", "caption: >-\n  Edited caption.\n", 1)),
        # a fact every page that shows it re-renders (and every figure's data key changes)
        ("content/facts.yaml", lambda t: t.replace("display: 124,439,808", "display: 124,439,808 (edited)", 1)),
        # a heading: its id, and the links checked against it
        ("content/06-deltanet.md", lambda t: t + "\n## A new heading\n\nUnder it.\n"),
        # a component and a figure's sheet
        ("static/js/figures/fig-02-attention-matrix.js", lambda t: t + "\n// a comment line\nvar k3EditedByTest = 1;\n"),
        ("static/css/figures/fig-02-attention-matrix.css", lambda t: t + "\n.k3-edited-by-test { color: red; }\n"),
    ]
    for rel, edit in edits:
        s.write(rel, edit(s.read(rel)))
        step(rel)
        assert live.errors == [], (rel, live.errors)
        assert matches_a_fresh_build(), f"after editing {rel}"
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "One more sentence" in html and "Edited caption." in html and "(edited)" in html

    # a project template overriding the theme's: the kept Jinja environment sees the new file
    frame = (THEME / "templates" / "partials" / "figure.html").read_text(encoding="utf-8")
    s.write("templates/partials/figure.html", "<!-- project frame -->\n" + frame)
    step("templates/partials/figure.html")
    assert live.errors == [] and "<!-- project frame -->" in (out / "index.html").read_text(encoding="utf-8")
    assert matches_a_fresh_build()
    s.write("templates/partials/figure.html", "<!-- project frame, edited -->\n" + frame)
    step("templates/partials/figure.html")
    assert "<!-- project frame, edited -->" in (out / "index.html").read_text(encoding="utf-8")
    assert matches_a_fresh_build()

    # a builder's source: the builders are imported again and the figure data key changes
    builder = "figures/fig_02_attention_matrix.py"
    s.write(builder, s.read(builder) + "\n# edited by a test\n")
    before = sys.modules["k3project.figures.fig_02_attention_matrix"]
    step(builder)
    assert live.errors == [] and sys.modules["k3project.figures.fig_02_attention_matrix"] is not before
    assert matches_a_fresh_build()


def test_a_broken_edit_is_reported_with_its_place_and_keeps_the_last_good_site(served):
    s, out, live, step, matches_a_fresh_build = served
    good = tree_digest(out)
    line = s.replace("content/06-deltanet.md", "number: 6", "number: six")
    step("content/06-deltanet.md")
    assert any(re.match(rf"content/06-deltanet\.md:{line}:\d+: number", e) for e in live.errors), live.errors
    assert tree_digest(out) == good, "the last good build is kept"
    # a bad fact reference in a figure's caption: a kept caption must not hide it either
    s.replace("content/06-deltanet.md", "number: six", "number: 6")
    # (a folded caption is reported at its key's line, as a fresh build reports it)
    line = s.replace("content/figures/fig-12.yaml", "caption: >-\n", "caption: >-\n  See {{no_such.fact}}.\n")
    step("content/figures/fig-12.yaml")
    assert any(re.match(rf"content/figures/fig-12\.yaml:{line}:\d+: unknown fact 'no_such.fact'", e)
               for e in live.errors), live.errors
    assert tree_digest(out) == good
    s.replace("content/figures/fig-12.yaml", "  See {{no_such.fact}}.\n", "")
    step("content/figures/fig-12.yaml", "content/06-deltanet.md")
    assert live.errors == [] and tree_digest(out) == good
    assert matches_a_fresh_build()


def test_an_output_file_changed_by_hand_is_written_again(served):
    """Unchanged files are hard-linked from the last output, unless someone changed them there."""
    s, out, live, step, matches_a_fresh_build = served
    inode = (out / "vendor" / "plotly.min.js").stat().st_ino
    s.write("content/06-deltanet.md", s.read("content/06-deltanet.md") + "\nMore.\n")
    step("content/06-deltanet.md")
    assert (out / "vendor" / "plotly.min.js").stat().st_ino == inode, "an unchanged file is linked, not rewritten"
    (out / "assets" / "site.css").write_text("changed by hand")
    s.write("content/06-deltanet.md", s.read("content/06-deltanet.md") + "\nAnd more.\n")
    step("content/06-deltanet.md")
    assert matches_a_fresh_build()
    for _ in range(100):  # the replaced folder is removed in the background
        if not output._removing:
            break
        time.sleep(0.05)
    assert not list(out.parent.glob(f".{out.name}.*")), "no scratch folders are left beside the output"


def test_a_same_size_rewrite_with_the_old_modification_time_is_seen(tmp_path):
    files = Files()
    f = tmp_path / "a.md"
    f.write_text("one")
    first = files.text(f)
    assert files.text(f) is first
    st = f.stat()
    f.write_text("two")
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))  # same size, same mtime (ctime still moves)
    assert files.text(f) == "two"


def test_memo_keys_compare_values_by_value_and_objects_by_identity():
    a, b = object(), object()
    assert same(("x", 1, (b"y", None)), ("x", 1, (b"y", None)))
    assert same((a,), (a,)) and not same((a,), (b,))
    assert not same(({"k": 1},), ({"k": 1},)), "two dicts equal in value are not the same input"
    memo, calls = Memo(), []
    assert memo.get("slot", ("k",), lambda: calls.append(1) or "v") == "v"
    assert memo.get("slot", ("k",), lambda: calls.append(1) or "w") == "v" and len(calls) == 1
    assert memo.get("slot", ("other",), lambda: calls.append(1) or "w") == "w" and len(calls) == 2
