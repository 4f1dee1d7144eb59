"""Templates the model was never trained on: which trained template's token they borrow.

A template a curator adds has no template token of its own, and its captions written under the
generic token ignore its format (formats.py forces the openings its examples share, where they
share any). Its example captions also say which trained template it is most like: the one under
which they read likeliest. Its rows use that template's token (``SamplingSettings.
borrow_template``) — Scumbag Steve's for a new Bad Luck Brian, Running Away Balloon's for
Distracted Boyfriend.

Eight such templates (``bench/data/new-templates.json``: four curator examples each, and eight
more captions held out): the held-out captions score 1.048 nats/char under the generic token and
1.013 under the stand-in; judged blind against openings alone, coherent 24.0% against 19.8% (two
sheets; 18.8% coherent and 22.2% in format over the six sheets it was judged in, docs/captions.md).
"""

from __future__ import annotations

from functools import lru_cache

from generation.captions.scoring import caption_nats
from generation.captions.text import normalize_caption
from generation.captions.types import CaptionRequest, LoadedModel

MAX_EXAMPLES = 8  # examples read per template: 88 templates x 8 short captions


def stand_in_template(model: LoadedModel, request: CaptionRequest) -> str | None:
    """For a template the model was never trained on, the trained template its examples of its
    box count read likeliest under, the examples read as the model was trained (lowercased,
    whitespace folded: meme text is often typed in capitals); None for a trained template, or
    one without such examples."""
    if request.template_key is not None and model.knows(request.template_key):
        return None
    captions = (normalize_caption(text.split("|")) for text in request.examples)
    fitting = tuple(tuple(c) for c in captions if len(c) == request.box_count)
    return likeliest_template(model, fitting[:MAX_EXAMPLES]) if fitting else None


# A template's jobs ask with the same examples again and again, and a miss costs 1.5-2.3 s; an
# entry is a few hundred bytes, so a worker remembers every curator template a site is likely to
# have. A worker loads one model for its life, which the cache keeps alive anyway.
@lru_cache(maxsize=4096)
def likeliest_template(model: LoadedModel, examples: tuple[tuple[str, ...], ...]) -> str | None:
    """The trained template under which the examples' (boxes each) total nats are lowest (None
    for a model trained on no template names)."""
    captions = [list(boxes) for boxes in examples]
    slugs = sorted(model.ids.templates)
    if not slugs:
        return None
    nats = caption_nats(model.model, model.tokenizer, [(slug, c) for slug in slugs for c in captions])
    totals = [sum(nats[i * len(captions) : (i + 1) * len(captions)]) for i in range(len(slugs))]
    return slugs[totals.index(min(totals))]
