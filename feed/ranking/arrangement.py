"""The order of a feed session's next places, chosen among its candidates
(feed.ranking.sessions.session_candidates): plain Python over at most a few
hundred rows.

* In hot and top every EXPLORE_EVERY-th place goes to a FRESH candidate (the
  newest memes with few votes), the others to RANKED ones; a part that runs
  out lends its places to the other.
* Mixed (every template, the reader's "Random"): no template takes more than
  its share of any few places in a row (SHARES: in hot and top one of any
  five, in new three of any four) while another template has a candidate.
  The next place takes the best candidate that keeps to that, so a fresh
  batch of 64 memes of one template, or a young site's newest memes (made in
  batches, a template at a time), are spread among the others instead of
  filling the page. When every candidate left is of a template that has had
  its share, ``more(template)`` is asked for the best memes of the others (an
  empty list when there are none); when that finds none either, the next place
  at least does not repeat the last one's template.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from feed.ranking.sorts import EXPLORE_EVERY, Part, Sort

# Per sort, (WINDOW, MAX_SHARE): one template holds at most MAX_SHARE of any WINDOW places in a
# row while others have stock. In hot and top, a template returns only after four others: with
# three in a row allowed (the rule before), a newly stocked site's first page was two templates,
# the two stocked last, as every meme there is unvoted and ordered newest first; now five
# (tests/feed/test_feed_random_spreads_a_young_sites_newest_templates.py). New stays the newest
# memes, at most 3 of any 4 places of one template: a fresh batch is what it is for, and with the
# stricter rule it would show nearly the memes hot shows (18 of the first 20 on the batch fixture).
SHARES: dict[Sort, tuple[int, int]] = {"hot": (5, 1), "top": (5, 1), "new": (4, 3)}
MAX_ASKS = 4  # queries for other templates' memes per extension, at most (each one more statement)

Candidate = tuple[int, int]  # (meme id, template id)
More = Callable[[int], list[dict[str, Any]]]


@dataclass
class Arrangement:
    """Places chosen so far, in order, and what is left to choose from."""

    sort: Sort
    mixed: bool
    memes: list[int] = field(default_factory=list)
    templates: list[int] = field(default_factory=list)
    pools: dict[int, list[Candidate]] = field(default_factory=lambda: {Part.RANKED: [], Part.FRESH: []})
    held: set[int] = field(default_factory=set)
    asked: set[int] = field(default_factory=set)  # templates ``more`` was asked to leave out

    def offer(self, rows: Iterable[dict[str, Any]]) -> None:
        """Add candidates behind those already offered, each part in its own order."""
        for row in sorted(rows, key=lambda row: (row["part"], row["n"])):
            if row["id"] not in self.held:
                self.pools[row["part"]].append((row["id"], row["template_id"]))

    def fill(self, count: int, more: More | None = None) -> None:
        """Choose up to ``count`` more places (fewer when the candidates run out)."""
        while len(self.memes) < count:
            chosen = self._choose(more)
            if chosen is None:
                return
            meme, template = chosen
            self.memes.append(meme)
            self.templates.append(template)
            self.held.add(meme)

    def _choose(self, more: More | None) -> Candidate | None:
        crowding = self._crowding()
        found = self._first(crowding)
        for template in sorted(crowding):
            if found is not None or more is None:
                break
            if self._may_ask(template):
                self.asked.add(template)
                self.offer(more(template))
                found = self._first(crowding)
        if found is None and crowding:
            # Every candidate is of a template that has had its share (two
            # templates left, say): at least do not repeat the last one.
            found = self._first(frozenset(self.templates[-1:]))
        return found if found is not None else self._first(frozenset())

    def _may_ask(self, crowding: int) -> bool:
        """Once per template (its answer holds up to POOL memes of the others,
        more than a chunk needs) and MAX_ASKS times per extension at most."""
        return crowding not in self.asked and len(self.asked) < MAX_ASKS

    def _crowding(self) -> frozenset[int]:
        """The templates that have had their share of the window, when mixing."""
        if not self.mixed:
            return frozenset()
        window, share = SHARES[self.sort]
        recent = Counter(self.templates[-(window - 1) :])
        return frozenset(template for template, count in recent.items() if count >= share)

    def _first(self, avoid: frozenset[int]) -> Candidate | None:
        """Take the first candidate not of ``avoid``, from the part this place belongs to first."""
        place = len(self.memes) + 1
        parts = [Part.RANKED, Part.FRESH]
        if self.sort != "new" and place % EXPLORE_EVERY == 0:
            parts.reverse()
        for part in parts:
            pool = self.pools[part]
            for index, (meme, template) in enumerate(pool):
                if meme in self.held:
                    continue
                if template not in avoid:
                    # Those skipped before it are held, or of a template
                    # avoided now and wanted a place or two later.
                    if avoid:
                        del pool[index]
                    else:
                        del pool[: index + 1]
                    return meme, template
        return None
