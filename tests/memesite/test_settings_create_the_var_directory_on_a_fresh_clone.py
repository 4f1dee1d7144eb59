"""A fresh clone has no var/ directory: starting Django creates it, so the
default SQLite database and the server-less broker can open their files."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_django_start_up_creates_a_missing_var_directory(tmp_path: Path) -> None:
    var = tmp_path / "fresh" / "var"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["MEMESITE_VAR_DIR"] = str(var)
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert (var / "memesite.sqlite3").is_file()
