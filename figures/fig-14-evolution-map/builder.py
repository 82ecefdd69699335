"""FIG 14 · The evolution map: one node per step, each with its wall, fix, price and year (texts from the spec,
years from the facts file)."""

from collections import Counter
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .editorial import checked_items, cited_facts, require_unique_ids

WALLS = {  # the four walls of §01; a wall sentence names one of them first ("Memory: …")
    "coupling": "Coupling",
    "memory": "Memory",
    "capacity": "Capacity",
    "depth": "Depth",
}
OTHER = {  # what a wall sentence may name instead: waste rather than one of the four walls
    "recomputation": "Recomputation",
}
TAGS = {"recomputation": "Recompute"}  # shorter tags under the overview's dots, where a label is too wide
ENDS = {"start": "Start", "all": "All four"}  # the first node is the start; the last gathers all four walls
FIELDS = ("id", "title", "section", "year", "dated", "wall", "fix", "price")

Text = Annotated[str, Field(pattern=r"\S")]  # editorial text: non-blank (checked_items), may cite {{facts}}
Slug = Annotated[str, Field(pattern=r"^[a-z0-9-]+$")]  # an id or a section anchor: the link is #slug


class Node(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: Slug  # unique: names the node in the chain and the tests
    title: Text  # the node's heading
    section: Slug  # the article section "Read the section" links to (the build checks it exists)
    # a fact with a year: "key" (its number) or "key:part" (one of its numbers); year_of checks the value
    year: str = Field(pattern=r"^[a-z0-9_]+\.[a-z0-9_]+(:[a-z0-9_]+)?$")
    dated: Text  # what that year dates (the paper, the release, ...), shown beside it
    wall: Text  # "Memory: …": the wall named first (one of WALLS or OTHER); the first and last node may name none
    fix: Text  # what the step adopted
    price: Text  # what the fix cost


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    note: Text  # shown under the chain: it follows the argument, not the calendar
    nodes: list[Node] = Field(min_length=2)  # the chain in the argument's order: a start, steps, the final node

    @model_validator(mode="after")
    def _unique(self):
        require_unique_ids(self.nodes, "nodes")
        return self


def wall_of(text: str, index: int, count: int) -> str:
    """The wall a node names: its sentence's prefix; the first node is the start, the last gathers all."""
    head = text.split(":", 1)[0].strip().lower()
    if head in WALLS or head in OTHER:
        return head
    if index == 0:
        return "start"
    if index == count - 1:
        return "all"
    names = [*WALLS.values(), *OTHER.values()]
    raise ValueError(f"node {index + 1}: its wall must start with one of {', '.join(names)} and a colon")


def year_of(ref: str, facts) -> tuple[int, str]:
    """A node's year from the facts file: "key" (the fact's number) or "key:part" (one of its numbers)."""
    key, _, part = ref.partition(":")
    if key not in facts:
        raise ValueError(f"year {ref!r}: unknown fact {key!r}")
    value = facts.parts(key)[part] if part else facts.number(key)
    if value != int(value):
        raise ValueError(f"year {ref!r}: {value} is not a year")
    return int(value), key


def build(params: dict, facts) -> dict:
    raw = checked_items(params["nodes"], FIELDS, "node")
    if len(raw) < 2:
        raise ValueError("nodes: a list of at least two steps")
    nodes, year_facts = [], []
    for i, node in enumerate(raw):
        year, year_fact = year_of(node["year"], facts)
        year_facts.append(year_fact)
        nodes.append(
            {
                "id": node["id"],
                "title": node["title"],
                "section": node["section"],
                "wall": wall_of(node["wall"], i, len(raw)),
                "year": year,
                "dated": node["dated"],
                "wall_md": node["wall"],
                "fix_md": node["fix"],
                "price_md": node["price"],
                "link_md": f"[Read the section](#{node['section']})",  # the build checks that the section exists
            }
        )
    counts = Counter(n["wall"] for n in nodes)
    kinds = {**ENDS, **WALLS, **OTHER}
    return {
        "nodes": nodes,
        "walls": [{"id": k, "label": v, "count": counts.get(k, 0)} for k, v in WALLS.items()],
        # the label of every kind a node has, and the tag under its dots in the overview
        "kinds": {k: {"label": kinds[k], "tag": TAGS.get(k, kinds[k]), "is_wall": k in WALLS} for k in counts},
        "note_md": params["note"],
        "provenance": {
            "kernels": [],
            "facts": sorted(set(cited_facts(raw)) | set(year_facts)),  # every number in the texts, and the years
            "inputs": "the node list in figures/fig-14-evolution-map/figure.yaml (editorial text); numbers inside come from cited facts",
            "seed": None,
            "counts": "nodes per wall counted from each wall sentence's prefix",
            "years": "each node's year is a number in the facts file (lineage.years and the facts named above)",
        },
    }
