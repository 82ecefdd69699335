"""How tall a section is before the browser lays it out.

A section far from view skips layout (`content-visibility: auto`, base.css) and counts as its
`contain-intrinsic-size` until it nears the viewport. A wrong guess costs the reader: the page
grows or shrinks as the sections between are laid out, so a long jump (End, the scrollbar, a
link) lands on a page that then changes under it. So the guess is measured: `k3explainer reserve
--write` lays the page out at each viewport width of SECTION_WIDTHS and records each section's
height in its front matter (`height:`), and the page interpolates linearly between those widths
(see SECTION_WIDTHS for where).
A section without measured heights, or with heights measured at other widths (by an older
engine), counts as base.css's flat 2,400 px until the next `reserve --write`.
"""

from __future__ import annotations

# Viewport widths (px) where section heights are measured, narrowest first: where the figure
# column (the text's width below 680 px, the viewport less its margins above) enters a band of
# specs.RESERVE_WIDTHS, so every figure keeps one reserved height between two of them and only the
# text reflows there (smoothly enough to interpolate); 640 and 680, from which the text and then the
# figures stop filling the viewport; 1030, just short of the widest band, because FIG 15b's reserved
# height drops by a third there and a line from 940 to 1040 undercut §15 by 8 % at 1024; and 1160,
# from which the page no longer widens.
from itertools import pairwise

SECTION_WIDTHS = (320, 360, 390, 440, 540, 640, 680, 740, 840, 940, 1030, 1040, 1140, 1160)


def section_style(height: dict[int, int] | None) -> str:
    """The section's `style` attribute: its measured heights as unitless custom properties."""
    if not height or sorted(height) != sorted(SECTION_WIDTHS):
        return ""
    return "; ".join(f"--s-{w}: {height[w]}" for w in SECTION_WIDTHS)


def estimate_css() -> str:
    """One rule per stretch between two measured widths, interpolating the section's heights
    there; below the narrowest and above the widest, their heights."""

    def size(expr: str) -> str:
        return f".section[style] {{ contain-intrinsic-size: auto calc({expr}); }}"

    lo, hi = SECTION_WIDTHS[0], SECTION_WIDTHS[-1]
    rules = [
        size(f"var(--s-{hi}) * 1px"),
        f"@media (max-width: {lo - 0.02:.2f}px) {{ {size(f'var(--s-{lo}) * 1px')} }}",
    ]
    for a, b in pairwise(SECTION_WIDTHS):
        slope = f"(var(--s-{b}) - var(--s-{a})) * (100vw - {a}px) / {b - a}"
        rules.append(
            f"@media (min-width: {a}px) and (max-width: {b - 0.02:.2f}px) {{ {size(f'var(--s-{a}) * 1px + {slope}')} }}"
        )
    return "\n".join(rules) + "\n"
