"""Figure data builders: one module per figure, `build(params, facts) -> dict`.

This explainer's own builders (the engine imports them as `k3project.figures.<name>`:
k3explainer.site.projectcode). A builder turns its spec's `params` into seeded inputs, calls
`k3explainer.kernels`, and returns plain data for the figure's client component, including
`provenance`. Named like the figure:
content/figures/fig-02.yaml → fig_02_attention_matrix.py → static/js/figures/fig-02-attention-matrix.js.
"""
