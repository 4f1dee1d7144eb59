"""The word and caption lists the check reads: one entry a line, `#` comments, blank lines."""

from __future__ import annotations

from pathlib import Path


def listed_lines(path: Path) -> list[str]:
    """The entries of a list file: its lines stripped, without blank lines and comments."""
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]
