"""Shared checks for figures whose data is editorial text in the spec (FIG 13, 14, 18)."""

import re


def checked_items(raw, fields: tuple[str, ...], kind: str) -> list[dict]:
    """Each item of `raw` must give every field as non-empty text and a unique `id`."""
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"{kind}s: a non-empty list")
    seen = set()
    for i, item in enumerate(raw):
        missing = [f for f in fields if not isinstance(item.get(f), str) or not item[f].strip()]
        if missing:
            raise ValueError(f"{kind} {i + 1}: missing or empty {', '.join(missing)}")
        if item["id"] in seen:
            raise ValueError(f"{kind} {i + 1}: duplicate id {item['id']!r}")
        seen.add(item["id"])
    return raw


def require_unique_ids(items, what: str) -> None:
    """A spec's list of entries (components, nodes, verdicts) names each entry once: its id is its URL key."""
    ids = [item.id for item in items]
    if len(ids) != len(set(ids)):
        raise ValueError(f"{what}: duplicate id among {ids}")


def cited_facts(value) -> list[str]:
    """Keys of every {{fact}} reference anywhere in `value`, for the figure's provenance."""
    return sorted(set(re.findall(r"\{\{\s*([\w.]+)\s*\}\}", repr(value))))
