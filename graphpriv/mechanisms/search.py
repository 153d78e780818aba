"""Better-than-greedy searches over merges (issue 8; in progress)."""

from __future__ import annotations

__all__: list[str] = []
