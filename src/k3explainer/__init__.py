"""k3explainer: static-site generator for the interactive article "From GPT-2 to Kimi K3"."""
