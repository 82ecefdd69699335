"""Golden snapshots: what each figure ships, and what each Markdown directive renders to.

A change to a builder, a kernel or a directive shows up here as a reviewed diff of a readable
file, not only as a changed number on the page. After an intended change, rewrite them with

    python -m pytest tests/site/test_golden.py --update-golden

and commit the new files with the change.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from k3explainer.site.errors import Diagnostics
from k3explainer.site.facts import project_facts
from k3explainer.site.markdown import make_parser, render

from .project import ROOT

GOLDEN = ROOT / "tests" / "golden"
DIRECTIVES = Path(__file__).parent / "fixtures" / "directives.md"


def _figure_ids():
    return sorted(p.stem for p in (ROOT / "content" / "figures").glob("fig-*.yaml"))


@pytest.mark.parametrize("fid", _figure_ids())
def test_figure_data_matches_its_golden_snapshot(site_dir, fid, update_golden):
    raw = (site_dir / "data" / f"{fid}.js").read_text(encoding="utf-8")
    data = json.loads(raw[raw.index(", ") + 2: raw.rstrip().rindex(")")])
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    golden = GOLDEN / "data" / f"{fid}.json"
    if update_golden:
        golden.write_text(text, encoding="utf-8")
        return
    assert golden.is_file(), f"no snapshot for {fid}: run with --update-golden"
    assert text == golden.read_text(encoding="utf-8"), f"{fid} ships different data: review, then --update-golden"


@pytest.fixture(scope="module")
def render_snippet():
    md = make_parser()
    facts = project_facts(ROOT, Diagnostics(ROOT))
    import yaml

    symbols = yaml.safe_load((ROOT / "content" / "symbols.yaml").read_text(encoding="utf-8"))

    def go(source: str) -> str:
        env = {"facts": facts, "math": {}, "symbols": symbols, "doc_id": "t"}
        return render(md, md.parse(source, env), env)

    return go


def test_directives_render_as_their_fixtures(render_snippet, update_golden):
    cases = read_fixture_file(DIRECTIVES)
    assert len(cases) >= 6
    got = [(title, source, render_snippet(source)) for _, title, source, _ in cases]
    if update_golden:
        DIRECTIVES.write_text("".join(f"{t}\n.\n{s}.\n{h}.\n\n" for t, s, h in got).rstrip("\n") + "\n", encoding="utf-8")
        return
    for (_, title, _, expected), (_, _, html) in zip(cases, got):
        assert html == expected, title
