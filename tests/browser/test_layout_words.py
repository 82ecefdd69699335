"""Words that say where a panel sits hold at both widths: beside (first on the left) on a desktop,
stacked on a phone, or below at every width, as the prose, captions and text alternatives say."""

from __future__ import annotations

import pytest

from tests.site import article

from .support import open_figure

BOX_JS = """([a, b]) => [a, b].map(s => { const r = document.querySelector(s).getBoundingClientRect();
  return {l: r.left, r: r.right, t: r.top, b: r.bottom}; })"""

# (figure, first, second, how they sit on a 1280 px desktop and a 390 px phone, words that say so, where)
CASES = [
    (
        "fig-03",
        ".f03-left",
        ".f03-right",
        "beside",
        "stacked",
        "On the left (on top, on a phone), the $N \\times N$ score matrix",
        "03-attention-cost.md",
    ),
    (
        "fig-11",
        ".f11-load-left",
        ".f11-balance-box",
        "beside",
        "stacked",
        "beside its load bars (under them, on a phone)",
        "11-moe.md",
    ),
]


@pytest.mark.parametrize("fig,first,second,desktop,phone,words,section", CASES, ids=[c[0] for c in CASES])
def test_where_a_panel_sits_is_where_the_words_say(
    watched, site_url, fig, first, second, desktop, phone, words, section
):
    assert words in article.flat(article.prose(section))
    page, _ = watched
    for width, how in ((1280, desktop), (390, phone)):
        page.set_viewport_size({"width": width, "height": 900})
        open_figure(page, site_url, fig)
        a, b = page.evaluate(BOX_JS, [f"#{fig} {first}", f"#{fig} {second}"])
        if how == "beside":
            assert a["r"] <= b["l"] + 1 and a["t"] < b["b"] and b["t"] < a["b"], (width, a, b)
        else:
            assert a["b"] <= b["t"] + 1, (width, a, b)
