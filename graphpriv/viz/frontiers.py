"""Pareto frontiers with normalised axes and baselines (issue 4; in progress)."""

from __future__ import annotations

__all__: list[str] = []
