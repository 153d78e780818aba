"""Stochastic privacy measures: log-lift, LDP, mutual information, maximal leakage (issue 5; in progress)."""

from __future__ import annotations

__all__: list[str] = []
