"""Hypergraph H_n views: incidence matrix, Levi graph, polytope vertices (issue 6; in progress)."""

from __future__ import annotations

__all__: list[str] = []
