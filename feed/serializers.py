"""What the API accepts (validated here) and what it returns (described here
for the schema; feed items themselves are built as dicts in feed.api, which is
~30× faster than a ModelSerializer)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from feed.models import Report, Template, UserSettings
from feed.ranking import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, SORTS, template_id_for


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
        template_id = template_id_for(slug)
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


# --- responses, for the schema only -------------------------------------------


class TemplateRefSerializer(serializers.Serializer[dict[str, Any]]):
    slug = serializers.SlugField()
    name = serializers.CharField()


class FeedItemSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    url = serializers.URLField(help_text="the meme's permalink page")
    image = serializers.URLField(allow_null=True)
    width = serializers.IntegerField(allow_null=True, help_text="pixels")
    height = serializers.IntegerField(allow_null=True, help_text="pixels")
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


class FeedPageSerializer(serializers.Serializer[dict[str, Any]]):
    next = serializers.URLField(
        help_text="the next page; the feed never ends: an empty page means new memes are being made"
    )
    results = FeedItemSerializer(many=True)


class FavouritesPageSerializer(serializers.Serializer[dict[str, Any]]):
    next = serializers.URLField(allow_null=True)
    results = FeedItemSerializer(many=True)


class TemplateSerializer(serializers.Serializer[dict[str, Any]]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    image = serializers.URLField()
    box_count = serializers.IntegerField()


class TokenSerializer(serializers.Serializer[dict[str, Any]]):
    token = serializers.CharField()


class HiddenSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    status = serializers.CharField()
