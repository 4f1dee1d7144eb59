"""``DJANGO_SETTINGS_MODULE=lab.settings`` is the product's settings with one more app, the lab,
whose commands ``manage.py`` then lists beside the product's; everything else is read from the
environment as the product reads it."""

import os
import subprocess
import sys
from pathlib import Path

from lab import settings as lab
from memesite import settings as product

ROOT = Path(__file__).resolve().parents[2]
LAB_COMMANDS = [
    "evaluate_captions",
    "judge_captions",
    "prepare_captions",
    "train_captions",
    "train_moderation",
]


def test_the_lab_settings_are_the_products_with_the_lab_app() -> None:
    assert lab.INSTALLED_APPS[:-1] == product.INSTALLED_APPS and lab.INSTALLED_APPS[-1] == "lab"
    assert lab.DATABASES == product.DATABASES and lab.CAPTION_MODEL_DIR == product.CAPTION_MODEL_DIR


def test_manage_py_lists_the_lab_commands_under_the_lab_settings(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env |= {"DJANGO_SETTINGS_MODULE": "lab.settings", "MEMESITE_VAR_DIR": str(tmp_path / "var")}
    listed = subprocess.run(
        [sys.executable, "manage.py", "help", "--commands"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert [c for c in listed if c in LAB_COMMANDS] == LAB_COMMANDS
    assert "sample_captions" in listed  # the product's own commands stay
