"""A spec constant's `{param}` placeholders: filled from the figure's params, or a clear error."""

from __future__ import annotations

import pytest

from k3explainer.site.placeholders import PlaceholderError, fill

PARAMS = {
    "n": 8192,
    "beta": 0.85,
    "one": 1.0,
    "peak": 4.0e6,
    "within": 0.1,
    "x_min": -12,
    "seed": 5,
    "widths": [64, 128, 256],
    "factors": [1.0, 1.25, 1.5, 2.0],
    "tokens": ["I", "saw", "a", "cat"],
    "demo": {"seed": 8, "gates": [0.95, 0.3]},
    "label": "Delta rule",
    "on": True,
    "none": [],
}


@pytest.mark.parametrize(
    "text,filled",
    [
        ("N = {n}, β = {beta}, α = {one}", "N = 8192, β = 0.85, α = 1"),
        ("P = {peak:,.0f} per µs; band within {within:.0%}", "P = 4,000,000 per µs; band within 10%"),
        ("range {x_min} … 12", "range \u221212 … 12"),
        ("seed {demo.seed}, gates {demo.gates}", "seed 8, gates 0.95 and 0.3"),
        ("d = {widths:or}; factors {factors}", "d = 64, 128 or 256; factors 1, 1.25, 1.5 and 2"),
        ("from {widths.0} to {widths.-1}", "from 64 to 256"),
        ("{tokens:count} tokens, {widths:.1f}", "4 tokens, 64.0, 128.0 and 256.0"),
        ("{label}: {seed}", "Delta rule: 5"),
        ("no placeholder: {0,1}, { x }, {}, $\\{q\\}$", "no placeholder: {0,1}, { x }, {}, $\\{q\\}$"),
    ],
)
def test_placeholders_are_filled_from_params(text, filled):
    assert fill(text, PARAMS) == filled


@pytest.mark.parametrize(
    "text,message",
    [
        ("seed {sed}", "{sed}: params has no 'sed'; did you mean 'seed'?"),
        ("{demo.sede}", "{demo.sede}: params.demo has no 'sede'; did you mean 'seed'?"),
        ("{demo}", "{demo}: params.demo is a mapping; name one of its entries ({demo.seed}, {demo.gates})"),
        ("{widths.3}", "{widths.3}: params.widths is a list of 3; '3' is not an index into it"),
        ("{n.0}", "{n.0}: params.n is a single value, it has no '0'"),
        ("{on}", "{on}: True is not a number or text"),
        ("{none}", "{none}: the list is empty: nothing to write"),
        ("{n:count}", "{n:count}: ':count' is for a list, and this is 8192"),
        ("{beta:d}", "{beta:d}: Unknown format code 'd'"),
    ],
)
def test_a_bad_placeholder_says_what_is_wrong(text, message):
    with pytest.raises(PlaceholderError) as caught:
        fill(text, PARAMS)
    assert str(caught.value).startswith(message)
    assert caught.value.placeholder in text
