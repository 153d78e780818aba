"""Edge connectivity, network strength and Gomory-Hu trees of G_X and of the support graph (issue 8; in progress)."""

from __future__ import annotations

__all__: list[str] = []
