"""A throwaway site for in-process benchmarks: a fresh SQLite database and media folder in a
temporary folder, Django set up on them. Import it before anything that touches Django."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import django


def start(**env: str) -> Path:
    """Set the site up in a new temporary folder, with ``env`` on top; returns the folder."""
    work = Path(tempfile.mkdtemp(prefix="memesite-bench-"))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="memesite.settings",
        MEMESITE_VAR_DIR=str(work),
        DATABASE_URL=f"sqlite:///{work / 'bench.sqlite3'}",
        MEDIA_ROOT=str(work / "media"),
        **env,
    )
    django.setup()
    return work
