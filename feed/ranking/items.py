"""The columns a feed item is built from (feed.serializers.FeedItemSerializer):
a meme's, its template's, and the reader's own reaction and favourite, read in
the same query as the memes."""

from __future__ import annotations

from typing import Any, cast

from django.db.models import Exists, F, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from feed.models import Favourite, Meme, Reaction

MEME_COLUMNS = (
    "texts",
    "image",
    "image_variants",
    "width",
    "height",
    "likes",
    "dislikes",
    "favourites",
    "created_at",
)


def with_reader_state(queryset: QuerySet[Any], reader_id: int | None, meme: str = "pk") -> QuerySet[Any]:
    """Annotate my_reaction (1, -1, 0) and favourited from the reader's rows, in
    the same query: one indexed lookup per meme, never one query per item.
    ``meme`` names the meme's id in ``queryset``'s rows; None is no reader."""
    if reader_id is None:
        return cast(QuerySet[Any], queryset.annotate(my_reaction=Value(0), favourited=Value(False)))
    mine = Reaction.objects.filter(user_id=reader_id, meme=OuterRef(meme)).values("value")[:1]
    favourite = Favourite.objects.filter(user_id=reader_id, meme=OuterRef(meme))
    return cast(
        QuerySet[Any],
        queryset.annotate(my_reaction=Coalesce(Subquery(mine), 0), favourited=Exists(favourite)),
    )


def reader_id(reader: Any) -> int | None:
    return reader.pk if reader.is_authenticated else None


def item_values(memes: QuerySet[Meme], **named: Any) -> QuerySet[Any]:
    """The columns a feed item is built from, for each of ``memes``."""
    template = {"template_slug": F("template__slug"), "template_name": F("template__name")}
    return cast(
        QuerySet[Any], memes.values("id", "my_reaction", "favourited", *MEME_COLUMNS, **template, **named)
    )


def meme_row(reader: Any, meme_id: int) -> dict[str, Any] | None:
    """One ready meme as a feed item's columns, with the reader's own state."""
    return item_values(
        with_reader_state(Meme.objects.visible().filter(pk=meme_id), reader_id(reader))
    ).first()
