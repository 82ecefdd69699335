"""Line breaking for plain text the page shows (fact sources, provenance notes).

A short bracketed expression reads as one unit: "(d_c + d_h^R)" broken after "+" leaves a reader
with half a formula at the end of a line. Its spaces become no-break spaces, so the browser wraps
around it; longer brackets (a whole clause) still wrap inside."""

from __future__ import annotations

import re

# an innermost (...) or [...] of at most 20 characters: the same rule FIG 10 applies to its labels
SHORT_BRACKETS = re.compile(r"[(\[][^()\[\]]{1,20}[)\]]")
NBSP = "\u00a0"


def keep_short_brackets(text: str) -> str:
    return SHORT_BRACKETS.sub(lambda m: m.group(0).replace(" ", NBSP), text)
