"""Everything a reader can reach says only checked things.

"Reachable" is every text node of the built page, every attribute a browser shows or speaks
(title, aria-label, alt, aria-valuetext, placeholder), the tooltips and text alternatives (they
are text nodes too), the provenance panels, every string a figure's data file ships, and the
string literals of the figure components (labels they draw). The checks:

- no fact's `topic` (an authoring label) is rendered anywhere;
- none of the statements the facts file started from (tests/site/fixtures/unchecked_claims.txt)
  is rendered;
- no `often_misstated_as` value is stated: it may not appear in a sentence about its subject.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from k3explainer.site.errors import Diagnostics
from k3explainer.site.facts import project_facts
from k3explainer.site.project import THEME

from .project import ROOT

SPOKEN_ATTRIBUTES = {"title", "aria-label", "alt", "aria-valuetext", "placeholder"}
FIXTURE = Path(__file__).parent / "fixtures" / "unchecked_claims.txt"

# A misstatement counts as stated when it shares a sentence with its subject; more spellings of
# the same wrong value than the facts file's one.
MISSTATEMENTS = {
    "flashattention.year": (r"flash\s*attention", [r"\b2020\b"]),
    "kimi_k3.layer_layout": (r"k3|kimi|layers?", [r"23\s*[x×]\s*4\s*=\s*92", r"\b92 layers\b", r"= 92\b"]),
    "kimi_k3.situ": (r"situ|β|beta", [r"learnable\s+(β|beta)", r"learned\s+(β|beta)", r"(β|beta)\s+is\s+learn"]),
}


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        self.chunks += [v for k, v in attrs if k in SPOKEN_ATTRIBUTES and v]
        if tag in ("p", "li", "td", "th", "dd", "dt", "div", "br", "h1", "h2", "h3", "summary", "figcaption"):
            self.chunks.append("\n")  # a block boundary ends a sentence

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.chunks.append(data)


def _html_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "".join(parser.chunks)


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [_html_text(value) if "<" in value else value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.fixture(scope="module")
def reachable(site_dir) -> dict[str, str]:
    """{where: text} for everything a reader can reach."""
    texts = {"index.html": _html_text((site_dir / "index.html").read_text(encoding="utf-8"))}
    for data in sorted((site_dir / "data").glob("*.js")):
        raw = data.read_text(encoding="utf-8")
        texts[f"data/{data.name}"] = "\n".join(
            _strings(json.loads(raw[raw.index(", ") + 2 : raw.rstrip().rindex(")")]))
        )
    scripts = [(THEME, js) for js in sorted((THEME / "static" / "js").rglob("*.js"))]  # runtime, widgets
    scripts += [(ROOT, js) for js in sorted((ROOT / "figures").glob("*/*.js"))]  # the components
    for base, js in scripts:
        source = js.read_text(encoding="utf-8")
        texts[("theme/" if base is THEME else "") + js.relative_to(base).as_posix()] = "\n".join(
            m.group(2) for m in re.finditer(r"([\"'`])((?:\\.|(?!\1).)*)\1", source)
        )
    return texts


@pytest.fixture(scope="module")
def facts():
    return project_facts(ROOT, Diagnostics(ROOT)).by_key


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;])\s+|\n+", text) if s.strip()]


def test_the_scan_reaches_tooltips_alternatives_provenance_and_figure_data(reachable, facts):
    page = reachable["index.html"]
    assert facts["kimi_k3.layer_layout"].source.split(";")[0] in page  # a tooltip's source
    assert "Text description" in page and "Where do these numbers come from?" in page
    assert any(name.startswith("data/fig-") for name in reachable)
    assert len(reachable) > 40


def test_no_topic_is_rendered(reachable, facts):
    found = [(f.key, where) for f in facts.values() for where, text in reachable.items() if f.topic in text]
    assert found == []


def test_no_unchecked_statement_is_rendered(reachable):
    claims = [line for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    assert len(claims) > 20
    found = [(claim, where) for claim in claims for where, text in reachable.items() if claim.lower() in text.lower()]
    assert found == []


def test_no_misstated_value_is_stated(reachable, facts):
    misstated = {k: f.often_misstated_as for k, f in facts.items() if f.often_misstated_as}
    assert set(misstated) == set(MISSTATEMENTS), "a new often_misstated_as needs its subject and spellings here"
    found = []
    for key, (subject, spellings) in MISSTATEMENTS.items():
        patterns = [re.escape(misstated[key]), *spellings]
        for where, text in reachable.items():
            for sentence in _sentences(text):
                if re.search(subject, sentence, re.I) and any(re.search(p, sentence, re.I) for p in patterns):
                    found.append((key, where, sentence.strip()[:160]))
    assert found == []


def test_the_misstatement_check_would_catch_each_one(facts):
    """The patterns above are not vacuous: each fact's own misstated value, put in a sentence with
    its subject, is caught."""
    for key, (subject, spellings) in MISSTATEMENTS.items():
        planted = f"{re.sub(r'[^A-Za-z0-9 ]', '', subject.split('|')[0])} {facts[key].often_misstated_as}."
        sentence = "FlashAttention " + planted if key == "flashattention.year" else planted
        patterns = [re.escape(facts[key].often_misstated_as), *spellings]
        assert re.search(subject, sentence, re.I) and any(re.search(p, sentence, re.I) for p in patterns), key


def test_provenance_panels_are_filled_from_the_data_not_printed_twice(site_dir):
    """The page keeps one empty list per figure; the runtime fills it from the data file (checked
    in the browser by test_page), so the numbers' account is shipped once."""
    html = (site_dir / "index.html").read_text(encoding="utf-8")
    panels = re.findall(r'<details class="fig-prov">(.*?)</details>', html, re.S)
    assert len(panels) >= 20
    assert all(
        re.search(r'<dl class="fig-prov-computed" data-builder="figures/fig-[\w-]+/builder\.py"></dl>', p)
        for p in panels
    )
