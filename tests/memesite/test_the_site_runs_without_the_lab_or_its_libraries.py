"""The site's processes never load the lab or the libraries only the lab needs: a web process
(``manage.py check`` and every URL's module), a worker (its tasks, the caption model loaded from a
directory and writing captions) and the product's settings, which name neither the lab's app nor
its commands. ``make install`` installs no scikit-learn or matplotlib, so an import of either on
these paths would fail in production and nowhere else.

tqdm is a dependency of transformers, which imports it itself; what is refused is our own code
importing it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[2]
LAB_COMMANDS = {
    "prepare_captions",
    "train_captions",
    "evaluate_captions",
    "judge_captions",
    "train_moderation",
}

# Run in a fresh interpreter, so nothing the test process imported counts. A finder ahead of every
# other one answers for the refused modules with a loader that records the import and fails it
# (asking whether a module exists, as transformers asks about scikit-learn, is not an import);
# an import statement of ours naming tqdm is recorded and failed even once transformers loaded it.
SITE_PROCESS = """
import builtins, importlib.abc, importlib.machinery, json, os, sys
from pathlib import Path

REFUSED = {"sklearn", "matplotlib", "lab"}
OURS = {"feed", "generation", "memesite"}
imported = []


class Refuse(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        return importlib.machinery.ModuleSpec(name, self) if name.partition(".")[0] in REFUSED else None

    def create_module(self, spec):
        imported.append(spec.name)
        raise ImportError(f"{spec.name} is refused in a site process")

    def exec_module(self, module):
        raise AssertionError("never reached")


real_import = builtins.__import__


def watched_import(name, globals=None, locals=None, fromlist=(), level=0):
    by = (globals or {}).get("__name__", "")
    if level == 0 and name.partition(".")[0] == "tqdm" and by.partition(".")[0] in OURS:
        imported.append(f"{by} imports {name}")
        raise ImportError(f"{name} is refused in a site process")
    return real_import(name, globals, locals, fromlist, level)


builtins.__import__ = watched_import
sys.meta_path.insert(0, Refuse())
os.environ["DJANGO_SETTINGS_MODULE"] = "memesite.settings"

import django

django.setup()
from django.core.management import call_command

call_command("check")  # loads the URL configuration: every view, API and admin module
import memesite.wsgi
from memesite.celery import app

app.loader.import_default_modules()  # what a worker imports: every app's tasks
import feed.api
import generation.captions.model
import generation.jobs
from generation.captions import CaptionRequest, SamplingSettings
from generation.captions.model import load_caption_model, save_model_dir
from generation.captions.tiny import tiny_caption_model

tiny = tiny_caption_model(steps=5)
save_model_dir(tiny.model, tiny.tokenizer, Path(sys.argv[1]))
model = load_caption_model(Path(sys.argv[1]), "cpu")
model.write([CaptionRequest("Success-Kid", 1, n=2)], SamplingSettings(), rng_seed=1)
print(json.dumps({"imported": imported, "modules": sorted(sys.modules)}))
"""


def run_site_process(tmp_path: Path) -> dict[str, list[str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    env["MEMESITE_VAR_DIR"] = str(tmp_path / "var")
    result = subprocess.run(
        [sys.executable, "-c", SITE_PROCESS, str(tmp_path / "model")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    answer: dict[str, list[str]] = json.loads(result.stdout.strip().splitlines()[-1])
    return answer


def test_a_web_and_a_worker_process_load_no_lab_and_no_lab_library(tmp_path: Path) -> None:
    answer = run_site_process(tmp_path)
    assert answer["imported"] == []
    assert "generation.jobs" in answer["modules"] and "torch" in answer["modules"]  # it did run the paths


def test_the_products_settings_name_neither_the_lab_nor_its_commands() -> None:
    assert not any(app == "lab" or app.startswith("lab.") for app in settings.INSTALLED_APPS)
    assert LAB_COMMANDS & set(get_commands()) == set()
