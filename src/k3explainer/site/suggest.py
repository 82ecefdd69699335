"""'Did you mean …?' for an unknown name: the nearest known one, if any is close enough."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def nearest(name: str, known: Iterable[str]) -> str | None:
    near = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return near[0] if near else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """'; did you mean 'x'?' to append to a message, or '' when nothing known is close."""
    near = nearest(name, known)
    return f"; did you mean {near!r}?" if near else ""
