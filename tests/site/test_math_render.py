"""TeX → MathML (math_render.cjs): what Temml gives, with the repairs the script makes for the
browser, and the math font's ranges against what the article's formulas draw."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from k3explainer.site.markdown import MathItem
from k3explainer.site.math import run_temml

ROOT = Path(__file__).resolve().parents[2]
FONTS_CSS = ROOT / "src" / "k3explainer" / "theme" / "math-fonts" / "fonts.css"


def rendered(tex: str, display: bool = False) -> dict:
    [[result]] = run_temml(shutil.which("node"), ROOT / "node_modules", [[MathItem(tex, display)]])
    return result


def render(tex: str, display: bool = False) -> str:
    result = rendered(tex, display)
    assert "html" in result, result
    return result["html"]


def rows(html: str) -> list[str]:
    """The top-level rows of a formula, each as its text (what the reader sees, in order)."""
    body = html[html.index(">") + 1 : html.rindex("</math>")]
    out, depth, start = [], 0, 0
    for m in re.finditer(r"<(/?)mrow\b[^>]*>", body):
        if m.group(1):
            depth -= 1
            if depth == 0:
                out.append(re.sub(r"<[^>]+>", "", body[start : m.end()]))
        else:
            if depth == 0:
                start = m.start()
            depth += 1
    return out


def test_one_node_process_renders_batch_after_batch():
    """Results come back batch by batch, in order; a bad formula is an error entry, not a failure."""
    first, second = run_temml(
        shutil.which("node"),
        ROOT / "node_modules",
        [[MathItem("a", False), MathItem(r"\frac{a", False)], [MathItem("b", True)]],
    )
    assert "<mi>a</mi>" in first[0]["html"] and "error" in first[1]
    assert 'class="math-display"' in second[0]["html"]


def test_a_display_formula_wraps_between_terms_and_never_inside_brackets():
    html = render(r"S_t = \bigl(I - \beta_t k_t k_t^\top\bigr) S_{t-1} + \beta_t k_t v_t^\top", display=True)
    assert html.startswith('<math displaystyle="true" class="math-display">')
    assert rows(html) == ["St=", "(I−βtktkt⊤)St−1+", "βtktvt⊤"]
    ends = re.findall(r'<mo form="infix">([=+])</mo></mrow>', html)
    assert ends == ["=", "+"]  # the operator ending a row is spaced as the infix operator it is


def test_the_space_after_a_comma_stays_on_its_line():
    html = render(r"a = b,\qquad c = d", display=True)
    assert rows(html) == ["a=", "b,", "c=", "d"]
    assert re.search(r'<mo separator="true" form="infix">,</mo><mspace width="2em"></mspace></mrow>', html)


def test_a_formula_that_is_one_group_is_one_row():
    assert rows(render(r"\sym{dr-beta}{\beta_t}")) == ["βt"]
    assert 'data-sym="dr-beta"' in render(r"\sym{dr-beta}{\beta_t}")


def test_operators_in_scripts_are_unspaced_as_in_texs_script_style():
    html = render(r"S_{t-1} + \sum_{j \le t} a_j")
    assert '<mo lspace="0" rspace="0">−</mo>' in html and '<mo lspace="0" rspace="0">≤</mo>' in html
    assert "<mo>+</mo>" in html or '<mo form="infix">+</mo>' in html  # the text-size + keeps its space


def test_small_sized_fences_are_scaled_and_large_ones_stretch():
    big = render(r"\bigl( x \bigr)")
    assert big.count('stretchy="false"') == 2 and big.count("font-size:1.2em") == 2 and "minsize" not in big
    assert big.count('lspace="0" rspace="0"') == 2  # no space inside, as TeX's opening and closing atoms
    bigg = render(r"\biggl( x \biggr)")
    assert bigg.count("minsize") == 2 and "font-size" not in bigg


def test_a_subscript_under_a_descender_is_placed_as_under_any_letter():
    assert '<msub><mpadded depth="0"><mi>β</mi></mpadded><mi>t</mi></msub>' in render(r"\beta_t")
    assert "<msub><mi>x</mi><mi>t</mi></msub>" in render(r"x_t")


def test_a_comma_between_digits_is_punctuation_unless_braced():
    assert '<mn>0</mn><mo lspace="0em" rspace="0.1667em">,</mo><mn>1</mn>' in render(r"\beta \in (0,1)")
    assert "<mn>8,192</mn>" in render(r"N = 8{,}192")
    assert "<mtext>1,000\u00a0tokens</mtext>" in render(r"(0,1) \times \text{1,000 tokens}")  # text is text


@pytest.mark.parametrize(
    "tex, why",
    [
        (r"\frac{a", "unbalanced"),
        (r"\data{class=x}{y}", "only data-sym is trusted"),
        (r"\href{https://example.com}{x}", "links are not trusted"),
        (r"\notacommand", "unknown command"),
    ],
)
def test_bad_math_is_an_error_not_a_drawing(tex, why):
    result = rendered(tex)
    assert "error" in result and "html" not in result, why


def _ranges(css: str) -> list[list[tuple[int, int]]]:
    faces = []
    for rule in re.findall(r"unicode-range:([^;]+);", css):
        spans = []
        for part in rule.split(","):
            lo, _, hi = part.strip()[2:].partition("-")
            spans.append((int(lo, 16), int(hi or lo, 16)))
        faces.append(spans)
    return faces


# MathML Core's italic mapping for a one-letter <mi> (text-transform: math-auto), beyond the
# Latin and Greek alphabets, which map in order
ITALIC_SPECIAL = {
    "h": 0x210E,
    "\u0131": 0x1D6A4,
    "\u0237": 0x1D6A5,
    "\u2207": 0x1D6FB,
    "\u2202": 0x1D715,
    "\u03f5": 0x1D716,
    "\u03d1": 0x1D717,
    "\u03f0": 0x1D718,
    "\u03d5": 0x1D719,
    "\u03f1": 0x1D71A,
    "\u03d6": 0x1D71B,
    "\u03f4": 0x1D6F3,
}


def _italic(ch: str) -> str:
    """The character the browser draws for a one-letter <mi>."""
    if ch in ITALIC_SPECIAL:
        return chr(ITALIC_SPECIAL[ch])
    for first, last, to in (
        ("a", "z", 0x1D44E),
        ("A", "Z", 0x1D434),
        ("\u03b1", "\u03c9", 0x1D6FC),
        ("\u0391", "\u03a9", 0x1D6E2),
    ):
        if first <= ch <= last:
            return chr(to + ord(ch) - ord(first))
    return ch


def test_the_articles_formulas_need_only_the_core_math_font(site_dir):
    """The math font comes in two faces by Unicode range (theme/math-fonts/make_fonts.py); every
    character the article's formulas draw lies in the first, so a reader fetches 69 KB, not 190."""
    core, more = _ranges(FONTS_CSS.read_text(encoding="utf-8"))
    pages = [site_dir / "index.html", *sorted((site_dir / "data").glob("*.js"))]
    html = "".join(p.read_text(encoding="utf-8") for p in pages)
    drawn = set()
    for math in re.findall(r"<math.*?</math>", html.replace('\\"', '"'), re.S):
        for tag, text in re.findall(r"<(m[io]|mn|mtext)\b[^>]*>([^<]*)<", math):
            text = re.sub(r"&[a-z]+;|\\u[0-9a-f]{4}", "", text)
            drawn |= {_italic(text)} if tag == "mi" and len(text) == 1 else set(text)
    drawn -= {" ", "\u2061", "\u2062"}  # invisible operators draw nothing
    outside = sorted(c for c in drawn if not any(lo <= ord(c) <= hi for lo, hi in core))
    assert outside == [], [f"U+{ord(c):04X} {c}" for c in outside]
    assert len(drawn) > 60  # the scan found the formulas
    assert all(any(lo <= ord(c) <= hi for lo, hi in core + more) for c in drawn)
