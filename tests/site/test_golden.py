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
from k3explainer.site.references import load_references
from k3explainer.site.specs import figure_folders, figure_id

from .project import ROOT

DIRECTIVES = Path(__file__).parent / "fixtures" / "directives.md"


def _figure_folders():
    """figure id → its folder, where its snapshot (golden.json) lives beside its spec."""
    return {figure_id(p): p for p in figure_folders(ROOT / "figures")}


# Figure data is float64 from numpy and BLAS, whose last digits differ between CPUs (the same
# build on an AMD EPYC and on the machine that wrote the snapshots differed in the 16th digit of
# 11 figures). A snapshot keeps SIGNIFICANT digits, so rewriting it elsewhere gives no diff, and
# shipped data matches it within RTOL; a change a reader could see is far larger. Values that are
# themselves rounding errors (a kernel's max |difference| from its reference, ~1e-16) have no
# stable digits at all: on an Intel Xeon FIG 04's read-outs came out 0.0 where the snapshot had
# 1.1e-16, so differences under ATOL are forgiven too.
SIGNIFICANT = 10
RTOL = 1e-8
ATOL = 1e-12


def _rounded(value):
    if isinstance(value, float):
        return float(f"{value:.{SIGNIFICANT}g}")
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


def _differences(got, want, path="$"):
    """Where `got` differs from `want`: structure, strings and ints exactly, floats within ATOL + RTOL."""
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return [] if abs(got - want) <= ATOL + RTOL * max(abs(got), abs(want)) else [f"{path}: {got!r} != {want!r}"]
    if isinstance(want, dict) and isinstance(got, dict):
        if got.keys() != want.keys():
            return [f"{path}: keys {sorted(got.keys() ^ want.keys())} differ"]
        return [d for k in want for d in _differences(got[k], want[k], f"{path}.{k}")]
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return [f"{path}: {len(got)} items != {len(want)}"]
        return [d for i, (g, w) in enumerate(zip(got, want, strict=True)) for d in _differences(g, w, f"{path}[{i}]")]
    return [] if type(got) is type(want) and got == want else [f"{path}: {got!r} != {want!r}"]


@pytest.mark.parametrize("fid", sorted(_figure_folders()))
def test_figure_data_matches_its_golden_snapshot(site_dir, fid, update_golden):
    raw = (site_dir / "data" / f"{fid}.js").read_text(encoding="utf-8")
    data = json.loads(raw[raw.index(", ") + 2 : raw.rstrip().rindex(")")])
    golden = _figure_folders()[fid] / "golden.json"
    if update_golden:
        golden.write_text(
            json.dumps(_rounded(data), indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        return
    assert golden.is_file(), f"no snapshot for {fid}: run with --update-golden"
    differences = _differences(data, json.loads(golden.read_text(encoding="utf-8")))
    assert not differences, f"{fid} ships different data (review, then --update-golden): {differences[:8]}"


def test_snapshot_comparison_sees_a_change_and_forgives_the_last_digits():
    data = {"a": [0.1 + 0.2, 3, "x"], "b": {"c": 2.5e-7}}
    snapshot = json.loads(json.dumps(_rounded(data)))
    assert snapshot["a"][0] == 0.3 and _differences(data, snapshot) == []
    assert _differences({"a": [0.3, 3, "x"], "b": {"c": 2.5e-7}, "err": 0.0}, {**snapshot, "err": 1.1e-16}) == []
    assert _differences({"a": [0.3, 3, "x"], "b": {"c": 2.5001e-7}}, snapshot) == ["$.b.c: 2.5001e-07 != 2.5e-07"]
    assert _differences({"a": [0.3000001, 3, "x"], "b": {"c": 2.5e-7}}, snapshot) == ["$.a[0]: 0.3000001 != 0.3"]
    assert _differences({"a": [0.3, 4, "x"], "b": {"c": 2.5e-7}}, snapshot) == ["$.a[1]: 4 != 3"]
    assert _differences({"a": [0.3, 3, "x"], "b": {}}, snapshot) == ["$.b: keys ['c'] differ"]


@pytest.fixture(scope="module")
def render_snippet():
    md = make_parser()
    facts = project_facts(ROOT, Diagnostics(ROOT))
    import yaml

    symbols = yaml.safe_load((ROOT / "content" / "symbols.yaml").read_text(encoding="utf-8"))

    references = load_references(ROOT / "content" / "references.bib", Diagnostics(ROOT))
    numbers = {key: n for n, key in enumerate(references.by_key, 1)}  # (the page numbers by first citation)
    labels = {"deltanet": "§06", "fig-06": "FIG 06"}

    def go(source: str) -> str:
        env = {"facts": facts, "math": {}, "symbols": symbols, "doc_id": "t", "bibliography": references}
        env |= {"citation_numbers": numbers, "xref_labels": labels}
        return render(md, md.parse(source, env), env)

    return go


def test_directives_render_as_their_fixtures(render_snippet, update_golden):
    cases = read_fixture_file(DIRECTIVES)
    assert len(cases) >= 6
    got = [(title, source, render_snippet(source)) for _, title, source, _ in cases]
    if update_golden:
        DIRECTIVES.write_text(
            "".join(f"{t}\n.\n{s}.\n{h}.\n\n" for t, s, h in got).rstrip("\n") + "\n", encoding="utf-8"
        )
        return
    for (_, title, _, expected), (_, _, html) in zip(cases, got, strict=True):
        assert html == expected, title
