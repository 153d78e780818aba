"""Privacy watchdog and (eps, delta) log-lift partitioning, paper 002 (issue 5; in progress)."""

from __future__ import annotations

__all__: list[str] = []
