"""This explainer's figure data builders (imported by the engine as `k3project.figures.<name>`)."""
