"""The database itself refuses a second reaction (or favourite) by the same
reader on the same meme, and a counter never goes below zero."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from feed.models import Favourite, Meme, Reaction, Template, increment
from tests.conftest import make_meme


def test_a_second_reaction_row_is_refused(alice: User, template: Template) -> None:
    meme = make_meme(template)
    Reaction.objects.create(user=alice, meme=meme, value=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Reaction.objects.create(user=alice, meme=meme, value=-1)


def test_a_reaction_is_a_like_or_a_dislike(alice: User, template: Template) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Reaction.objects.create(user=alice, meme=make_meme(template), value=2)


def test_a_second_favourite_row_is_refused(alice: User, template: Template) -> None:
    meme = make_meme(template)
    Favourite.objects.create(user=alice, meme=meme)
    with pytest.raises(IntegrityError), transaction.atomic():
        Favourite.objects.create(user=alice, meme=meme)


def test_counters_never_go_below_zero(template: Template) -> None:
    meme = make_meme(template)
    increment(meme.pk, likes=-1, dislikes=-3, favourites=-1)
    meme = Meme.objects.get(pk=meme.pk)
    assert (meme.likes, meme.dislikes, meme.favourites) == (0, 0, 0)
