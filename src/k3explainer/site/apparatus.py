"""What the page shows around the prose, gathered from every document of a build (the sections,
and each figure's caption and texts where the figure is placed): the reference list in reading
order, where each section and figure is referenced from, the corrections, and each id's label.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .citations import Cited, ReferenceList, reference_list, warn_uncited
from .corrections import Correction
from .crossrefs import backlinks, xref_labels
from .errors import Diagnostics
from .references import References

if TYPE_CHECKING:
    from .pipeline import Checked, Computed, Inputs
    from .scan import Scan


@dataclass
class Apparatus:
    references: list[dict]  # in citation order: {n, ref, places}
    numbers: dict[str, int]  # reference key → its number
    referenced_in: dict[str, list[tuple[str, str]]]  # section or figure id → (label, #href)
    corrections: list[Correction]  # newest first
    labels: dict[str, str]  # id → "§06", "FIG 06"


def gather(inputs: Inputs, checked: Checked, computed: Computed, diags: Diagnostics) -> Apparatus:
    refs = _reference_list(inputs, checked, computed)
    warn_uncited(inputs.references, refs.numbers, diags)
    return Apparatus(
        _entries(inputs.references, refs),
        refs.numbers,
        _backlinks(inputs, checked, computed),
        checked.corrections,
        labels_of(inputs, checked),
    )


def labels_of(inputs: Inputs, checked: Checked) -> dict[str, str]:
    return xref_labels(inputs.sections, checked.scans, {fid: spec.label for fid, spec in inputs.specs.items()})


def _documents(inputs: Inputs, checked: Checked, computed: Computed) -> list[tuple[str, str, Scan]]:
    """(label, id, scan) of every document in page order: each section, then (where it is placed)
    each of its figures' caption and texts, under the figure's label and id."""
    out = []
    for s, sc in zip(inputs.sections, checked.scans, strict=True):
        out.append((f"§{s.meta.number:02d}", s.id, sc))
        for fid, _ in sc.figures:
            if fid in inputs.specs:
                docs = [checked.captions[fid], *computed.texts.get(fid, {}).values()]
                out += [(inputs.specs[fid].label, fid, d.scan) for d in docs]
    return out


def _backlinks(inputs: Inputs, checked: Checked, computed: Computed) -> dict[str, list[tuple[str, str]]]:
    home = {fid: s.id for s, sc in zip(inputs.sections, checked.scans, strict=True) for fid, _ in sc.figures}
    home |= {f"{s.id}-{i}": s.id for s, sc in zip(inputs.sections, checked.scans, strict=True) for i in sc.ids}
    return backlinks(_documents(inputs, checked, computed), home, set(inputs.specs))


def _reference_list(inputs: Inputs, checked: Checked, computed: Computed) -> ReferenceList:
    """Citations in reading order; a figure cites what its caption, its texts and the facts of its
    constants cite."""
    sections = [(f"§{s.meta.number:02d}", s.id, sc) for s, sc in zip(inputs.sections, checked.scans, strict=True)]
    figures = {
        fid: (
            spec.label,
            checked.captions[fid].scan.citations
            + [c for d in computed.texts.get(fid, {}).values() for c in d.scan.citations]
            + [Cited(r, 0, 0, c.fact) for c in spec.model.constants if c.fact for r in inputs.facts.refs(c.fact)],
        )
        for fid, spec in inputs.specs.items()
    }
    return reference_list(sections, figures)


def _entries(references: References, refs: ReferenceList) -> list[dict]:
    """The reference list as the page shows it: in citation order, each with where it is cited."""
    order = sorted(refs.numbers, key=refs.numbers.get)
    return [{"n": refs.numbers[k], "ref": references.by_key[k], "places": refs.places[k]} for k in order]
