"""A feed page's read and a session's extension are querysets compiled once
per shape and run again with each page's own values (feed/ranking/compiled.py):
the rows are the ones the queryset itself gives, for every reader and session,
and a queryset whose value does not reach its SQL as a parameter is refused
instead of being run with the first caller's value."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from django.contrib.auth.models import User
from django.db.models import QuerySet

from feed.models import Meme, SeenMeme, Template, set_favourite, set_reaction
from feed.ranking import compiled, pages, sessions
from feed.ranking.sorts import SORTS, Sort
from tests.conftest import make_template
from tests.feed_data import bulk_memes


def test_a_compiled_read_gives_the_querysets_rows_for_each_reader(
    alice: User, bob: User, template: Template
) -> None:
    memes = bulk_memes(template, 40)
    set_reaction(memes[3].pk, alice, 1)
    set_favourite(memes[5].pk, bob, True)
    for reader in (alice, bob):
        state = sessions.start_session("hot", None)
        page = pages.next_page(reader, state, 10)
        compiled_rows = pages._read(reader, page.state, 20)
        queryset_rows = list(pages.page_rows(20, page.state.session, page.state.position, reader.pk))
        assert compiled_rows == queryset_rows
        assert len(compiled_rows) == 20


def test_each_session_reads_its_own_places(alice: User, template: Template) -> None:
    bulk_memes(template, 30)
    first, second = sessions.start_session("new", None), sessions.start_session("top", None)
    sessions.extend(first, alice.pk)
    assert pages._read(alice, second, 10) == []
    assert len(pages._read(alice, first, 10)) == 10


@pytest.mark.parametrize("sort", SORTS)
def test_compiled_candidates_give_the_querysets_rows_in_every_shape(
    alice: User, bob: User, template: Template, sort: Sort
) -> None:
    other = make_template("other")
    memes = bulk_memes(template, 30) + bulk_memes(other, 30, likes=9)
    set_reaction(memes[2].pk, alice, -1)
    SeenMeme.objects.remember(alice.pk, [meme.pk for meme in memes[10:20]])
    state = sessions.start_session(sort, None)
    for reader, template_id, unseen, away in itertools.product(
        (alice, bob), (None, template.pk), (True, False), (None, other.pk)
    ):
        state = replace(state, template_id=template_id)
        compiled_rows = sessions._candidates(state, reader.pk, unseen, away)
        queryset = sessions.session_candidates(state.session, reader.pk, sort, template_id, unseen, away)
        assert sorted(map(_key, compiled_rows)) == sorted(map(_key, queryset))
        assert compiled_rows


def _key(row: dict[str, int]) -> tuple[int, int, int]:
    return row["part"], row["n"], row["id"]


def first_memes(count: int) -> QuerySet[Meme]:
    return Meme.objects.order_by("pk")[:count]  # a slice is written into the SQL, not passed


def test_a_value_written_into_the_sql_is_refused(db: None) -> None:
    with pytest.raises(compiled.StandInLost):
        compiled.statement(first_memes, (), ("count",))
