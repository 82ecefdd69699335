"""FIG 18 · Seven verdicts: before/after comparisons, each answering the same four questions."""
import re

QUESTIONS = [  # (key in the spec, heading shown) — every verdict answers all four, in this order
    ("changed", "What changed"),
    ("why", "Why"),
    ("better", "What got better"),
    ("harder", "What got harder"),
]


def build(params: dict, facts) -> dict:
    raw = params["verdicts"]
    if not isinstance(raw, list) or not raw:
        raise ValueError("verdicts: a non-empty list")
    verdicts, seen = [], set()
    for i, v in enumerate(raw):
        missing = [k for k in ("id", "before", "after", *dict(QUESTIONS)) if not isinstance(v.get(k), str) or not v[k].strip()]
        sections = v.get("sections")
        if missing or not isinstance(sections, list) or not sections:
            raise ValueError(f"verdict {i + 1}: missing {', '.join(missing) or 'sections'}")
        if v["id"] in seen:
            raise ValueError(f"verdict {i + 1}: duplicate id {v['id']!r}")
        seen.add(v["id"])
        verdicts.append({
            "id": v["id"],
            "before": v["before"],
            "after": v["after"],
            "answers": [{"key": k, "answer_md": v[k]} for k, _ in QUESTIONS],
            # one checked link per section; the component labels it with the section's heading
            "links": [{"section": s, "link_md": f"[§](#{s})"} for s in sections],
        })
    return {
        "questions": [{"key": k, "label": label} for k, label in QUESTIONS],
        "verdicts": verdicts,
        "provenance": {
            "kernels": [],
            "facts": sorted(set(re.findall(r"\{\{\s*([\w.]+)\s*\}\}", repr(raw)))),  # every number in the texts
            "inputs": "the verdicts in content/figures/fig-18.yaml (editorial text); numbers inside come from cited facts",
            "seed": None,
        },
    }
