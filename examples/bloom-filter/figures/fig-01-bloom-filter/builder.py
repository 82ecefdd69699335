"""FIG 01 · A Bloom filter filling up: for each number of hash functions k, seeded uniform hashes
insert up to n_max items into m bits; the builder records when each bit was first set, and after
every insertion asks `queries` never-inserted items and counts the wrong "yes" answers, beside the
formula (1 − e^(−kn/m))^k. The browser only draws these numbers."""

import numpy as np
from pydantic import BaseModel, ConfigDict, Field


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    m: int = Field(ge=8, le=1024)  # bits in the filter
    k_values: list[int] = Field(min_length=1)  # hash functions per item, one filter each
    k_default: int
    n_max: int = Field(ge=1, le=512)  # items inserted, one at a time
    n_default: int = Field(ge=0)
    queries: int = Field(ge=100, le=100_000)  # never-inserted items asked after each insertion
    seed: int


def filter_run(m: int, k: int, n_max: int, queries: int, rng: np.random.Generator) -> dict:
    """The plain loop is the specification: insert item i by setting its k bits, then ask."""
    items = rng.integers(0, m, size=(n_max, k))  # (n_max, k) bit positions of each inserted item
    asked = rng.integers(0, m, size=(queries, k))  # (queries, k) positions of never-inserted items
    bits = np.zeros(m, dtype=bool)
    first_set = np.full(m, -1)  # the item count at which each bit became one
    measured = [0.0]  # an empty filter says no to everything
    for i, positions in enumerate(items, start=1):
        new = positions[~bits[positions]]
        first_set[new] = i
        bits[positions] = True
        measured.append(float(bits[asked].all(axis=1).mean()))
    inserted_found = bool(bits[items].all(axis=1).all())  # no false negatives, ever
    return {
        "items": items,
        "first_set": first_set,
        "measured": np.array(measured),
        "no_false_negatives": inserted_found,
    }


def formula(m: int, k: int, n: np.ndarray) -> np.ndarray:
    """(1 − e^(−kn/m))^k: the usual approximation of the false-positive rate."""
    return (1 - np.exp(-k * n / m)) ** k


def build(params: dict, facts) -> dict:
    p = Params.model_validate(params)
    n = np.arange(p.n_max + 1)  # (n_max + 1,) items inserted so far
    rng = np.random.default_rng(p.seed)
    runs = [filter_run(p.m, k, p.n_max, p.queries, rng) for k in p.k_values]
    formulas = [formula(p.m, k, n) for k in p.k_values]
    # the k with the lowest formula rate after each insertion (n ≥ 1), and where the first and the
    # last of those bests hold: what the title and takeaway name by {headline.…} slots
    best = [p.k_values[int(np.argmin([f[i] for f in formulas]))] for i in n[1:]]  # best[i - 1] is n = i's

    def run(ks: list[int]) -> int:  # how many of ks, from the first, equal the first
        return next((i for i, k in enumerate(ks) if k != ks[0]), len(ks))

    headline = {
        "n": p.n_default,
        "best_k": best[p.n_default - 1] if p.n_default >= 1 else None,  # at the n the slider opens on
        "first_best_k": best[0],
        "first_best_until": run(best),  # best for n = 1 … this
        "last_best_k": best[-1],
        "last_best_from": p.n_max - run(best[::-1]) + 1,  # best for n = this … n_max
    }
    return {
        "headline": headline,
        "m": p.m,
        "k_values": p.k_values,
        "n_max": p.n_max,
        "queries": p.queries,
        "k_default": p.k_default,
        "n_default": p.n_default,
        "items": [r["items"] for r in runs],  # (len(k_values), n_max, k): each item's bits
        "first_set": [r["first_set"] for r in runs],  # (len(k_values), m)
        "measured": [r["measured"] for r in runs],  # (len(k_values), n_max + 1)
        "formula": formulas,  # (len(k_values), n_max + 1)
        "bits_set": [[int(((r["first_set"] >= 1) & (r["first_set"] <= i)).sum()) for i in n] for r in runs],
        "no_false_negatives": all(r["no_false_negatives"] for r in runs),
        "provenance": {
            "kernel": "filter_run and formula in figures/fig-01-bloom-filter/builder.py, numpy",
            "inputs": f"m = {p.m} bits; k in {p.k_values}; up to {p.n_max} items; {p.queries:,} never-inserted questions; "
            f"hash positions drawn uniformly with seed {p.seed}",
        },
    }
