"""Reader text: every sentence a figure shows is written in Python, by its builder, and shipped
with its data; the component only places it (`ctx.text(path, slots)` and `ctx.show(el, path,
slots)` in theme/static/js/runtime/40-figures.js). This module is the same lookup and fill in
Python, so a figure's tests can read every sentence it can show, in every state, against the data.

A text is a string at a path of keys and indices into the figure's data (`["steps", 3, "read"]`).
It is shown whole or as a template: each `{name}` takes the text at `slots[name]`, itself a path
(a string, or an int, shown as written). A path under a key ending in `_html` is inline Markdown
the build rendered (figdata.markdown_paths) and takes no slots.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

SLOT = re.compile(r"\{(\w+)\}")

Path = Sequence[str | int]


def at(data: Any, path: Path) -> Any:
    """The value at `path` in `data` (KeyError or IndexError if there is none)."""
    node = data
    for key in path:
        node = node[key]
    return node


def fill(data: dict, path: Path, slots: dict[str, Path] | None = None) -> str:
    """The text at `path` with its {slots} filled, as the browser shows it; ValueError if the
    template and the slots do not match (a slot without a value, a value that is not text)."""
    template = at(data, path)
    if type(template) is not str:
        raise ValueError(f"no text at {list(path)}: {type(template).__name__}")
    slots = slots or {}
    names = set(SLOT.findall(template))
    if names != set(slots):
        raise ValueError(f"{list(path)}: the template's slots {sorted(names)} are not the ones given {sorted(slots)}")

    def value(m: re.Match) -> str:
        v = at(data, slots[m.group(1)])
        if type(v) is not str and type(v) is not int:
            raise ValueError(f"{list(path)}: slot {{{m.group(1)}}} is a {type(v).__name__}, not text")
        return str(v)

    return SLOT.sub(value, template)


# Numbers as the page writes them, for the sentences builders ship (the same forms as the
# drawing widgets' W.int, W.fixed, W.si and W.sci in theme/static/js/widgets/20-format.js).
MINUS = "\u2212"


def _minus(s: str) -> str:
    return MINUS + s[1:] if s.startswith("-") else s


def _exact(x) -> Decimal:
    """x as a Decimal holding its exact value (numpy's ints and floats included)."""
    try:
        return Decimal(operator.index(x))
    except TypeError:
        return Decimal(float(x))


def integer(x: float) -> str:
    """1234567 → "1,234,567", rounded to a whole number half up as W.int's Math.round (2.5 → "3")."""
    return _minus(f"{int(_exact(x).quantize(Decimal(1), rounding=ROUND_HALF_UP)):,}")


def fixed(x: float, digits: int = 3) -> str:
    """x to `digits` decimals with a real minus sign, a tie rounded away from zero as JavaScript's
    toFixed does (4.625 → "4.63"); a value that rounds to zero is "0.000"."""
    if abs(x) < 0.5 * 10**-digits:
        x = 0.0
    return _minus(str(_exact(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)))


def si(x: float, unit: str = "") -> str:
    """1.23e9 → "1.23 G" + unit: three significant digits from a thousand up, else the whole number."""
    prefixes, i, v = ["", "K", "M", "G", "T", "P", "E"], 0, float(x)
    while (abs(v) >= 1000 or abs(float(f"{v:.3g}")) >= 1000) and i < len(prefixes) - 1:  # 999,999 is 1.00 M
        v, i = v / 1000, i + 1
    number = f"{v:#.3g}".rstrip(".") if i else str(round(v))
    return _minus(number) + (f" {prefixes[i]}{unit}" if unit or i else "")


def sci(x: float, digits: int = 1) -> str:
    """1.8e-15 → "1.8e−15"."""
    if x == 0:
        return "0"
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    return _minus(mantissa) + "e" + _minus(str(int(exponent)))
