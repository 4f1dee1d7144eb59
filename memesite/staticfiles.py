"""Static files in production: WhiteNoise's compressed, content-hashed copies
(``site.3f2a….js``), served with ``Cache-Control: max-age=315360000, public,
immutable`` (WhiteNoise's ten years), since a changed file gets a new name.

The pages' scripts are ES modules that import each other by relative URL
(``import { api } from "./api.js"``). Django rewrites those imports to the
hashed names only when asked: without it, a page's hashed ``feed.….js`` loaded
``/static/js/api.js`` by its plain name, which is cached for a minute only and
could come from a newer release than the module importing it."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFiles(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # WhiteNoise has no types
    support_js_module_import_aggregation = True
