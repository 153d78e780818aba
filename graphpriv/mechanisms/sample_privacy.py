"""Perfect sample privacy and synergistic disclosure, paper 004 (issue 6; in progress)."""

from __future__ import annotations

__all__: list[str] = []
