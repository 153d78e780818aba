"""Joint-range grids, confusability and bipartite graphs, min cuts (issue 4; in progress)."""

from __future__ import annotations

__all__: list[str] = []
