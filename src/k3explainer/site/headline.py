"""A figure's headline: the question it answers (its title) and its takeaway, the answer in one line.

Both are written in the spec, beside the caption, and their numbers are never typed: a `{path}`
slot takes a value from the data the figure ships (placeholders.py has the syntax), so

    title: Where do GPT-2 small's {total_m:.0f}M parameters live?
    takeaway: "{blocks_share:.0%} of them in the twelve Transformer blocks"

says what the figure shows for as long as the builder computes it. A pending figure has no data
yet; its slots take its params.
"""

from __future__ import annotations

import copy

from .errors import Diagnostics
from .params import find_after
from .placeholders import PlaceholderError, fill
from .specs import Spec

FIELDS = ("title", "takeaway")
TAKEAWAY_CHARS = 120  # one line of the figure's head on a desktop, two or three on a phone


def fill_headlines(specs: dict[str, Spec], data: dict[str, dict], diags: Diagnostics) -> None:
    """Fill each spec's title and takeaway from its figure's data (a pending one's from its params);
    a slot that names nothing is reported at its own line and column, with the nearest name."""
    for fid, spec in specs.items():
        if spec.model.pending:
            values, name = spec.params, "params"
        elif fid in data:
            values, name = data[fid], "data"
        else:  # its builder failed: reported already, and its slots cannot be checked
            continue
        filled = True
        for field in FIELDS:
            try:
                setattr(spec.model, field, fill(getattr(spec.model, field), values, name))
            except PlaceholderError as e:
                text = spec.path.read_text(encoding="utf-8")
                line, col = find_after(text, spec.where(field), e.placeholder)
                diags.add(spec.path, line, col, f"{field}: {e}")
                filled = False
        if filled and len(spec.model.takeaway) > TAKEAWAY_CHARS:
            diags.add(
                spec.path,
                *spec.where("takeaway"),
                f"takeaway: {len(spec.model.takeaway)} characters once filled; the answer fits in {TAKEAWAY_CHARS}",
            )


def filled(spec: Spec, data: dict) -> tuple[str, str]:
    """An author's test's view of a checked spec's headline: (title, takeaway) filled from `data`
    as the build fills them; BuildError if a slot names nothing. The spec is left as it was."""
    spec = copy.deepcopy(spec)
    diags = Diagnostics(spec.path.parents[2])
    fill_headlines({spec.id: spec}, {spec.id: data}, diags)
    diags.raise_if_any()
    return spec.model.title, spec.model.takeaway
