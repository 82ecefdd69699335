"""FIG 01 · GPT-2 small's forward pass: every box's tensor shapes and parameter count, summed.

All counts come from `gpt2_params` (the kernel's exact breakdown); the builder only groups them
into the boxes the figure draws and checks that the groups add up to the kernel's total and to the
published totals in facts.yaml (both vocabularies).
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from k3explainer.site.readertext import fixed, integer

from ..experiments import gpt2_params


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n_layer: int = Field(ge=1)  # L: Transformer blocks, drawn as one stacked box ×L
    n_head: int = Field(ge=1)  # H: attention heads, each n_embd / H wide
    n_embd: int = Field(ge=1)  # d: residual-stream width (a multiple of n_head)
    n_ctx: int = Field(ge=1)  # context length: rows of the position embedding wpe
    vocab_size: int = Field(ge=1)  # V: rows of wte, columns of the logits (the published total uses 50257)
    vocab_size_padded: int = Field(ge=1)  # nanoGPT's padded V (a multiple of 64) for the second total
    mlp_ratio: int = Field(ge=1)  # MLP hidden width = mlp_ratio × n_embd
    activation: Literal["gelu"]  # the MLP box is labelled GELU; it has no parameters of its own
    tied_lm_head: bool  # the LM head reuses wte (adds no parameters) or has its own matrix
    seq_len_shown: int = Field(ge=1)  # T: the sequence length the activation shapes are drawn for (≤ n_ctx)

    @model_validator(mode="after")
    def _consistent(self):
        if self.n_embd % self.n_head:
            raise ValueError(f"n_embd {self.n_embd} is not divisible by n_head {self.n_head}")
        if self.seq_len_shown > self.n_ctx:
            raise ValueError(f"seq_len_shown {self.seq_len_shown} is longer than n_ctx {self.n_ctx}")
        if self.vocab_size_padded < self.vocab_size:
            raise ValueError(f"vocab_size_padded {self.vocab_size_padded} is below vocab_size {self.vocab_size}")
        return self


def _shape(*dims) -> str:
    return "[" + ", ".join(str(d) for d in dims) + "]"


def _part(name: str, count: int, shape: str = "", sym: str | None = None) -> dict:
    """One parameter tensor (or group) inside a box: its name, the shape of the weights, its count,
    the count as the box prints it and the name a screen reader gives the row."""
    aria = f"{name}: {integer(count)} parameters" + (f", weights {shape}" if shape else "")
    return {"name": name, "count": int(count), "shape": shape, "sym": sym, "count_text": integer(count), "aria": aria}


def _percent(share: float) -> str:
    """A share as the figure prints it: one decimal, two below 1 %, never "0.00%" for a part that exists."""
    return "< 0.01%" if share < 0.00005 else fixed(100 * share, 2 if share < 0.01 else 1) + "%"


def _with_chain(boxes: list[dict]) -> list[dict]:
    """Each box with the shapes it prints under its title: what goes in, what comes out, or both."""
    for b in boxes:
        b["chain"] = [f"{way} {shape}" for way, shape in (("in", b["shape_in"]), ("out", b["shape_out"])) if shape]
    return boxes


def build(params: dict, facts) -> dict:
    L, H, d = int(params["n_layer"]), int(params["n_head"]), int(params["n_embd"])
    n_ctx, V, V_pad = int(params["n_ctx"]), int(params["vocab_size"]), int(params["vocab_size_padded"])
    r, T = int(params["mlp_ratio"]), int(params["seq_len_shown"])
    tied = bool(params["tied_lm_head"])
    if d % H:
        raise ValueError(f"n_embd {d} is not divisible by n_head {H}")
    if not 1 <= T <= n_ctx:
        raise ValueError(f"seq_len_shown {T} must be between 1 and n_ctx {n_ctx}")
    config = dict(n_ctx=n_ctx, n_embd=d, n_layer=L, mlp_ratio=r, tied=tied)
    p = gpt2_params(vocab_size=V, **config)
    padded = gpt2_params(vocab_size=V_pad, **config)
    for got, key in (
        (p["total"], "gpt2_small.params_total_vocab50257"),
        (padded["total"], "gpt2_small.params_total_vocab50304_nanogpt"),
    ):
        if got != facts.number(key):  # the kernel and the published count must agree
            raise ValueError(f"kernel total {got:,} != fact {key} ({facts.number(key):,.0f})")
    d_head, d_ff = d // H, r * d
    x = _shape(T, d)

    pipeline = [
        dict(
            id="tokens",
            title="Token ids",
            shape_in="",
            shape_out=_shape(T),
            note=f"{T} ids, each one of {V} vocabulary entries",
            parts=[],
            count=0,
        ),
        dict(
            id="embed",
            title="Token + position embedding",
            shape_in=_shape(T),
            shape_out=x,
            note="look up a row of each table and add them",
            parts=[
                _part("wte (token)", p["wte"], _shape(V, d), "g2-wte"),
                _part("wpe (position)", p["wpe"], _shape(n_ctx, d), "g2-wpe"),
            ],
            count=p["wte"] + p["wpe"],
        ),
        dict(
            id="blocks",
            title=f"Transformer block ×{L}",
            shape_in=x,
            shape_out=x,
            sym="g2-block",
            note=f"{L} identical layers in sequence",
            repeat=L,
            parts=[_part("per block", p["block"], "", "g2-block"), _part(f"all {L} blocks", p["blocks"])],
            count=p["blocks"],
        ),
        dict(
            id="ln_f",
            title="Final LayerNorm",
            shape_in=x,
            shape_out=x,
            sym="g2-lnf",
            note="scale γ and shift β per channel",
            parts=[_part("ln_f", p["ln_f"], _shape(2, d), "g2-lnf")],
            count=p["ln_f"],
        ),
        dict(
            id="lm_head",
            title="LM head" + (" (tied)" if tied else ""),
            shape_in=x,
            shape_out=_shape(T, V),
            note="reuses the token embedding wte, transposed" if tied else "its own output matrix",
            parts=[
                _part(
                    "shares wte, adds none" if tied else "lm_head",
                    p["wte"] if tied else p["lm_head"],
                    _shape(d, V),
                    "g2-wte" if tied else None,
                )
            ],
            count=p["lm_head"],
        ),
        dict(
            id="logits",
            title="Next-token logits",
            shape_in=_shape(T, V),
            shape_out="",
            note="the last row scores token T + 1",
            parts=[],
            count=0,
        ),
    ]
    attn = p["c_attn"] + p["attn_c_proj"]
    mlp = p["c_fc"] + p["mlp_c_proj"]
    layer = [
        dict(
            id="ln_1",
            title="LayerNorm",
            shape_in=x,
            shape_out=x,
            parts=[_part("ln_1", p["ln_1"], _shape(2, d))],
            count=p["ln_1"],
        ),
        dict(
            id="attn",
            title=f"Causal self-attention, {H} heads of {d_head}",
            shape_in=x,
            shape_out=x,
            note=f"q, k, v {_shape(H, T, d_head)} each; scores {_shape(H, T, T)}, masked",
            parts=[
                _part("c_attn → q, k, v", p["c_attn"], f"{d}→{3 * d}"),
                _part("c_proj", p["attn_c_proj"], f"{d}→{d}"),
            ],
            count=attn,
        ),
        dict(id="add_1", title="+ residual", shape_in=x, shape_out=x, note="x + attn(LN(x))", parts=[], count=0),
        dict(
            id="ln_2",
            title="LayerNorm",
            shape_in=x,
            shape_out=x,
            parts=[_part("ln_2", p["ln_2"], _shape(2, d))],
            count=p["ln_2"],
        ),
        dict(
            id="mlp",
            title=f"MLP {d}→{d_ff}→{d}, GELU",
            shape_in=x,
            shape_out=x,
            note=f"hidden {_shape(T, d_ff)}",
            parts=[_part("c_fc", p["c_fc"], f"{d}→{d_ff}"), _part("c_proj", p["mlp_c_proj"], f"{d_ff}→{d}")],
            count=mlp,
        ),
        dict(id="add_2", title="+ residual", shape_in=x, shape_out=x, note="x + mlp(LN(x))", parts=[], count=0),
    ]
    if sum(b["count"] for b in layer) != p["block"]:
        raise ValueError("layer boxes do not add up to the kernel's block count")

    # how one block splits between its sublayers (the closed view draws it once per layer)
    split = [
        dict(id="attn", label="attention", count=attn),
        dict(id="mlp", label="MLP", count=mlp),
        dict(id="ln", label="2 LayerNorms", count=p["ln_1"] + p["ln_2"]),
    ]
    for part in split:
        part["share"] = part["count"] / p["block"]
        part["key_text"] = f"{part['label']} {integer(part['count'])} ({_percent(part['share'])})"

    # the sum the figure writes out: every parameter tensor counted once (wte once, though used twice)
    addends = [
        dict(id="wte", label="token embedding wte", count=p["wte"], sym="g2-wte"),
        dict(id="wpe", label="position embedding wpe", count=p["wpe"], sym="g2-wpe"),
        dict(id="blocks", label=f"{L} blocks × {p['block']:,}", count=p["blocks"], sym="g2-block"),
        dict(id="ln_f", label="final LayerNorm", count=p["ln_f"], sym="g2-lnf"),
        dict(id="lm_head", label="LM head (tied: counted in wte)" if tied else "LM head", count=p["lm_head"]),
    ]
    if sum(a["count"] for a in addends) != p["total"]:
        raise ValueError("the addends do not add up to the kernel's total")
    for a in addends:
        a["share"] = a["count"] / p["total"]
        a["count_text"] = integer(a["count"])
        a["share_text"] = _percent(a["share"])
        a["legend_text"] = f"{a['label']}: {a['share_text']}"
        a["title_text"] = f"{a['label']}: {a['count_text']}"
    holding = [a for a in addends if a["count"]]  # the share bar and its legend: the parts that hold any

    # what the figure says, written here (readertext) so tests read it against the counts
    text = {
        "svg_label": "GPT-2 pipeline, from token ids to next-token logits",
        "hint_open": "▼ open one layer",
        "hint_close": "▲ close this layer",
        "stack_head": f"INSIDE THE ×{L} BLOCK · {L} IDENTICAL LAYERS",
        "stack_note": f"Each layer holds {integer(p['block'])} parameters. Open the ×{L} block to look inside one.",
        "layer_head": f"INSIDE ONE BLOCK · THE SAME IN ALL {L}",
        "close_label": "Close the layer view",
        "stream_from": "x, from the block before",
        "stream_to_wide": "to next block",
        "stream_to_narrow": "to the next block",
        "total": integer(p["total"]),
        "total_label": f"parameters (vocab {integer(V)})",
        "share_title": "Share of the parameters:",
        "share_label": "Share of the parameters: " + ", ".join(a["legend_text"] for a in holding),
        # titles hold commas: "; " between parts
        "said_open": "Opened one layer: "
        + "; ".join(f"{b['title']}: {integer(b['count'])} parameters" for b in layer if b["count"])
        + f"; {integer(p['block'])} per block.",
        "said_closed": f"Closed the layer view: {L} blocks hold {integer(p['blocks'])} of {integer(p['total'])} "
        "parameters.",
    }
    # the per-block sum under the open layer, as the runs it is typeset in (two of them bold)
    layer_sum = {
        "terms": [("+ " if k else "") + integer(b["count"]) + " " for k, b in enumerate(layer)],
        "equals": "= ",
        "block_total": integer(p["block"]),
        "per_block": " per block ",
        "times": f"· × {L} = ",
        "blocks_total": integer(p["blocks"]),
    }

    return {
        "config": dict(
            n_layer=L, n_head=H, n_embd=d, d_head=d_head, d_ff=d_ff, n_ctx=n_ctx, T=T, vocab=V, vocab_padded=V_pad
        ),
        "pipeline": _with_chain(pipeline),
        "layer": _with_chain(layer),
        "layer_names": [f"layer {i}" for i in range(1, L + 1)],
        "layer_sum": layer_sum,
        "text": text,
        "block_total": p["block"],
        "block_split": split,
        "addends": addends,
        "total": p["total"],
        "total_padded": padded["total"],
        "wte_padded": padded["wte"],
        "config_md": "{{gpt2_small.config}}",
        "padded_md": "With the vocabulary padded to a multiple of 64, as nanoGPT does: "
        "{{gpt2_small.params_total_vocab50304_nanogpt}} parameters.",
        "provenance": {
            "kernels": ["experiments.gpt2_params"],
            "inputs": f"vocab {V} (and padded {V_pad}), n_ctx {n_ctx}, n_embd {d}, n_layer {L}, "
            f"mlp_ratio {r}, tied={tied}; shapes for one sequence of T = {T}",
            "seed": None,
            "checks": "box counts sum to the kernel's block and total; totals equal facts.yaml for both vocabularies",
        },
    }
