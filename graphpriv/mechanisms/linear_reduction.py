"""Linear-reduction LDP / log-lift mechanisms, papers 000/001 (issue 5; in progress)."""

from __future__ import annotations

__all__: list[str] = []
