"""This explainer's figure data builders, one per figure: `build(params, facts) -> dict`.

The engine imports them as `k3project.figures.<name>`; named like the figure:
content/figures/fig-01.yaml → figures/fig_01_temperature.py → static/js/figures/fig-01-temperature.js.
"""
