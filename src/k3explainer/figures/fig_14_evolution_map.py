"""FIG 14 · The evolution map: one node per step, each with its wall, fix and price (data from the spec)."""
from collections import Counter

from .editorial import checked_items, cited_facts

WALLS = {  # the four walls of §01; a wall sentence names one of them first ("Memory: …")
    "coupling": "Coupling",
    "memory": "Memory",
    "capacity": "Capacity",
    "depth": "Depth",
}
FIELDS = ("id", "title", "section", "wall", "fix", "price")


def wall_of(text: str, index: int, count: int) -> str:
    """The wall a node names: its sentence's prefix; the first node is the start, the last gathers all."""
    head = text.split(":", 1)[0].strip().lower()
    if head in WALLS:
        return head
    if index == 0:
        return "start"
    if index == count - 1:
        return "all"
    raise ValueError(f"node {index + 1}: its wall must start with one of {', '.join(WALLS.values())} and a colon")


def build(params: dict, facts) -> dict:
    raw = checked_items(params["nodes"], FIELDS, "node")
    if len(raw) < 2:
        raise ValueError("nodes: a list of at least two steps")
    nodes = []
    for i, node in enumerate(raw):
        nodes.append({
            "id": node["id"],
            "title": node["title"],
            "section": node["section"],
            "wall": wall_of(node["wall"], i, len(raw)),
            "wall_md": node["wall"],
            "fix_md": node["fix"],
            "price_md": node["price"],
            "link_md": f"[Read the section](#{node['section']})",  # the build checks that the section exists
        })
    counts = Counter(n["wall"] for n in nodes)
    return {
        "nodes": nodes,
        "walls": [{"id": k, "label": v, "count": counts.get(k, 0)} for k, v in WALLS.items()],
        "provenance": {
            "kernels": [],
            "facts": cited_facts(raw),  # every number in the texts
            "inputs": "the node list in content/figures/fig-14.yaml (editorial text); numbers inside come from cited facts",
            "seed": None,
            "counts": "nodes per wall counted from each wall sentence's prefix",
        },
    }
