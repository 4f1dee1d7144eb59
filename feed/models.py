"""What people see and do: memes with their votes and scores, reactions,
favourites, reports, settings and feed sessions; and the keys that keep
readers' names from looking alike.

A meme's row extends the part generation writes (generation.models.GeneratedMeme);
``Template`` is generation's template under the feed's name (a proxy on the
same row), which the curation admin and the ranking use."""

from __future__ import annotations

import functools
from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any, ClassVar, Literal

from django.conf import settings
from django.db import IntegrityError, connection, models, transaction
from django.db.models import Count, F, OrderBy, OuterRef, Q, Subquery, Sum, Value, Window
from django.db.models.functions import Cast, Coalesce, Greatest, RowNumber
from django.db.models.lookups import GreaterThanOrEqual, LessThan
from django.utils import timezone

from feed.names import TOO_ALIKE, name_keys
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


FEW_VOTES = 5  # likes + dislikes below this count as "few": such memes get shown to earn votes
FEW_VOTES_READY = Q(status="ready") & Q(LessThan(F("likes") + F("dislikes"), FEW_VOTES))

# The feed's orders, each served by a partial index on ready memes (Meme.Meta).
Sort = Literal["hot", "new", "top"]
SORTS: tuple[Sort, ...] = ("hot", "new", "top")
SORT_KEYS: dict[Sort, str] = {"hot": "hot", "new": "created_at", "top": "rating"}
CHUNK = 100  # memes appended to a feed session at a time; ≥ the largest page + the look-ahead
EXPLORE_EVERY = 5  # in hot and top, every fifth place goes to the newest memes with few votes
# Candidates read per part of an extension: a part may have to fill every
# place (the other has run out); when one template crowds them, feed.arrange
# reads other templates' memes besides.
POOL = CHUNK
SEEN_MEMORY = 10_000  # the memes a reader has seen that the feed remembers, newest kept


class Part(models.IntegerChoices):
    """Where a candidate for a feed session's next places comes from."""

    RANKED = 1  # by the sort's key: in hot and top, memes with enough votes (or the reader's vote)
    FRESH = 2  # in hot and top, the newest memes with few votes the reader has not voted on


class MemeQuerySet(models.QuerySet["Meme"]):
    def visible(self) -> MemeQuerySet:
        return self.filter(status=Meme.Status.READY)

    def of_template(self, template_id: int | None) -> MemeQuerySet:
        """One template's memes; every template's for None (the reader's "random")."""
        return self if template_id is None else self.filter(template_id=template_id)

    def with_few_votes(self) -> MemeQuerySet:
        """Ready memes with too few votes to rank them, spelled as the partial
        indexes meme_new_few_votes and meme_template_new_few_votes are."""
        return self.filter(FEW_VOTES_READY)

    def outside_session(self, session: int) -> MemeQuerySet:
        """Memes the feed session does not hold yet. ``NOT IN`` a subquery, which
        PostgreSQL reads once into a hash: compared one by one with every held
        meme (NOT EXISTS, planned as a nested loop), the sixth extension of a
        session cost three times the first (docs/feed.md)."""
        return self.exclude(pk__in=FeedPosition.objects.filter(session=session).values("meme_id"))

    def unseen_by(self, reader: int) -> MemeQuerySet:
        """Memes the reader has not been served in any feed session they
        remember (SeenMeme): ``NOT IN`` their at most SEEN_MEMORY rows, read
        once into a hash from the (user, meme) primary key."""
        return self.exclude(pk__in=SeenMeme.objects.filter(user_id=reader).values("meme_id"))

    def best_first(self, sort: Sort) -> MemeQuerySet:
        return self.order_by(*_order(sort))

    def session_candidates(
        self, session: int, reader: int, sort: Sort, template_id: int | None, unseen: bool, away: int | None
    ) -> models.QuerySet[Any]:
        """Rows (id, template, part) of ready memes the feed session lacks, best
        first within each part; feed.arrange chooses the next places among them.

        In new, one part: the newest. In hot and top, two: RANKED, by the
        sort's key, holds the memes with enough votes to rank them (and those
        the reader voted on, so their vote ranks them); FRESH, the newest memes
        with few votes the reader has not voted on, which take every fifth
        place so new memes get seen and earn votes. A fresh batch of unvoted
        memes therefore leads new but not hot or top. ``unseen`` keeps to the
        memes the reader has not seen on an earlier visit; ``away`` leaves out
        one template (to find others' memes when one template crowds the top)."""
        wanted = self.visible().of_template(template_id).outside_session(session)
        if unseen:
            wanted = wanted.unseen_by(reader)
        if away is not None:
            wanted = wanted.exclude(template_id=away)
        if sort == "new":
            return wanted._part(Part.RANKED, "new")
        voted = Reaction.objects.filter(user_id=reader).values("meme_id")
        enough = Q(GreaterThanOrEqual(F("likes") + F("dislikes"), FEW_VOTES))
        ranked = wanted.filter(Q(pk__in=voted) | enough)._part(Part.RANKED, sort)
        fresh = wanted.with_few_votes().exclude(pk__in=voted)._part(Part.FRESH, "new")
        return ranked.union(fresh, all=True)

    def _part(self, part: Part, sort: Sort) -> models.QuerySet[Any]:
        """The first POOL memes in the sort's order as rows (id, template, part,
        n), n their place in that order (a UNION keeps no order of its own)."""
        n = Window(RowNumber(), order_by=_order(sort))
        rows = self.best_first(sort).annotate(n=n).values("id", "template_id", "n", part=Value(part.value))
        if connection.features.supports_slicing_ordering_in_compound:
            # A LIMIT: PostgreSQL then plans to read only POOL entries of the
            # sort's index. Counted by the window instead, the same plan was
            # costed as reading the whole index, and at a million memes that
            # cost made PostgreSQL compile it with JIT, 280-490 ms a time.
            return rows[:POOL]
        return rows.order_by().filter(n__lte=POOL)  # SQLite allows no LIMIT nor ORDER BY in a UNION's parts

    def showcase(self) -> MemeQuerySet:
        """Memes fit to show strangers, best first: in the feed, drawn, and never
        reported (a page no one signed in to see gets no moderator's look first)."""
        return self.visible().filter(reports=0).exclude(image="").best_first("top")


def _order(sort: Sort) -> list[OrderBy]:
    """Best first by the sort's key, ties by the newest id: a total order."""
    return [F(SORT_KEYS[sort]).desc(), F("id").desc()]


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
        # it skips every meme the reader has seen (up to SEEN_MEMORY): at
        # 100,000 memes (bench/feed.py's data), a reader who had seen 10,000
        # cost 45 ms a hot extension read through the table (skipping 6,125
        # in 22 ms) and 11 ms from the index (6,197 in 3.4 ms).
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
            # (feed.ranking): without these, finding them reads every
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


# Ranking. A Bayesian average pulls memes with few votes toward the prior, so
# one early like does not put a meme above one with 90 likes out of 100.
PRIOR_VOTES = 4.0  # weight of the prior, in votes
PRIOR_LIKE_RATE = 0.5
# A template's like rate is itself pulled toward PRIOR_LIKE_RATE by this many votes.
TEMPLATE_PRIOR_VOTES = 20.0
# Hot: one unit of rating is worth this many hours of recency.
HOT_HOURS_PER_RATING = 48.0
EPOCH = datetime(2025, 1, 1, tzinfo=UTC)


def rating_of(likes: int, dislikes: int, prior: float = PRIOR_LIKE_RATE) -> float:
    return (likes + prior * PRIOR_VOTES) / (likes + dislikes + PRIOR_VOTES)


def hot_of(rating: float, created_at: datetime) -> float:
    hours = (created_at - EPOCH).total_seconds() / 3600
    return hours / HOT_HOURS_PER_RATING + rating


def score_expressions(likes: Any = None, dislikes: Any = None) -> dict[str, Any]:
    """Expressions recomputing rating and hot from the counts, for an UPDATE.

    ``likes`` and ``dislikes`` default to the row's stored counts; pass the
    expressions that set new counts to rescore in the same statement (SQL reads
    the old row on every right-hand side). hot = hours since the epoch / 48 +
    rating; the hours part is fixed per meme, so it is recovered from the
    stored hot minus the stored rating."""
    likes = F("likes") if likes is None else likes
    dislikes = F("dislikes") if dislikes is None else dislikes
    rating = (likes + F("prior") * PRIOR_VOTES) / (likes + dislikes + PRIOR_VOTES)
    return {"rating": rating, "hot": F("hot") - F("rating") + rating}


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
    """One place in one reader's frozen feed (feed/ranking.py explains the design).

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


def insert_rows(
    model: type[models.Model],
    columns: tuple[str, ...],
    rows: list[tuple[Any, ...]],
    ignore_conflicts: bool = False,
) -> None:
    """One multi-row INSERT outside any transaction: a statement, one round
    trip. (``bulk_create`` wraps its INSERT in a transaction, which on
    PostgreSQL is a second round trip for the COMMIT on every feed page.)"""
    if not rows:
        return
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in columns)
    conflicts = " ON CONFLICT DO NOTHING" if ignore_conflicts else ""
    into = f"INSERT INTO {quote(model._meta.db_table)} ({names})"
    if connection.vendor == "postgresql":
        sql = f"{into} {_unnest(model, columns)}{conflicts}"
        params = [list(column) for column in zip(*rows, strict=True)]
    else:
        values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * len(rows))
        sql, params = f"{into} VALUES {values}{conflicts}", [value for row in rows for value in row]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@functools.cache
def _unnest(model: type[models.Model], columns: tuple[str, ...]) -> str:
    """``SELECT * FROM UNNEST(…)`` of one array per column, as Django's own
    bulk insert reads rows on PostgreSQL: one statement text for any number
    of rows, with one value per column, where ``VALUES`` took one per column
    and row. psycopg parses it once per process (it keeps no statement of
    over 50 values) and prepares it once per connection: an extension's 100
    places cost 0.26-0.36 ms of Python against 0.60-0.92 with ``VALUES`` (300
    values), the same PostgreSQL CPU; a page's 20 seen memes cost the same
    either way (in process, side by side; docs/feed.md, "Figures")."""
    types = [model._meta.get_field(column).db_type(connection) for column in columns]
    arrays = ", ".join(f"(%s)::{str(kind).split('(')[0]}[]" for kind in types)
    return f"SELECT * FROM UNNEST({arrays})"


class SeenMemeQuerySet(models.QuerySet["SeenMeme"]):
    def remember(self, reader: int, meme_ids: Collection[int], now: datetime | None = None) -> None:
        """Note that the reader was served these memes: one INSERT, a meme
        already remembered kept as it was (two sessions of one reader, or two
        tabs, serve the same meme at once without an error). Rows go in in meme
        order, so two such INSERTs wait for each other rather than deadlock."""
        at = connection.ops.adapt_datetimefield_value(now or timezone.now())
        rows = [(reader, meme, at) for meme in sorted(set(meme_ids))]
        insert_rows(SeenMeme, ("user_id", "meme_id", "seen_at"), rows, ignore_conflicts=True)

    def forget_oldest(self, keep: int = SEEN_MEMORY) -> int:
        """Keep each reader's ``keep`` most recently seen memes and forget the
        rest, oldest first; returns how many went. The feed's hourly upkeep
        runs it, so between two runs a reader may hold an hour's pages more."""
        crowded = self.values("user_id").annotate(held=Count("meme_id")).filter(held__gt=keep)
        forgotten = 0
        for user_id in crowded.values_list("user_id", flat=True):
            mine = self.filter(user_id=user_id)
            at, meme = mine.order_by("-seen_at", "-meme_id").values_list("seen_at", "meme_id")[keep]
            older = Q(seen_at__lt=at) | Q(seen_at=at, meme_id__lte=meme)
            forgotten += mine.filter(older).delete()[0]
        return forgotten


class SeenMeme(models.Model):
    """A meme a reader was served, remembered across feed sessions so that a
    new visit starts with memes they have not seen (MemeQuerySet.unseen_by);
    at most SEEN_MEMORY per reader (SeenMemeQuerySet.forget_oldest). The meme
    link has no constraint and no index of its own, as FeedPosition's."""

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
