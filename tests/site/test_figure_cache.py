"""Figure data is cached between builds (keyed on params, facts and the builder and kernel sources):
a warm build gives the same bytes as a cold one, and an edited input is recomputed."""

from __future__ import annotations

import json

from k3explainer.site.pipeline import Project, build

from .project import scratch_project, tree_digest


def own_cache(tmp_path):
    s = scratch_project(tmp_path)
    (s.root / ".cache").unlink()  # the scratch project shares the checkout's cache: give it its own
    return s


def test_a_warm_build_is_byte_identical_to_a_cold_one(tmp_path):
    s = own_cache(tmp_path)
    build(Project(s.root), tmp_path / "cold")
    cached = sorted(p.name for p in (s.root / ".cache" / "figures").iterdir())
    assert cached == sorted(f"{p.stem}.json" for p in (tmp_path / "cold" / "data").glob("fig-*.js"))
    build(Project(s.root), tmp_path / "warm")
    assert tree_digest(tmp_path / "warm") == tree_digest(tmp_path / "cold")


def test_an_edited_param_or_fact_is_recomputed(tmp_path):
    s = own_cache(tmp_path)
    build(Project(s.root), tmp_path / "before")
    s.replace("figures/fig-12-attention-residuals/figure.yaml", "  query_scale: 0.5", "  query_scale: 0.75")
    build(Project(s.root), tmp_path / "after")

    def data(out, fid):
        text = (out / "data" / f"{fid}.js").read_text(encoding="utf-8")
        return json.loads(text[text.index("{") : text.rindex(")")])

    assert data(tmp_path / "after", "fig-12")["query_scale"] == 0.75
    assert data(tmp_path / "after", "fig-15") == data(tmp_path / "before", "fig-15")
    # the facts feed every builder: an edited fact invalidates every cached figure
    key_before = json.loads((s.root / ".cache" / "figures" / "fig-15.json").read_text())["key"]
    s.write("content/facts.yaml", s.read("content/facts.yaml") + "\n")
    build(Project(s.root), tmp_path / "again")
    assert json.loads((s.root / ".cache" / "figures" / "fig-15.json").read_text())["key"] != key_before
