"""What the API accepts and what it answers: each shape is one serializer,
which validates the input or builds the answer, and documents it in the schema."""

from __future__ import annotations

import functools
from typing import Any

from django.core.files.storage import default_storage
from rest_framework import serializers
from rest_framework.authtoken.models import Token

from feed.models import Meme, Report, Template, UserSettings
from feed.ranking.pages import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE
from feed.ranking.sorts import SORTS
from generation.render.variants import VARIANT_CONTENT_TYPE, variant_height, variant_name


class PageSizeField(serializers.IntegerField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            min_value=1,
            max_value=MAX_PAGE_SIZE,
            default=DEFAULT_PAGE_SIZE,
            help_text=f"memes per page, 1 to {MAX_PAGE_SIZE}",
            **kwargs,
        )


class FeedQuerySerializer(serializers.Serializer[dict[str, Any]]):
    sort = serializers.ChoiceField(choices=SORTS, required=False, help_text="hot (default), new or top")
    template = serializers.SlugField(
        required=False, allow_blank=True, help_text="an active template's slug; empty for all (random)"
    )
    cursor = serializers.CharField(
        required=False, max_length=400, help_text="from the previous page's next link"
    )
    page_size = PageSizeField()

    def validate_template(self, slug: str) -> int | None:
        if not slug:
            return None
        template_id = Template.objects.active().filter(slug=slug).values_list("pk", flat=True).first()
        if template_id is None:
            raise serializers.ValidationError(f"No active template is called {slug!r}.")
        return template_id


class PageQuerySerializer(serializers.Serializer[dict[str, Any]]):
    cursor = serializers.CharField(required=False, max_length=400)
    page_size = PageSizeField()


class ReactionInputSerializer(serializers.Serializer[dict[str, Any]]):
    value = serializers.ChoiceField(choices=[1, -1], help_text="1 to like, -1 to dislike")


class ReportInputSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.ChoiceField(choices=Report.Reason.choices, default=Report.Reason.OTHER)
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class SettingsSerializer(serializers.ModelSerializer[UserSettings]):
    preferred_template = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Template.objects.active(),
        allow_null=True,
        required=False,
        help_text="slug of the template the feed opens with; null for random",
    )

    class Meta:
        model = UserSettings
        fields = ("theme", "preferred_template", "howto_seen")


class TokenInputSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"}, trim_whitespace=False)


# --- answers ------------------------------------------------------------------


class TemplateRefSerializer(serializers.Serializer[dict[str, Any]]):
    slug = serializers.SlugField()
    name = serializers.CharField()


class VariantSerializer(serializers.Serializer[dict[str, Any]]):
    url = serializers.URLField()
    width = serializers.IntegerField(help_text="pixels")
    height = serializers.IntegerField(help_text="pixels")
    type = serializers.CharField(help_text="its media type: image/webp")


class FeedItemSerializer(serializers.Serializer[dict[str, Any]]):
    """One meme as the API shows it, from the columns feed.ranking.items.item_values
    reads (a dict per meme); needs ``context={"request": request}``.

    The fields document the item; to_representation builds it in one dict per
    meme rather than field by field: DRF's own path (get_attribute and
    to_representation of each of 15 fields) took 2.0–2.9 ms per page of 20,
    this one 0.6 ms (measured side by side on the shared machine under load)."""

    id = serializers.IntegerField()
    url = serializers.URLField(help_text="the meme's permalink page")
    image = serializers.URLField(allow_null=True)
    width = serializers.IntegerField(allow_null=True, help_text="pixels")
    height = serializers.IntegerField(allow_null=True, help_text="pixels")
    variants = VariantSerializer(
        many=True,
        help_text="lighter copies of the image (WebP), narrowest first, for srcset; empty until made "
        "(show `image`). The widest is the image's own width unless the image itself is lighter",
    )
    alt = serializers.CharField(help_text="the caption as text, for screen readers")
    texts = serializers.ListField(child=serializers.CharField(), help_text="text of each box")
    template = TemplateRefSerializer()
    ai_generated = serializers.BooleanField(help_text="always true: an AI wrote the caption")
    likes = serializers.IntegerField()
    dislikes = serializers.IntegerField()
    favourites = serializers.IntegerField()
    my_reaction = serializers.ChoiceField(choices=[1, 0, -1], help_text="1 liked, -1 disliked, 0 neither")
    favourited = serializers.BooleanField()
    created_at = serializers.DateTimeField()

    @functools.cached_property
    def origin(self) -> str:
        """The site's origin, asked of the request once per answer, not per meme."""
        return site_origin(self.context["request"])

    def to_representation(self, row: dict[str, Any]) -> dict[str, Any]:
        origin = self.origin
        caption = " / ".join(text for text in row["texts"] if text)
        return {
            "id": row["id"],
            "url": f"{origin}/m/{row['id']}/",
            "image": absolute(origin, default_storage.url(row["image"])) if row["image"] else None,
            "width": row["width"],
            "height": row["height"],
            "variants": variants(origin, row),
            "alt": caption or f"{row['template_name']} meme without text",
            "texts": row["texts"],
            "template": {"slug": row["template_slug"], "name": row["template_name"]},
            "ai_generated": True,
            "likes": row["likes"],
            "dislikes": row["dislikes"],
            "favourites": row["favourites"],
            "my_reaction": row["my_reaction"],
            "favourited": bool(row["favourited"]),
            "created_at": CREATED_AT.to_representation(row["created_at"]),
        }


# The item's time as its created_at field writes it (DRF's format, the site's
# time zone), by one field for every answer: asking the item's own field built
# all 15 of the item's fields afresh on every page (DRF deep-copies a
# serializer's declared fields); with ItemsPageSerializer's answer, a page of 20
# costs 0.36-0.55 ms of Python against 0.78-0.91 (docs/feed.md, "Figures").
CREATED_AT = serializers.DateTimeField()


def variants(origin: str, row: dict[str, Any]) -> list[dict[str, Any]]:
    """The meme's stored lighter copies (generation.render.variants), as the API lists them."""
    image, width, height = row["image"], row["width"], row["height"]
    if not image or not width or not height:
        return []
    return [
        {
            "url": absolute(origin, default_storage.url(variant_name(image, copy_width))),
            "width": copy_width,
            "height": variant_height(width, height, copy_width),
            "type": VARIANT_CONTENT_TYPE,
        }
        for copy_width in row["image_variants"] or ()
    ]


def site_origin(request: Any) -> str:
    return f"{request.scheme}://{request.get_host()}"


def absolute(origin: str, url: str) -> str:
    return origin + url if url.startswith("/") else url


class ItemsPageSerializer(serializers.Serializer[dict[str, Any]]):
    """A page of feed items: ``{"next": link, "results": [row, …]}``.

    The fields document the page; to_representation builds it with one item
    serializer, without binding them: DRF deep-copies a serializer's declared
    fields for every answer, and the page's ``results`` copies a list
    serializer and its item serializer each time. With CREATED_AT, a page of
    20 costs 0.36-0.55 ms of Python against 0.78-0.91 (in process, side by
    side; docs/feed.md, "Figures")."""

    def to_representation(self, page: dict[str, Any]) -> dict[str, Any]:
        items = FeedItemSerializer(context=self.context)
        return {"next": page["next"], "results": [items.to_representation(row) for row in page["results"]]}


class FeedPageSerializer(ItemsPageSerializer):
    next = serializers.URLField(
        help_text="the next page; the feed never ends: an empty page means new memes are being made"
    )
    results = FeedItemSerializer(many=True)


class FavouritesPageSerializer(ItemsPageSerializer):
    next = serializers.URLField(allow_null=True)
    results = FeedItemSerializer(many=True)


class TemplateSerializer(serializers.ModelSerializer[Template]):
    """An active template; ``context={"request": request}`` makes its image URL absolute."""

    box_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Template
        fields = ("slug", "name", "image", "box_count")


class TokenSerializer(serializers.Serializer[Token]):
    token = serializers.CharField(source="key")


class HiddenSerializer(serializers.Serializer[Meme]):
    id = serializers.IntegerField()
    status = serializers.CharField()
