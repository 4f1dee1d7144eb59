"""The Celery app. Queues: ``model`` for caption-model work (GPU workers: one
solo process per GPU), ``default`` for rendering, OCR and housekeeping."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memesite.settings")
# OpenMP threads that spin while waiting starve everything else on a shared CPU
# (sampling measured up to 20x slower); read once, when torch first loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

app = Celery("memesite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
