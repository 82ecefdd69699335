"""This article's experiments and model accounting: what the figures measure, built on the
engine's kernels (k3explainer.kernels). Imported as k3project.experiments: a builder writes
`from ..experiments import recall_sweep`, a test `from k3project.experiments import recall_sweep`
(the root conftest.py mounts the project). README.md beside this file maps each to its figure."""

from .accounting import gpt2_params, hybrid_layout, k3_derived, stack_decode_memory
from .balance import (
    BALANCE_REGIMES,
    balance_run_loop,
    balance_runs,
    dropped_share,
    expert_capacity,
    load_ratio,
    switch_aux_logit_grad,
    task_logit_grad,
)
from .capacity import (
    Memory,
    age_profile,
    memory_elements,
    recall_errors_reference,
    recall_reference,
    recall_sweep,
    relative_errors,
)
from .chunk_time import chunk_time_band, chunk_time_best_c, chunk_time_terms, chunk_work_madds, tile_efficiency
from .depth import (
    depth_experiment,
    depth_experiment_naive,
    depth_shares,
    mlp_sublayer,
    residual_stack,
    residual_stack_naive,
    retrieval_query,
    stream_rms,
)
from .forgetting import (
    FORGETTING_KINDS,
    FORGETTING_MECHANISMS,
    FORGETTING_SCHEDULES,
    forgetting_curves,
    forgetting_curves_reference,
    gate_schedule,
    recall_share,
    topic_switch_stream,
)
from .mechanisms import MECHANISMS, complexity_curves, mechanism_costs

__all__ = [
    "BALANCE_REGIMES",
    "FORGETTING_KINDS",
    "FORGETTING_MECHANISMS",
    "FORGETTING_SCHEDULES",
    "MECHANISMS",
    "Memory",
    "age_profile",
    "balance_run_loop",
    "balance_runs",
    "chunk_time_band",
    "chunk_time_best_c",
    "chunk_time_terms",
    "chunk_work_madds",
    "complexity_curves",
    "depth_experiment",
    "depth_experiment_naive",
    "depth_shares",
    "dropped_share",
    "expert_capacity",
    "forgetting_curves",
    "forgetting_curves_reference",
    "gate_schedule",
    "gpt2_params",
    "hybrid_layout",
    "k3_derived",
    "load_ratio",
    "mechanism_costs",
    "memory_elements",
    "mlp_sublayer",
    "recall_errors_reference",
    "recall_reference",
    "recall_share",
    "recall_sweep",
    "relative_errors",
    "residual_stack",
    "residual_stack_naive",
    "retrieval_query",
    "stack_decode_memory",
    "stream_rms",
    "switch_aux_logit_grad",
    "task_logit_grad",
    "tile_efficiency",
    "topic_switch_stream",
]
