"""The sample hypergraph H_n of paper 004 and its incidence matrix P (issue 6; in progress)."""

from __future__ import annotations

__all__: list[str] = []
