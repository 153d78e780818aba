"""Animations of merge traces to GIF/MP4 (issue 4; in progress)."""

from __future__ import annotations

__all__: list[str] = []
