"""How the math fonts beside this file were made (a maintainer's tool, not part of a build).

Formulas are MathML, drawn by the browser with an OpenType MATH font; Latin Modern Math (GUST
e-foundry, GUST Font License: LICENSE.txt) matches the Computer Modern look readers know from
papers. The whole font is 391 KB as woff2, so it is cut in two by Unicode range, and the
browser fetches only the parts a page's formulas use (the @font-face rules carry the ranges):

- core: what nearly every formula needs: Latin and Greek, their italic forms (MathML's <mi>x</mi>
  is drawn as U+1D465 𝑥, and italic h as U+210E ℎ), digits, punctuation, the mathematical
  operators block, arrows, brackets, floors and the braces over and under a formula;
- more: bold and double-struck letters, the rest of the arrows, accents and letter-like symbols.

Each part keeps the MATH table with the size variants and assembly pieces of its own glyphs,
which is what lets the browser stretch a bracket or enlarge a sum. The core part holds U+0020, so
it is the face the browser takes its MATH constants (fraction rules, script sizes) from.
fonts.css, written beside the fonts, holds their @font-face rules with the ranges.

    apt-get install fonts-lmodern && pip install fonttools brotli
    python src/k3explainer/theme/math-fonts/make_fonts.py
"""

from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = Path("/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf")
HERE = Path(__file__).resolve().parent

PARTS = {
    "core": "U+0020-007E,U+00A0-00BF,U+00D7,U+00F7,U+0131,U+0237,U+0391-03C9,U+03D1,U+03D5,U+03F0-03F1,U+03F5,"
    "U+2016,U+2020-2026,U+2032-2037,U+2061-2064,U+2102-2124,U+2190-2199,U+21A6,U+21D0-21D5,U+2200-22FF,"
    "U+2308-230B,U+23B4-23B5,U+23DC-23E1,U+27E8-27E9,U+27F5-27FA,U+1D434-1D467,U+1D6A4-1D6A5,U+1D6E2-1D71B",
    "more": "U+00C0-00D6,U+00D8-00F6,U+00F8-00FF,U+02C6-02DC,U+0300-036F,U+2000-201F,U+2027-2031,U+2038-2060,"
    "U+2065-206F,U+20D0-20F0,U+2100-2101,U+2125-214F,U+219A-21A5,U+21A7-21CF,U+21D6-21FF,U+2300-2307,"
    "U+230C-23B3,U+23B6-23DB,U+23E2-23FF,U+25A0-25FF,U+27C0-27E7,U+27EA-27F4,U+27FB-27FF,U+2900-2AFF,U+1D400-1D433,U+1D468-1D4FF,"
    "U+1D504-1D5FF,U+1D6A8-1D6E1,U+1D71C-1D7FF",
}


def make(name: str, ranges: str) -> int:
    font = TTFont(SOURCE)
    options = subset.Options()
    # The MATH table (size variants, assembly pieces) is always kept. Of the glyph substitutions
    # only dtls (dotless i and j under accents) stays: ssty, the script-size letters, doubles the
    # core part (133 → 69 KB) for a difference in subscripts no reader sees at text sizes
    # (compared side by side at 60 px in Chromium), and aalt only lists those alternates again.
    options.layout_features = ["dtls"]
    options.notdef_outline = True
    options.name_IDs = ["*"]  # the licence and copyright strings stay in the font
    options.drop_tables += ["FFTM"]
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=subset.parse_unicodes(ranges))
    cutter.subset(font)
    font.flavor = "woff2"
    out = HERE / f"latinmodern-math-{name}.woff2"
    font.save(out)
    return out.stat().st_size


def face(name: str, ranges: str) -> str:
    # swap: until the font arrives a formula shows in a fallback face rather than not at all
    return (
        f'@font-face {{ font-family: "Latin Modern Math Web"; src: url("latinmodern-math-{name}.woff2") format("woff2");'
        f" font-display: swap; unicode-range: {', '.join(ranges.split(','))}; }}\n"
    )


if __name__ == "__main__":
    for name, ranges in PARTS.items():
        print(f"{name}: {make(name, ranges):,} bytes")
    (HERE / "fonts.css").write_text("".join(face(n, r) for n, r in PARTS.items()), encoding="utf-8")
