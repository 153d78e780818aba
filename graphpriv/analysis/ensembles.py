"""Random joint-range ensembles and Monte-Carlo drivers (issue 8; in progress)."""

from __future__ import annotations

__all__: list[str] = []
