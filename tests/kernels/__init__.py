"""Tests for k3explainer.kernels."""
