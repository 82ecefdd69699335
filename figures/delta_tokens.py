"""The seeded tokens FIG 06 (the delta rule) and FIG 07 (its gated form) step through, so the two
figures write the same keys and values and differ only in the rule."""

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from k3explainer.kernels import l2_normalize


class RepeatKey(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: int = Field(ge=2)  # 1-based: this token's key is replaced by an earlier token's
    key_of: int = Field(ge=1)  # 1-based: the earlier token whose key is reused (key_of < token)

    @model_validator(mode="after")
    def _earlier(self):
        if not self.key_of < self.token:
            raise ValueError(f"key_of {self.key_of} must be an earlier token than token {self.token}")
        return self


def inputs(params: dict):
    """Seeded demo tokens: q, k, v [T, d] (unit-length q and k if asked), one token reusing an earlier key."""
    d, T = int(params["d"]), int(params["n_tokens"])
    if d < 1 or T < 1:
        raise ValueError(f"d and n_tokens must be positive, got {d} and {T}")
    rng = np.random.default_rng(params["seed"])
    q, k, v = rng.standard_normal((3, T, d))
    if params.get("unit_norm_keys", True):
        q, k = l2_normalize(q), l2_normalize(k)
    rep = params.get("repeat_key")
    if rep:  # 1-based token numbers, as the figure shows them
        t, src = int(rep["token"]) - 1, int(rep["key_of"]) - 1
        if not 0 <= src < t < T:
            raise ValueError(f"repeat_key needs 1 <= key_of < token <= {T}, got {rep}")
        k[t] = k[src]
    return q, k, v
