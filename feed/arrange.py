"""The order of a feed session's next places, chosen among its candidates
(MemeQuerySet.session_candidates): plain Python over at most a few hundred rows.

* In hot and top every EXPLORE_EVERY-th place goes to a FRESH candidate (the
  newest memes with few votes), the others to RANKED ones; a part that runs
  out lends its places to the other.
* Mixed (every template, the reader's "Random"): no more than MAX_RUN memes of
  one template in a row while another template has a candidate. The next
  place takes the best candidate that keeps to that, so a fresh batch of 64
  memes of one template is spread among the others instead of shown as a block.
  When every candidate left is of the crowding template, ``more(template)``
  is asked for the best memes of the others (an empty list when there are
  none: then the run goes on).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from feed.models import EXPLORE_EVERY, Part, Sort

MAX_RUN = 3  # memes of one template in a row, at most, while other templates have stock
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
        if found is None and crowding is not None and more is not None and self._may_ask(crowding):
            self.asked.add(crowding)
            self.offer(more(crowding))
            found = self._first(crowding)
        return found if found is not None else self._first(None)

    def _may_ask(self, crowding: int) -> bool:
        """Once per template (its answer holds up to POOL memes of the others,
        more than a chunk needs) and MAX_ASKS times per extension at most."""
        return crowding not in self.asked and len(self.asked) < MAX_ASKS

    def _crowding(self) -> int | None:
        """The template that would make a run too long, when mixing."""
        recent = self.templates[-MAX_RUN:]
        if self.mixed and len(recent) == MAX_RUN and len(set(recent)) == 1:
            return recent[0]
        return None

    def _first(self, avoid: int | None) -> Candidate | None:
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
                if template != avoid:
                    # Those skipped before it are held, or of the template
                    # avoided now and wanted a place or two later.
                    if avoid is None:
                        del pool[: index + 1]
                    else:
                        del pool[index]
                    return meme, template
        return None
