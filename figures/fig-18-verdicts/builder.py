"""FIG 18 · Verdicts: before/after comparisons, each answering the same four questions."""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .editorial import checked_items, cited_facts, require_unique_ids

QUESTIONS = [  # (key in the spec, heading shown) — every verdict answers all four, in this order
    ("changed", "What changed"),
    ("why", "Why"),
    ("better", "What got better"),
    ("harder", "What got harder"),
]

Text = Annotated[str, Field(pattern=r"\S")]  # editorial text: non-blank (checked_items), may cite {{facts}}
Slug = Annotated[str, Field(pattern=r"^[a-z0-9-]+$")]  # an id or a section anchor: the link is [§](#slug)


class Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: Slug  # unique: names the verdict in the data and the tests
    before: Text  # the design it replaces
    after: Text  # the design that replaced it
    sections: list[Slug] = Field(min_length=1)  # the sections it links to, in order: one [§](#section) link each
    changed: Text  # the four answers, in QUESTIONS' order: what changed,
    why: Text  # why,
    better: Text  # what got better,
    harder: Text  # and what got harder
    k3: Text  # where Kimi K3 keeps the "after" side, with its fact


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    verdicts: list[Verdict] = Field(min_length=1)  # the comparisons, in the order shown

    @model_validator(mode="after")
    def _unique(self):
        require_unique_ids(self.verdicts, "verdicts")
        return self


def _narration(verdicts: list[dict]) -> dict:
    """What the narration says, written here so a test reads every case against the data: the
    question chosen, one verdict opened or closed (then how many are open), several at once; and
    the templates that join what changed in one action, in that order."""
    n, q = len(verdicts), len(QUESTIONS)

    def verdict(i, v):
        return f"Verdict {i + 1} of {n}, {v['before']} to {v['after']}"

    def links(v):
        return f"{len(v['links'])} section link" + ("s" if len(v["links"]) > 1 else "")

    def open_now(k):
        return (
            "All verdicts collapsed."
            if k == 0
            else f"All {n} verdicts expanded."
            if k == n
            else f"{k} of {n} verdicts open."
        )

    return {
        "show": {"all": f"Every card shows all {q} answers when expanded."}
        | {key: f"Showing “{label}” for all {n} verdicts." for key, label in QUESTIONS},
        "expanded": [f"{verdict(i, v)}, expanded: {q} answers, {links(v)}." for i, v in enumerate(verdicts)],
        "collapsed": [f"{verdict(i, v)}, collapsed." for i, v in enumerate(verdicts)],
        "open_count": [f"{k} of {n} open." for k in range(n + 1)],  # after one verdict opened or closed
        "open": [open_now(k) for k in range(n + 1)],  # after several at once (Expand all, Collapse all)
        "joined": ["{first}", "{first} {second}", "{first} {second} {third}"],
    }


def build(params: dict, facts) -> dict:
    raw = checked_items(params["verdicts"], ("id", "before", "after", *dict(QUESTIONS), "k3"), "verdict")
    verdicts = []
    for i, v in enumerate(raw):
        sections = v.get("sections")
        if not isinstance(sections, list) or not sections:
            raise ValueError(f"verdict {i + 1}: missing sections")
        verdicts.append(
            {
                "id": v["id"],
                "before": v["before"],
                "after": v["after"],
                "answers": [{"key": k, "answer_md": v[k]} for k, _ in QUESTIONS],
                "k3_md": v["k3"],  # where Kimi K3 keeps the "after" side, with its fact
                # one checked link per section; the component labels it with the section's heading
                "links": [{"section": s, "link_md": f"[§](#{s})"} for s in sections],
            }
        )
    return {
        "questions": [{"key": k, "label": label} for k, label in QUESTIONS],
        "verdicts": verdicts,
        "text": {"list_label": "Verdicts, before and after"},
        "said": _narration(verdicts),
        "provenance": {
            "kernels": [],
            "facts": cited_facts(raw),  # every number in the texts
            "inputs": "the verdicts in figures/fig-18-verdicts/figure.yaml (editorial text); numbers inside come from cited facts",
            "seed": None,
        },
    }
