"""Merge steps, trace panels and convergence of L(t) (issue 4; in progress)."""

from __future__ import annotations

__all__: list[str] = []
