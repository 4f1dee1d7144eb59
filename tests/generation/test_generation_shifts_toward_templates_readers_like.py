"""Simulated readers with known taste: as they react, the feed's generation
moves toward the template they like and away from the one they don't."""

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from feed.models import Meme, Reaction
from generation import services
from generation.models import GenerationJob
from generation.services import reader_is_running_low
from tests.conftest import make_meme, make_template

TASTE = {"loved": 0.9, "fine": 0.5, "disliked": 0.1}  # chance a reader likes a meme of each template


@pytest.mark.django_db
def test_generation_moves_toward_the_liked_template(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.THROTTLE_SITE_MEMES = "10000/hour"  # 120 jobs of 64 in one go
    rng = random.Random(7)
    draws = random.Random(11)  # the bandit's own draws, seeded so the test is repeatable
    pick = services._bandit_pick
    monkeypatch.setattr(services, "_bandit_pick", lambda rng=None: pick(draws))
    templates = {slug: make_template(slug) for slug in TASTE}
    readers = [User.objects.create_user(f"reader{n}") for n in range(30)]
    picked: list[str] = []
    for round_number in range(120):
        reader = readers[round_number % len(readers)]
        job = reader_is_running_low(reader)
        assert job is not None
        slug = job.template.slug
        picked.append(slug)
        GenerationJob.objects.filter(pk=job.pk).update(status="done")
        meme = make_meme(templates[slug])
        for voter in rng.sample(readers, 3):
            value = Reaction.LIKE if rng.random() < TASTE[slug] else Reaction.DISLIKE
            Reaction.objects.create(user=voter, meme=meme, value=value)

    # Before any vote every template is equally likely; the bandit learns within a few rounds.
    early, late = picked[:10], picked[-40:]
    assert late.count("loved") / len(late) > early.count("loved") / len(early)
    assert late.count("loved") > 0.6 * len(late)
    assert late.count("disliked") < 0.1 * len(late)


@pytest.mark.django_db
def test_a_readers_preferred_template_is_honoured(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    from feed.models import UserSettings

    make_template("popular")
    preferred = make_template("niche")
    UserSettings.objects.create(user=alice, preferred_template=preferred)

    job = reader_is_running_low(alice)

    assert job is not None and job.template == preferred and job.reason == "feed"


@pytest.mark.django_db
def test_one_reader_has_at_most_one_feed_job_in_flight(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    make_template()
    assert reader_is_running_low(alice) is not None
    assert reader_is_running_low(alice) is None
    assert GenerationJob.objects.count() == 1
    assert not Meme.objects.exists()
