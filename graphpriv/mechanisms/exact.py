"""Paper 003 mechanisms as merge/contract: exact (issue 3; in progress)."""

from __future__ import annotations

__all__: list[str] = []
