"""`{param}` in a spec constant's name or note: the figure's own parameter, filled in at build time.

A constant says what a figure was built with ("N = 8 tokens, d = 4, seed 5"). Typed by hand, those
numbers drift from `params` the day someone changes a size; as placeholders they cannot:

    name: N = {n_tokens} tokens, d = {d}, seed {seed}      →  N = 8 tokens, d = 4, seed 5
    name: gates {demo.alpha_channels}, latency {lat.0} to {lat.-1} µs, within {within:.0%}

A path steps into mappings by key and into lists by index (negative counts from the end). After
a colon comes Python's format spec for a number ({p:,} → 4,000,000). A list is written as a
sentence, "1, 1.25, 1.5 and 2"; `:or` joins it with "or", `:count` gives its length, and any
other spec formats each item. Numbers print as Python's `g` would, with a real minus sign.
Braces that do not hold a name (maths, sets) are left alone.
"""

from __future__ import annotations

import re
from typing import Any

from .suggest import did_you_mean

PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*(?:\.-?\w+)*)(?::([^{}]*))?\}")


class PlaceholderError(ValueError):
    """A placeholder that names nothing, or something that is not text or a number."""

    def __init__(self, message: str, placeholder: str):
        super().__init__(message)
        self.placeholder = placeholder  # its text in the spec, to find where it is


def fill(text: str, params: dict[str, Any], name: str = "params") -> str:
    """`text` with every placeholder replaced by its param; PlaceholderError on the first bad one.
    `name` is what the messages call `params` (a figure's headline takes its "data")."""

    def one(m: re.Match) -> str:
        path, spec = m.group(1), m.group(2) or ""
        value = _lookup(params, path, m.group(0), name)
        try:
            return _format(value, spec)
        except (TypeError, ValueError) as e:
            raise PlaceholderError(f"{m.group(0)}: {e}", m.group(0)) from None

    return PLACEHOLDER.sub(one, text)


def _lookup(params: dict[str, Any], path: str, placeholder: str, name: str) -> Any:
    value: Any = params
    walked: list[str] = []
    for part in path.split("."):
        if isinstance(value, dict):
            if part not in value:
                where = f"{name}.{'.'.join(walked)}" if walked else name
                raise PlaceholderError(
                    f"{placeholder}: {where} has no {part!r}" + did_you_mean(part, map(str, value)), placeholder
                )
            value = value[part]
        elif isinstance(value, list):
            if not re.fullmatch(r"-?\d+", part) or not -len(value) <= int(part) < len(value):
                raise PlaceholderError(
                    f"{placeholder}: {name}.{'.'.join(walked)} is a list of {len(value)}; "
                    f"{part!r} is not an index into it",
                    placeholder,
                )
            value = value[int(part)]
        else:
            raise PlaceholderError(
                f"{placeholder}: {name}.{'.'.join(walked)} is a single value, it has no {part!r}", placeholder
            )
        walked.append(part)
    if isinstance(value, dict):
        raise PlaceholderError(
            f"{placeholder}: {name}.{path} is a mapping; name one of its entries "
            f"({', '.join(f'{{{path}.{k}}}' for k in list(value)[:3])})",
            placeholder,
        )
    return value


def _format(value: Any, spec: str) -> str:
    if isinstance(value, list):
        if spec == "count":
            return str(len(value))
        if not value:
            raise ValueError("the list is empty: nothing to write")
        word = spec if spec in ("and", "or") else "and"
        items = [_format(v, "" if spec in ("and", "or") else spec) for v in value]
        return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"
    if spec in ("count", "and", "or"):
        raise ValueError(f"':{spec}' is for a list, and this is {value!r}")
    if isinstance(value, bool) or value is None:
        raise ValueError(f"{value!r} is not a number or text")
    if isinstance(value, str):
        return format(value, spec)
    if not spec:  # 8192, 0.85, 1e-06: no trailing ".0", no thousands separators unless asked
        spec = "d" if isinstance(value, int) or float(value).is_integer() and abs(value) < 1e15 else "g"
        value = int(value) if spec == "d" else value
    return format(value, spec).replace("-", "\u2212")
