"""Helpers for the feed's tests: many memes at once, readers, walking a feed."""

from __future__ import annotations

import io
import random
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.files.storage import default_storage
from django.test import Client
from django.utils import timezone
from PIL import Image, ImageDraw

from feed.models import Meme
from feed.ranking import sessions
from feed.ranking.scores import PRIOR_LIKE_RATE, hot_of, rating_of
from feed.ranking.sorts import Sort
from generation.models import GenerationJob, Template

PASSWORD_HASH = "!"  # unusable: these readers only react through the model


def bulk_memes(template: Template, count: int, **fields: Any) -> list[Meme]:
    """``count`` ready memes created in one statement; scores as given or tied."""
    fields.setdefault("status", Meme.Status.READY)
    memes = [Meme(template=template, texts=[f"meme {n}", "bottom"], **fields) for n in range(count)]
    return Meme.objects.bulk_create(memes)


def scored_meme(
    template: Template, created: datetime, likes: int = 0, dislikes: int = 0, prior: float | None = None
) -> Meme:
    """One ready meme, not saved, made at ``created`` with these votes, scored as the model scores it."""
    prior = template.like_rate if prior is None else prior
    rating = rating_of(likes, dislikes, prior)
    return Meme(
        template=template,
        texts=["top", "bottom"],
        status=Meme.Status.READY,
        created_at=created,
        ready_at=created,
        likes=likes,
        dislikes=dislikes,
        prior=prior,
        rating=rating,
        hot=hot_of(rating, created),
    )


def scored_memes(
    template: Template, count: int, rng: random.Random, now: datetime | None = None
) -> list[Meme]:
    """Memes of varied age and votes, with rating and hot as the model computes them."""
    now = now or timezone.now()
    memes = []
    for n in range(count):
        likes, dislikes = rng.randint(0, 30), rng.randint(0, 30)
        created = now - timedelta(hours=rng.uniform(0, 200))
        meme = scored_meme(template, created, likes, dislikes, PRIOR_LIKE_RATE)
        meme.texts = [f"scored {n}", "bottom"]
        memes.append(meme)
    return Meme.objects.bulk_create(memes)


def extended_session(sort: Sort, reader: User, extensions: int) -> sessions.FeedState:
    """A new feed session of ``sort`` for ``reader``, extended ``extensions`` times."""
    state = sessions.start_session(sort, None)
    for _ in range(extensions):
        state = replace(state, end=sessions.extend(state, reader.pk))
    return state


def readers(count: int, prefix: str = "reader") -> list[User]:
    return User.objects.bulk_create(
        [User(username=f"{prefix}{n}", password=PASSWORD_HASH) for n in range(count)]
    )


def walk(client: Client, first_url: str, on_page: Any = None, limit: int = 10_000) -> list[int]:
    """Follow ``next`` until an empty page; returns the meme ids in the order served."""
    served: list[int] = []
    url = first_url
    for _ in range(limit):
        response = client.get(url)
        assert response.status_code == 200, response.content
        page = response.json()
        if not page["results"]:
            return served
        served += [item["id"] for item in page["results"]]
        if on_page is not None:
            on_page(served)
        url = page["next"]
    raise AssertionError(f"the feed did not end after {limit} pages")


def picture(width: int, height: int, color: str, label: str) -> bytes:
    """A simple JPEG with a label, standing in for a rendered meme."""
    image = Image.new("RGB", (width, height), color)
    draw = ImageDraw.Draw(image)
    draw.rectangle((8, 8, width - 8, height - 8), outline="white", width=4)
    draw.text((24, 24), label, fill="white")
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=80)
    return buffer.getvalue()


def pictured_meme(
    template: Template, texts: list[str], color: str, size: tuple[int, int] = (800, 600)
) -> Meme:
    """A ready meme with a real image file and its pixel size."""
    from django.core.files.base import ContentFile

    meme = Meme.objects.create(template=template, texts=texts, status=Meme.Status.QUEUED)
    name = default_storage.save(f"memes/{meme.pk}.jpg", ContentFile(picture(*size, color, " / ".join(texts))))
    now = timezone.now()
    Meme.objects.filter(pk=meme.pk).update(
        status=Meme.Status.READY,
        image=name,
        width=size[0],
        height=size[1],
        ready_at=now,
        **Meme.initial_scores(now, template.like_rate),
    )
    meme.refresh_from_db()
    return meme


def finish_every_job() -> int:
    """An instant pipeline: every open job's memes are made, ready, at once.
    Returns how many memes it made."""
    made = 0
    for job in GenerationJob.objects.filter(status__in=["queued", "running"]).select_related("template"):
        now = timezone.now()
        made += len(bulk_memes(job.template, job.count, job=job, created_at=now, ready_at=now))
        GenerationJob.objects.filter(pk=job.pk).update(status="done", finished_at=now)
    return made


def page_as_fast_as_possible(client: Client, first_url: str, pages: int) -> list[int]:
    """Follow ``next`` for ``pages`` pages, the pipeline finishing every job
    between two pages (as fast as workers could ever be); the meme ids served."""
    served: list[int] = []
    url = first_url
    for _ in range(pages):
        response = client.get(url)
        assert response.status_code == 200, response.content
        served += [item["id"] for item in response.json()["results"]]
        finish_every_job()
        url = response.json()["next"]
    return served
