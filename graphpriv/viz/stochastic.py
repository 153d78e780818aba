"""Plots for the watchdog and linear-reduction mechanisms (issue 5; in progress)."""

from __future__ import annotations

__all__: list[str] = []
