"""A real Celery worker whose caption model is the test stand-in:
``python -m tests.fake_model_worker [celery worker options]``. Crash tests
start and SIGKILL it; everything but the model is the product's own code."""

import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memesite.settings")
django.setup()

from generation import jobs  # noqa: E402
from memesite.celery import app  # noqa: E402
from tests.fakes import FakeCaptionModel  # noqa: E402

if __name__ == "__main__":
    jobs.use_caption_model(
        FakeCaptionModel(seconds_per_call=float(os.environ.get("FAKE_CAPTION_SECONDS", "0.3")))
    )
    app.worker_main(["worker", *sys.argv[1:]])
