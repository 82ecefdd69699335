"""The colours that tell series apart (blue, violet, orange, green) stay apart for readers with
colour-vision deficiency: simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira &
Fernandes 2009, full severity) leave every pair at least MIN_DELTA_E apart in CIELAB, in the light
and the dark scheme. Blue against violet is the pair the article leans on most (MLA against KDA,
the KV cache against the state, the intra-chunk path against the state path)."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from k3explainer.site.project import THEME

SERIES = ("blue", "violet", "orange", "green")
MIN_DELTA_E = 15.0  # ΔE*ab; below ~10 two small marks read as one colour

# Machado et al. 2009, severity 1.0, applied to linear RGB
DEFICIENCY = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}


def palettes() -> dict[str, dict[str, str]]:
    """{scheme: {name: #hex}} from base.css: the :root block, then the dark scheme's overrides."""
    css = (THEME / "static" / "css" / "base.css").read_text(encoding="utf-8")
    light = css[: css.index("prefers-color-scheme: dark")]
    dark = css[css.index("prefers-color-scheme: dark") :]
    read = lambda block: dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", block))
    first = read(light)
    return {"light": first, "dark": {**first, **read(dark[: dark.index("}")])}}


def linear(hex_: str) -> np.ndarray:
    c = np.array([int(hex_[i : i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(rgb: np.ndarray) -> np.ndarray:
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ rgb
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(hex_: str, deficiency: str) -> np.ndarray:
    return lab(np.clip(np.array(DEFICIENCY[deficiency]) @ linear(hex_), 0, 1))


def test_the_palette_is_read_from_the_stylesheet():
    p = palettes()
    assert all(set(SERIES) <= set(p[s]) for s in p) and p["light"]["blue"] != p["dark"]["blue"]


def test_the_simulation_matches_known_confusions():
    """Red and green collapse for deuteranopia, blue and yellow for tritanopia, not the reverse:
    the check below can fail."""
    de = lambda a, b, d: float(np.linalg.norm(seen(a, d) - seen(b, d)))
    assert de("#d62728", "#2ca02c", "deuteranopia") < 0.3 * de("#d62728", "#2ca02c", "tritanopia")
    assert de("#1f77b4", "#17becf", "tritanopia") < de("#1f77b4", "#17becf", "deuteranopia")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("deficiency", sorted(DEFICIENCY))
def test_series_colours_stay_apart(scheme, deficiency):
    colours = palettes()[scheme]
    close = {
        f"{a}/{b}": round(float(np.linalg.norm(seen(colours[a], deficiency) - seen(colours[b], deficiency))), 1)
        for a, b in itertools.combinations(SERIES, 2)
    }
    assert {pair: d for pair, d in close.items() if d < MIN_DELTA_E} == {}
