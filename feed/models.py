"""What people see and do: memes with their votes and scores, reactions,
favourites, reports, settings, and the rows of feed sessions and of seen
memes; and the keys that keep readers' names from looking alike.

A meme's row extends the part generation writes (generation.models.GeneratedMeme);
``Template`` is generation's template under the feed's name (a proxy on the
same row), which the curation admin and the ranking use.

The models stay here, where Django's app registry loads them; how the feed
ranks and pages them is feed/ranking/'s. Its lowest modules (orders, scores,
the seen memes' queryset) sit below this one: Meme's indexes, its scores and
SeenMeme's manager are built from them."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any, ClassVar

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Cast, Coalesce, Greatest
from django.utils import timezone

from feed.names import TOO_ALIKE, name_keys
from feed.ranking.scores import PRIOR_LIKE_RATE, TEMPLATE_PRIOR_VOTES, hot_of, rating_of, score_expressions
from feed.ranking.seen import SeenMemeQuerySet
from feed.ranking.sorts import FEW_VOTES_READY, Sort, order
from generation import models as generation


class TemplateQuerySet(generation.TemplateQuerySet["Template"]):
    def refresh_like_rates(self) -> int:
        """Recompute each template's like rate from its memes' counts, in one UPDATE.

        Smoothed toward the site-wide prior by TEMPLATE_PRIOR_VOTES, so a new
        template with three likes does not start its memes at 100%."""
        per_template = Meme.objects.filter(template=OuterRef("pk")).order_by().values("template")
        likes = Subquery(per_template.annotate(n=Sum("likes")).values("n"))
        votes = Subquery(per_template.annotate(n=Sum(F("likes") + F("dislikes"))).values("n"))
        smoothed = (Coalesce(likes, 0) + PRIOR_LIKE_RATE * TEMPLATE_PRIOR_VOTES) / (
            Coalesce(votes, 0) + TEMPLATE_PRIOR_VOTES
        )
        return self.update(like_rate=Cast(smoothed, models.FloatField()))


class Template(generation.Template):
    """Generation's template (the same row) as the site curates and ranks it.

    A proxy, so that the curation admin keeps its addresses (/admin/feed/template/)
    and curators keep their permissions, and the feed keeps its like rates here."""

    objects: ClassVar[models.Manager[Template]] = TemplateQuerySet.as_manager()

    class Meta:
        proxy = True


class MemeQuerySet(models.QuerySet["Meme"]):
    """Memes by visibility, template and order, which the feed's ranking
    (feed/ranking/) and the landing page build on."""

    def visible(self) -> MemeQuerySet:
        return self.filter(status=Meme.Status.READY)

    def of_template(self, template_id: int | None) -> MemeQuerySet:
        """One template's memes; every template's for None (the reader's "random")."""
        return self if template_id is None else self.filter(template_id=template_id)

    def with_few_votes(self) -> MemeQuerySet:
        """Ready memes with too few votes to rank them, spelled as the partial
        indexes meme_new_few_votes and meme_template_new_few_votes are."""
        return self.filter(FEW_VOTES_READY)

    def best_first(self, sort: Sort) -> MemeQuerySet:
        return self.order_by(*order(sort))

    def showcase(self) -> MemeQuerySet:
        """Memes fit to show strangers, best first: in the feed, drawn, and never
        reported (a page no one signed in to see gets no moderator's look first)."""
        return self.visible().filter(reports=0).exclude(image="").best_first("top")


class Meme(generation.GeneratedMeme):
    """A meme as readers see it: generation's part of the row (template, texts,
    status, image) and what readers do with it (votes, scores)."""

    likes = models.PositiveIntegerField(default=0)
    dislikes = models.PositiveIntegerField(default=0)
    favourites = models.PositiveIntegerField(default=0)
    reports = models.PositiveIntegerField(default=0)
    # Small-sample-aware rating in [0, 1] ("top") and rating plus recency ("hot").
    rating = models.FloatField(default=0.5)
    hot = models.FloatField(default=0.0)
    # The like rate the rating is pulled toward: the template's like rate
    # when the meme became ready, frozen so a template's swing does not
    # reshuffle old memes.
    prior = models.FloatField(default=0.5)

    objects = MemeQuerySet.as_manager()

    class Meta:
        # The feed's orders. The columns after the order's own let a feed
        # session's extension read its candidates from the index alone, for
        # it skips every meme the reader has seen (up to SEEN_MEMORY,
        # feed.ranking.seen): at 100,000 memes (bench/feed.py's data), a
        # reader who had seen 10,000 cost 45 ms a hot extension read through
        # the table (skipping 6,125 in 22 ms) and 11 ms from the index (6,197
        # in 3.4 ms).
        indexes = [
            models.Index(
                fields=["-hot", "-id", "template", "likes", "dislikes"],
                name="meme_hot",
                condition=Q(status="ready"),
            ),
            models.Index(
                fields=["-rating", "-id", "template", "likes", "dislikes"],
                name="meme_top",
                condition=Q(status="ready"),
            ),
            models.Index(
                fields=["-created_at", "-id", "template"], name="meme_new", condition=Q(status="ready")
            ),
            models.Index(fields=["template", "status"], name="meme_template_status"),
            # The same three orders within one template (the template picker).
            models.Index(
                fields=["template", "-hot", "-id", "likes", "dislikes"],
                name="meme_template_hot",
                condition=Q(status="ready"),
            ),
            models.Index(
                fields=["template", "-rating", "-id", "likes", "dislikes"],
                name="meme_template_top",
                condition=Q(status="ready"),
            ),
            models.Index(
                fields=["template", "-created_at", "-id"],
                name="meme_template_new",
                condition=Q(status="ready"),
            ),
            # The newest memes with few votes, which feed sessions mix in
            # (feed.ranking.sessions): without these, finding them reads every
            # voted-on meme's row on the way.
            models.Index(
                fields=["-created_at", "-id", "template"],
                name="meme_new_few_votes",
                condition=FEW_VOTES_READY,
            ),
            # The media view's question for every image it serves: is a visible meme showing this file?
            models.Index(fields=["image"], name="meme_image_ready", condition=Q(status="ready")),
            models.Index(
                fields=["template", "-created_at", "-id"],
                name="meme_template_new_few_votes",
                condition=FEW_VOTES_READY,
            ),
        ]

    def __str__(self) -> str:
        return " / ".join(self.texts) or f"meme {self.pk}"

    def hide(self) -> None:
        Meme.objects.filter(pk=self.pk, status=Meme.Status.READY).update(status=Meme.Status.HIDDEN)

    def unhide(self) -> None:
        Meme.objects.filter(pk=self.pk, status=Meme.Status.HIDDEN).update(status=Meme.Status.READY)

    @staticmethod
    def initial_scores(ready_at: datetime, prior: float | None = None) -> dict[str, float]:
        """prior, rating and hot for a meme with no votes yet that becomes visible
        at ``ready_at``; ``prior`` is its template's ``like_rate`` (site-wide if None)."""
        prior = PRIOR_LIKE_RATE if prior is None else prior
        rating = rating_of(0, 0, prior)
        return {"prior": prior, "rating": rating, "hot": hot_of(rating, ready_at)}


class Reaction(models.Model):
    LIKE = 1
    DISLIKE = -1

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reactions")
    meme = models.ForeignKey(Meme, on_delete=models.CASCADE, related_name="reactions")
    value = models.SmallIntegerField(choices=[(LIKE, "like"), (DISLIKE, "dislike")])
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "meme"], name="one_reaction_per_user_and_meme"),
            models.CheckConstraint(condition=Q(value__in=[1, -1]), name="reaction_is_like_or_dislike"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {'likes' if self.value == self.LIKE else 'dislikes'} meme {self.meme_id}"


class Favourite(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="favourites")
    meme = models.ForeignKey(Meme, on_delete=models.CASCADE, related_name="favourited_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "meme"], name="one_favourite_per_user_and_meme")
        ]
        indexes = [models.Index(fields=["user", "-created_at", "-id"], name="favourite_user_recent")]

    def __str__(self) -> str:
        return f"{self.user} ♥ meme {self.meme_id}"


# ``?template=random`` on a feed page: every template, whatever the reader's
# preferred one (static/js/feed.js writes it when Random is chosen).
RANDOM_TEMPLATE = "random"


class UserSettings(models.Model):
    class Theme(models.TextChoices):
        LIGHT = "light"
        DARK = "dark"
        SYSTEM = "system"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memesite_settings"
    )
    theme = models.CharField(max_length=10, choices=Theme.choices, default=Theme.SYSTEM)
    preferred_template = models.ForeignKey(
        generation.Template, on_delete=models.SET_NULL, null=True, blank=True
    )
    howto_seen = models.BooleanField(default=False)

    class Meta:
        verbose_name = "user settings"
        verbose_name_plural = "user settings"

    def __str__(self) -> str:
        return f"settings of {self.user}"

    @classmethod
    def for_user(cls, user: Any) -> UserSettings:
        found, _ = cls.objects.get_or_create(user=user)
        return found

    def feed_template(self, asked: str | None, active: Collection[str]) -> str:
        """The slug of the template a feed page shows, "" for every template
        (Random): what the page's URL asks for (``?template=SLUG`` or
        ``?template=random``), else the reader's preferred template. ``active``
        holds the slugs of the active templates; any other slug is no choice."""
        if asked == RANDOM_TEMPLATE:
            return ""
        if asked is not None and asked in active:
            return asked
        preferred = self.preferred_template
        return preferred.slug if preferred is not None and preferred.slug in active else ""

    def show_howto_once(self) -> bool:
        """True the first time a page asks for this reader, False ever after."""
        if self.howto_seen:
            return False
        shown = UserSettings.objects.filter(pk=self.pk, howto_seen=False).update(howto_seen=True)
        self.howto_seen = True
        return shown == 1


class UsernameSkeletonQuerySet(models.QuerySet["UsernameSkeleton"]):
    def like(self, name: str) -> UsernameSkeletonQuerySet:
        """The held names ``name`` is too like: those holding either of its keys (feed/names.py)."""
        as_written, ignoring_case = name_keys(name)
        return self.filter(Q(as_written=as_written) | Q(ignoring_case=ignoring_case))


class UsernameSkeleton(models.Model):
    """The two skeleton keys of a user's name (feed/names.py), each unique, so the
    database itself refuses a name a reader could take for one already held: of two
    lookalike sign-ups at once, one makes an account. ``hold_username_skeleton``
    keeps them on every save of a user. Names that already stood beside a lookalike
    when the keys came (migration 0012) hold none; the first of them holds its own."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    as_written = models.CharField(max_length=64, unique=True)  # SHA-256 of the skeleton, hex
    ignoring_case = models.CharField(max_length=64, unique=True)  # the same, of the case-folded name

    objects = UsernameSkeletonQuerySet.as_manager()

    def __str__(self) -> str:
        return f"skeleton keys of user {self.user_id}"


def refuse_lookalike_username(sender: Any, instance: Any, raw: bool, **kwargs: Any) -> None:
    """A user's pre_save: refuse a new user whose name is too like one held before
    its row is written, so a script or ``createsuperuser`` leaves no user behind.
    Two at once can both pass here; the keys' unique indexes hold then."""
    if not raw and instance._state.adding and UsernameSkeleton.objects.like(instance.get_username()).exists():
        raise IntegrityError(TOO_ALIKE)


def hold_username_skeleton(
    sender: Any, instance: Any, created: bool, raw: bool, update_fields: Collection[str] | None, **kwargs: Any
) -> None:
    """A user's post_save: hold a new name's keys, move them with a rename. A
    lookalike raises IntegrityError, which undoes the user's row as well where the
    save runs in a transaction (sign-up and the admin's forms do)."""
    if raw or (update_fields is not None and "username" not in update_fields):
        return  # a fixture loading, or a save that keeps the name (a sign-in's last_login)
    as_written, ignoring_case = name_keys(instance.get_username())
    if created:
        UsernameSkeleton.objects.create(user=instance, as_written=as_written, ignoring_case=ignoring_case)
    else:
        held = UsernameSkeleton.objects.filter(user=instance)
        held.update(as_written=as_written, ignoring_case=ignoring_case)


def increment(meme_id: int, **changes: int) -> int:
    """Move counters atomically, never below zero, and rescore in the same UPDATE."""
    updates: dict[str, Any] = {name: Greatest(F(name) + delta, 0) for name, delta in changes.items()}
    if "likes" in updates or "dislikes" in updates:
        updates |= score_expressions(updates.get("likes"), updates.get("dislikes"))
    return Meme.objects.filter(pk=meme_id).update(**updates)


class Report(models.Model):
    """A reader's flag on a meme for the moderators; one per reader and meme."""

    class Reason(models.TextChoices):
        OFFENSIVE = "offensive", "offensive or hateful"
        SPAM = "spam", "spam or nonsense"
        BROKEN = "broken", "broken image or unreadable text"
        OTHER = "other", "something else"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    meme = models.ForeignKey(Meme, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=20, choices=Reason.choices, default=Reason.OTHER)
    note = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "meme"], name="one_report_per_user_and_meme")]

    def __str__(self) -> str:
        return f"{self.user} reports meme {self.meme_id}: {self.reason}"


class FeedPosition(models.Model):
    """One place in one reader's frozen feed (feed/ranking/sessions.py explains the design).

    A session's id starts with the second it began, so old sessions are deleted
    by a range on the primary key. The meme link has no constraint and no index
    of its own: memes are hidden rather than deleted, pages join the meme and
    skip a missing one, and the (session, meme) constraint serves every lookup."""

    pk = models.CompositePrimaryKey("session", "position")
    session = models.BigIntegerField()
    position = models.PositiveIntegerField()
    meme = models.ForeignKey(
        Meme, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "meme"], name="feed_position_meme_once")]

    def __str__(self) -> str:
        return f"session {self.session} #{self.position}: meme {self.meme_id}"


class SeenMeme(models.Model):
    """A meme a reader was served, remembered across feed sessions so that a
    new visit starts with memes they have not seen (feed.ranking.sessions.unseen_by);
    at most SEEN_MEMORY per reader (SeenMemeQuerySet.forget_oldest, feed/ranking/seen.py).
    The meme link has no constraint and no index of its own, as FeedPosition's."""

    pk = models.CompositePrimaryKey("user", "meme")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    meme = models.ForeignKey(
        Meme, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+"
    )
    seen_at = models.DateTimeField()

    objects = SeenMemeQuerySet.as_manager()

    class Meta:
        # Finds a reader's oldest memes to forget (the primary key finds their memes).
        indexes = [models.Index(fields=["user", "seen_at", "meme"], name="seen_meme_user_oldest")]

    def __str__(self) -> str:
        return f"{self.user_id} saw meme {self.meme_id}"


# What a reader does to a meme. Each change locks the meme's row first: every
# change updates that row anyway, so the lock adds no waiting, and it makes one
# reader's double-click or two tabs apply one after the other. A meme outside
# the feed (queued, failed, hidden) raises Meme.DoesNotExist.


def _lock_visible(meme_id: int) -> None:
    if not list(Meme.objects.visible().select_for_update().filter(pk=meme_id).values_list("pk")[:1]):
        raise Meme.DoesNotExist(f"meme {meme_id} is not in the feed")


def _count_changes(before: int | None, after: int | None) -> dict[str, int]:
    """Counter moves for a reaction going from ``before`` to ``after`` (None: no reaction)."""
    changes = {"likes": 0, "dislikes": 0}
    for value, delta in ((before, -1), (after, 1)):
        if value == Reaction.LIKE:
            changes["likes"] += delta
        elif value == Reaction.DISLIKE:
            changes["dislikes"] += delta
    return changes


def _reaction_of(meme_id: int, user: Any) -> int | None:
    values = list(Reaction.objects.filter(user=user, meme_id=meme_id).values_list("value", flat=True)[:1])
    return values[0] if values else None


def set_reaction(meme_id: int, user: Any, value: int) -> None:
    """Like (1) or dislike (-1). Switching moves both counts; repeating changes nothing."""
    if value not in (Reaction.LIKE, Reaction.DISLIKE):
        raise ValueError(f"a reaction is 1 or -1, not {value!r}")
    with transaction.atomic():
        _lock_visible(meme_id)
        previous = _reaction_of(meme_id, user)
        if previous == value:
            return
        if previous is None:
            Reaction.objects.create(user=user, meme_id=meme_id, value=value)
        else:
            Reaction.objects.filter(user=user, meme_id=meme_id).update(value=value, updated_at=timezone.now())
        increment(meme_id, **_count_changes(previous, value))


def clear_reaction(meme_id: int, user: Any) -> None:
    with transaction.atomic():
        _lock_visible(meme_id)
        previous = _reaction_of(meme_id, user)
        if previous is None:
            return
        Reaction.objects.filter(user=user, meme_id=meme_id).delete()
        increment(meme_id, **_count_changes(previous, None))


def set_favourite(meme_id: int, user: Any, favourite: bool) -> None:
    with transaction.atomic():
        _lock_visible(meme_id)
        mine = Favourite.objects.filter(user=user, meme_id=meme_id)
        if mine.exists() == favourite:
            return
        if favourite:
            Favourite.objects.create(user=user, meme_id=meme_id)
        else:
            mine.delete()
        increment(meme_id, favourites=1 if favourite else -1)


def report(meme_id: int, user: Any, reason: str, note: str = "") -> bool:
    """File the reader's report once; True when it is new (a repeat counts once)."""
    with transaction.atomic():
        _lock_visible(meme_id)
        _, created = Report.objects.get_or_create(
            user=user, meme_id=meme_id, defaults={"reason": reason, "note": note}
        )
        if created:
            increment(meme_id, reports=1)
        return created
