"""Ranking and paging the feed, in one place (docs/ARCHITECTURE.md, docs/feed.md).

Below feed/models.py, which builds its indexes, scores and managers from them
(they import no model): ``sorts`` (the feed's orders, the few-votes rule, the
parts of a session's places), ``scores`` (rating and hot), ``seen`` (the
memory of memes a reader was served: SeenMeme's queryset) and ``inserts``
(multi-row INSERTs).

Above feed/models.py: ``sessions`` (frozen feeds: starting, extending with
their candidates, forgetting), ``arrangement`` (choosing a session's next
places among its candidates), ``compiled`` (querysets compiled once per
shape), ``cursors``, ``items`` (a feed item's columns) and ``pages``.

The feed's API and views call these; nothing here imports a view, the API or
a serializer. This package re-exports nothing: import each name from its module.
"""
