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
    N = len(nodes)
    for i, node in enumerate(nodes):
        node.update(_node_texts(node, i, N, kinds[node["wall"]]))
    walls = [{"id": k, "label": v, "count": counts.get(k, 0)} for k, v in WALLS.items()]
    for wall in walls:
        wall.update(_wall_texts(wall, [i + 1 for i, n in enumerate(nodes) if n["wall"] == wall["id"]], N))
    headline = {  # the figure's takeaway: how many of the steps between the first node and the last each wall forced
        "steps": N - 2,
        **{w["id"]: w["count"] for w in walls},
    }
    return {
        "headline": headline,
        "nodes": nodes,
        "walls": walls,
        # the label of every kind a node has, and the tag under its dots in the overview
        "kinds": {k: {"label": kinds[k], "tag": TAGS.get(k, kinds[k]), "is_wall": k in WALLS} for k in counts},
        "note_md": params["note"],
        # what the figure says, written here (readertext) so a test reads it against the nodes above
        "text": {
            "steps_label": f"Steps from {nodes[0]['title']} to {nodes[-1]['title']}",
            "filter_label": "Mark the steps that answer one wall",
            "all_walls_said": f"All {N} steps shown.",
            # the narration when one step opened or closed, when the wall changed too, or both at once
            "said_step": "{step} {open}",
            "said_wall_and": "{wall} {then}",
            "said_wall_and_step": "{wall} {step} {open}",
        },
        "open_text": [f"{k} of {N} open." for k in range(N + 1)],  # after one step's sentence
        "open_steps_text": [_open_steps(k, N) for k in range(N + 1)],  # after "Expand all", or several at once
        "provenance": {
            "kernels": [],
            "facts": sorted(set(cited_facts(raw)) | set(year_facts)),  # every number in the texts, and the years
            "inputs": "the node list in figures/fig-14-evolution-map/figure.yaml (editorial text); numbers inside come from cited facts",
            "seed": None,
            "counts": "nodes per wall counted from each wall sentence's prefix",
            "years": "each node's year is a number in the facts file (lineage.years and the facts named above)",
        },
    }


COUNTS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


def _node_texts(node: dict, i: int, N: int, wall_label: str) -> dict:
    """A node's dot title, its date line, and what the narration says when it opens or closes."""
    step = f"Step {i + 1} of {N}, {node['title']}, {node['year']}"
    return {
        "dot_title": f"{i + 1} · {node['title']}, {node['year']} ({wall_label})",
        "when": f"{node['year']} · {node['dated']}",
        "said_expanded": f"{step}, expanded: wall {wall_label}.",
        "said_collapsed": f"{step}, collapsed.",
    }


def _wall_texts(wall: dict, steps: list[int], N: int) -> dict:
    """A wall's filter button, its accessible name and what the narration says when it is chosen;
    the final step, which gathers all four walls, is marked with every wall and said apart."""
    count, walls = wall["count"], COUNTS[len(WALLS)]
    return {
        "option": f"{wall['label']} ({count})",
        "option_label": f"{wall['label']}: {count} {'step' if count == 1 else 'steps'} and K3",
        "said": f"{wall['label']} wall: {count} of {N} steps, {'number' if count == 1 else 'numbers'} "
        f"{', '.join(map(str, steps))}; the last step meets all {walls} walls.",
    }


def _open_steps(k: int, N: int) -> str:
    """How many steps are open, said after a change of more than one."""
    if k == N:
        return f"All {N} steps expanded."
    return f"{k} of {N} steps open." if k else "All steps collapsed."
