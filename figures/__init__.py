"""This explainer's figures, one folder each, named `<id>-<what it shows>`:

    figures/fig-06-delta-rule/
        figure.yaml        the spec: title, caption, how-to, text alternative, params, constants
        builder.py         build(params, facts) -> dict, with its Params model
        component.js       K3.register("fig-06-delta-rule", …): draws the data, computes nothing
        component.css      what the component draws (loads with it)
        test_*.py          its tests: the data against the kernels, the prose, the browser
        golden.json        the data it ships, as reviewed (tests/site/test_golden.py)

The engine imports builder.py as `k3project.figures.fig_06_delta_rule`
(k3explainer.site.projectcode), so a builder imports the modules here beside the folders
relatively (`from .editorial import cited_facts`; `from .delta_tokens import inputs`, shared by
FIG 06 and FIG 07) and the article's experiments from `..experiments`.
"""
