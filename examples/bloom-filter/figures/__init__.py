"""This explainer's figures, one folder each (figures/fig-01-bloom-filter/: spec, builder,
component, sheet and test); the engine imports a builder as `k3project.figures.<folder>`."""
