"""This explainer's figures, one folder each: figures/fig-01-temperature/ holds the figure's spec
(figure.yaml), data builder (builder.py: `build(params, facts) -> dict`), component (component.js)
and sheet (component.css), and its test. The engine imports a builder as
`k3project.figures.<folder, with _ for ->`; a module here beside the folders is shared by them."""
