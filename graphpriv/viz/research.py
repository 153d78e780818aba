"""Plots for ensembles, strength and search comparisons (issue 8; in progress)."""

from __future__ import annotations

__all__: list[str] = []
