"""Batched sampling with the KV cache: every variant of every request in one forward loop.

Each row of the batch is one caption: its prompt is left-padded, the loop feeds one token per
row per step through the cached keys and values, and a row stops at its end token. The row's
template box count is enforced on the logits: the box token is allowed only while boxes remain,
the end token only once the last box has started, neither on an empty box.
"""

from __future__ import annotations

import os
import random

import torch

from generation.captions.config import SamplingSettings
from generation.captions.errors import TemplateError
from generation.captions.formats import openings
from generation.captions.keywords import clean_keywords, extract_keywords
from generation.captions.prompt import SpecialIds, encode_texts, prompt_ids
from generation.captions.rerank import caption_costs, choose_varied
from generation.captions.types import Caption, CaptionRequest, LoadedModel, Row
from generation.captions.unseen import stand_in_template
from generation.layout import MAX_BOXES
from generation.moderation import shown_form

MAX_VARIANTS = 64  # per request; more is a batch job, not a request


def check_request(request: CaptionRequest) -> CaptionRequest:
    """Validated copy: box count 1-10, n 0-64, keywords cleaned (KeywordError if unusable)."""
    if not 1 <= request.box_count <= MAX_BOXES:
        raise TemplateError(f"box_count must be 1-{MAX_BOXES}, got {request.box_count}")
    if not 0 <= request.n <= MAX_VARIANTS:
        raise TemplateError(f"n must be 0-{MAX_VARIANTS}, got {request.n}")
    examples = [e for e in request.examples if isinstance(e, str) and e.strip()]
    return CaptionRequest(
        request.template_key, request.box_count, clean_keywords(request.keywords), examples, request.n
    )


def keywords_for(
    request: CaptionRequest, known: bool, rng: random.Random, formatted: bool = False
) -> list[str]:
    """The request's keywords; for an unseen template without any, and without a format read
    off its examples, 1-2 from its example captions."""
    if request.keywords or known or not request.examples or formatted:
        return list(request.keywords)
    pool = sorted({k for text in request.examples for k in extract_keywords(text) if " " not in k})
    return rng.sample(pool, min(len(pool), rng.randint(1, 2)))


def make_rows(
    model: LoadedModel,
    request_index: int,
    request: CaptionRequest,
    count: int,
    rng: random.Random,
    stand_in: str | None = None,
) -> list[Row]:
    """``count`` rows for one request; an unseen template's rows go under ``stand_in``, a trained
    template's name (unseen.py), or the generic token without one."""
    known = request.template_key is not None and model.knows(request.template_key)
    opening_ids = [] if known else box_openings(model, request)
    rows = []
    for _ in range(count):
        keywords = keywords_for(request, known, rng, formatted=any(opening_ids))
        template = model.ids.template(request.template_key if known else stand_in)
        prompt = prompt_ids(model.ids, template, encode_texts(model.tokenizer, keywords))
        rows.append(Row(request_index, keywords, prompt, request.box_count, opening_ids))
    return rows


def box_openings(model: LoadedModel, request: CaptionRequest) -> list[list[int]]:
    """Token ids each box of an unseen template opens with, read off its examples (formats.py)."""
    texts = openings(request.examples, request.box_count)
    if not any(texts):
        return []
    return encode_texts(model.tokenizer, texts)  # an empty opening encodes to no tokens


def constrain(logits: torch.Tensor, ids: SpecialIds, live: Progress) -> torch.Tensor:
    """(b, V) logits with impossible next tokens at -inf, given each row's box progress.

    No prompt token may appear inside a caption; the box token only while boxes remain and the
    end token only in the last box, neither right after a box starts (no empty boxes).
    """
    box, eos = logits[:, ids.box].clone(), logits[:, ids.eos].clone()  # (b,)
    logits[:, ids.all_special()] = float("-inf")
    last_box = live.boxes_done >= live.box_counts - 1  # (b,)
    nonempty = live.box_len > 0
    logits[:, ids.box] = torch.where(~last_box & nonempty, box, float("-inf"))
    logits[:, ids.eos] = torch.where(last_box & nonempty, eos, float("-inf"))
    return logits


MAX_DRAWS = 8  # draws per row before the nucleus is found by sorting (each misses with p < 1 - top_p)
SURELY_IN = 1e-3  # a token this much likelier than 1 - top_p is in the nucleus whatever the rest


def pick_tokens(logits: torch.Tensor, settings: SamplingSettings, generator: torch.Generator) -> torch.Tensor:
    """(B,) next tokens: temperature, then top-k, then top-p (nucleus) sampling.

    Sorting the whole 6k-token vocabulary of every row each step cost more than the model's
    forward pass on CPU, so nucleus sampling is done by rejection instead: draw from the whole
    distribution and keep the draw when the tokens likelier than it hold less than top_p of
    the mass (the nucleus: the sorted prefix up to and including the first token over
    top_p; tokens tied with that one are in too). A draw falls outside with probability
    under 1 - top_p, and rows drawn outside draw again; kept draws are distributed as the
    nucleus renormalised. Rows still outside after MAX_DRAWS are sampled from their sorted
    nucleus.
    """
    logits = logits / max(settings.temperature, 1e-5)  # (B, V)
    vocab = logits.size(-1)
    if 0 < settings.top_k < vocab:  # top-k first, then top-p over the renormalised k
        values, indices = torch.topk(logits, settings.top_k)  # (B, k), best first
        return sample_nucleus(values, indices, values.logsumexp(-1, keepdim=True), settings.top_p, generator)
    probs = torch.softmax(logits, -1)  # (B, V)
    cdf = probs.cumsum(-1)
    out = draw(cdf, torch.arange(probs.size(0), device=probs.device), generator)
    if not 0 < settings.top_p < 1:
        return out
    todo = torch.arange(probs.size(0), device=probs.device)
    for _ in range(MAX_DRAWS):
        outside = outside_nucleus(probs[todo], out[todo], settings.top_p)
        todo = todo[outside]
        if len(todo) == 0:
            return out
        out[todo] = draw(cdf, todo, generator)
    values, indices = torch.sort(logits[todo], descending=True)
    total = logits[todo].logsumexp(-1, keepdim=True)
    out[todo] = sample_nucleus(values, indices, total, settings.top_p, generator)
    return out


def draw(cdf: torch.Tensor, rows: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One token for each of ``rows`` from the whole distribution (inverse CDF;
    torch.multinomial is many times slower on CPU)."""
    u = torch.rand((len(rows), 1), generator=generator, device=cdf.device) * cdf[rows, -1:]
    # right: the first token whose CDF passes u, so a token of probability 0 is never drawn
    return torch.searchsorted(cdf[rows], u, right=True).squeeze(1).clamp(max=cdf.size(-1) - 1)


def outside_nucleus(probs: torch.Tensor, tokens: torch.Tensor, top_p: float) -> torch.Tensor:
    """(b,) whether each row's token lies outside its top-p nucleus: the tokens
    likelier than it already hold top_p of the mass. Tokens likelier than
    1 - top_p are inside whatever the rest, so only the others are summed."""
    chosen = probs.gather(1, tokens[:, None])  # (b, 1)
    outside = torch.zeros(len(tokens), dtype=torch.bool, device=probs.device)
    doubtful = (chosen.squeeze(1) <= 1 - top_p + SURELY_IN).nonzero().squeeze(1)
    if len(doubtful):
        rows = probs[doubtful]
        above = torch.where(rows > chosen[doubtful], rows, 0).sum(-1)
        outside[doubtful] = above >= top_p
    return outside


def sample_nucleus(
    values: torch.Tensor, indices: torch.Tensor, total: torch.Tensor, top_p: float, generator: torch.Generator
) -> torch.Tensor:
    """(b,) samples among sorted candidates (b, k) whose probabilities are exp(values - total)."""
    probs = (values - total).exp()  # (b, k), best first
    if 0 < top_p < 1:
        probs = probs * (probs.cumsum(-1) - probs < top_p)  # keep up to and including the first over p
    cdf = probs.cumsum(-1)  # (b, k); its last column is the kept mass
    u = torch.rand((values.size(0), 1), generator=generator, device=values.device) * cdf[:, -1:]
    choice = (cdf < u).sum(-1).clamp(max=values.size(-1) - 1)  # inverse-CDF sampling, (b,)
    return indices.gather(1, choice[:, None]).squeeze(1)


def left_pad(prompts: list[list[int]], pad: int, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """(B, P) ids and attention mask, prompts aligned on the right so all rows continue together."""
    width = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), width), pad, dtype=torch.long)
    mask = torch.zeros((len(prompts), width), dtype=torch.long)
    for i, p in enumerate(prompts):
        ids[i, width - len(p) :] = torch.tensor(p)
        mask[i, width - len(p) :] = 1
    return ids.to(device), mask.to(device)


@torch.no_grad()
def sample_boxes(
    model: LoadedModel, rows: list[Row], settings: SamplingSettings, generator: torch.Generator
) -> list[list[str] | None]:
    """Boxes per row, or None for a row that did not reach its end token in time.

    Rows that finish leave the batch (and the KV cache) once an eighth of it has finished, so
    the loop's cost follows the captions' mean length rather than the longest one's; copying
    the cache at every finished row cost more than carrying a few dead rows.

    With ``settings.template_guidance`` other than 1, each row runs twice, once more with the
    generic template token, and its first ``settings.guided_tokens`` tokens are drawn from the
    guided log-probabilities (see guide); then the generic copies leave the batch.
    """
    if not rows:
        return []
    gpt, ids, device = model.model.eval(), model.ids, model.device
    input_ids, attention = left_pad([r.prompt for r in rows], ids.pad, device)  # (B, P)
    positions = (attention.cumsum(-1) - 1).clamp(min=0)  # (B, P): pads do not shift positions
    live = Progress(torch.tensor([r.box_count for r in rows], device=device))
    steps = min(settings.max_new_tokens, gpt.config.n_positions - input_ids.size(1))
    tokens = torch.full((len(rows), max(steps, 0)), ids.pad, dtype=torch.long, device=device)  # (B, steps)
    finished = torch.zeros(len(rows), dtype=torch.bool, device=device)  # (B,)
    boost = KeywordBoost(model, rows, hold_open=not settings.bare_keyword_boxes)
    opening = Openings(rows)
    bonus = boost.bonus(settings.keyword_boost, settings.keyword_start_share)  # (2, B, V) or None
    used = torch.zeros(len(rows), dtype=torch.bool, device=device)  # (B,) a keyword was started
    guided = settings.template_guidance != 1 and any(r.prompt[0] != ids.generic for r in rows)
    out = gpt(
        input_ids=with_generic(input_ids, attention, ids.generic) if guided else input_ids,
        attention_mask=twice(attention, guided),
        position_ids=twice(positions, guided),
        use_cache=True,
        logits_to_keep=1,  # the vocabulary projection of the prompt's last token only
    )
    for t in range(steps):
        last = out.logits[:, -1, :].float()  # (b, V), or (2b, V) with the generic copies second
        logits = constrain(guide(last, settings.template_guidance) if guided else last, ids, live)
        if settings.end_bonus:
            logits[:, [ids.box, ids.eos]] += settings.end_bonus  # -inf (not allowed here) stays -inf
        if bonus is not None:  # nudge rows that have not used a keyword yet towards one
            at_start = live.box_len == 0  # (b,) the next token starts a box
            nudge = torch.where(at_start[:, None], bonus[1, live.rows], bonus[0, live.rows])  # (b, V)
            logits += nudge * (~used[live.rows]).unsqueeze(1)
            boost.end_words(logits, live.rows)
            boost.keep_boxes_open(logits, live.rows, ids)
        nxt = pick_tokens(logits, settings, generator)  # (b,)
        if bonus is not None:
            nxt, started = boost.complete(nxt, live.rows, used, at_start)
            used[live.rows] |= started
        nxt = opening.force(nxt, live.rows)
        tokens[live.rows, t] = nxt  # an ended row's later tokens come after its end token: ignored
        finished[live.rows[live.advance(nxt, ids)]] = True
        opening.box_started(nxt == ids.box, live.rows, live.boxes_done)
        if bool(live.ended.all()):
            break
        if live.worth_compacting():
            keep = (~live.ended).nonzero().squeeze(1)  # (b',)
            both = torch.cat([keep, keep + len(live.ended)]) if guided else keep
            out.past_key_values.batch_select_indices(both)
            live.select(keep)
            nxt, attention, positions = nxt[keep], attention[keep], positions[keep]
        if guided and t + 1 >= settings.guided_tokens:  # the generic copies are done: drop them
            out.past_key_values.batch_select_indices(torch.arange(len(live.ended), device=device))
            guided = False
        attention = torch.cat([attention, torch.ones_like(attention[:, :1])], dim=1)  # (b, P + t + 1)
        positions = positions[:, -1:] + 1  # (b, 1)
        out = gpt(
            input_ids=twice(nxt[:, None], guided),
            attention_mask=twice(attention, guided),
            position_ids=twice(positions, guided),
            past_key_values=out.past_key_values,
            use_cache=True,
            logits_to_keep=1,
        )
    return [
        decode_boxes(model, seq) if ok else None
        for seq, ok in zip(tokens.tolist(), finished.tolist(), strict=True)
    ]


def twice(x: torch.Tensor, guided: bool) -> torch.Tensor:
    """The batch stacked on itself when guided (the generic-template copies share its masks)."""
    return torch.cat([x, x]) if guided else x


def with_generic(input_ids: torch.Tensor, attention: torch.Tensor, generic: int) -> torch.Tensor:
    """(2B, P): the prompts, then the same prompts with their template token made generic."""
    plain = input_ids.clone()
    first = attention.argmax(-1)  # (B,) where each left-padded prompt starts: its template token
    plain[torch.arange(len(plain), device=plain.device), first] = generic
    return torch.cat([input_ids, plain])


def guide(logits: torch.Tensor, scale: float) -> torch.Tensor:
    """(b, V) guided next-token logits from (2b, V), the generic-template copies second
    (classifier-free guidance): log p(x|generic) + scale * (log p(x|template) - log p(x|generic)).

    Raw logits stand in for log-probabilities: they differ by a constant per row, which leaves
    the softmax unchanged.
    """
    cond, plain = logits.chunk(2)
    return plain.add_(cond.sub_(plain).mul_(scale))  # in place: cond and plain are not used again


class KeywordBoost:
    """Helps rows use their keywords: a logit bonus on each keyword's first token until one is
    started, then the rest of that keyword's tokens, so a started keyword is finished whole
    ("qu" + "antum", not "qu" + "ise"). Mid-box the bonus goes to the spelling with a leading
    space, at a box's start to the bare one, so a keyword never glues onto the previous word.

    With ``hold_open``, a box that opens with a keyword (boosted, or the model's own once one is
    used) may not end until a word follows it: the boost made the keyword open a box where the
    model had nothing to say with it, and the model then closed the box on the bare word
    ("coffee | coffee to my coffee")."""

    def __init__(self, model: LoadedModel, rows: list[Row], hold_open: bool = True) -> None:
        self.vocab, self.device = len(model.tokenizer), model.device
        # per row, per position (0 = mid-box, 1 = box start): token ids of each keyword spelling
        self.spellings: list[tuple[list[list[int]], list[list[int]]]] = []
        for row in rows:
            mid = [ids for ids in encode_texts(model.tokenizer, [" " + k for k in row.keywords]) if ids]
            start = [ids for ids in encode_texts(model.tokenizer, row.keywords) if ids]
            self.spellings.append((mid, start))
        self.pending: dict[int, list[int]] = {}  # row -> tokens still to force
        self.ended: set[int] = set()  # rows whose keyword just ended: the next token must not extend it
        self.hold_open = hold_open
        self.alone: set[int] = set()  # rows whose box holds only a keyword (and punctuation) so far
        vocab = model.tokenizer.convert_ids_to_tokens(list(range(self.vocab)))
        # Byte-level BPE: a token that starts a new word begins with "Ġ" (a space) or punctuation.
        self.extends_word = torch.tensor([t[:1].isalnum() for t in vocab], device=self.device)  # (V,)
        self.has_word = [any(c.isalnum() for c in t) for t in vocab]  # (V,) not punctuation alone

    def bonus(self, nats: float, start_share: float = 1.0) -> torch.Tensor | None:
        """(2, B, V) bonus on first tokens (mid-box, box start: ``start_share`` of ``nats``),
        or None when off or no keywords."""
        if nats <= 0 or not any(mid for mid, _ in self.spellings):
            return None
        out = torch.zeros((2, len(self.spellings), self.vocab), device=self.device)
        for i, pair in enumerate(self.spellings):
            for position, spellings in enumerate(pair):
                out[position, i, [ids[0] for ids in spellings]] = nats * (start_share if position else 1.0)
        return out

    def complete(
        self, nxt: torch.Tensor, rows: torch.Tensor, used: torch.Tensor, at_start: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(b,) next tokens, with the rest of a just-started keyword forced in place of samples,
        and (b,) whether each row started a keyword with this token."""
        tokens, originals, done, starts = nxt.tolist(), rows.tolist(), used[rows].tolist(), at_start.tolist()
        started = [False] * len(tokens)
        for i, (token, row) in enumerate(zip(tokens, originals, strict=True)):
            if self.pending.get(row):
                tokens[i] = self.pending[row].pop(0)
                if not self.pending[row]:
                    self.ended.add(row)
                continue
            if row in self.alone and self.has_word[token]:
                self.alone.discard(row)  # a word after the keyword: the box may end from here
            spellings = self.watched(row, done[i], starts[i])
            rest: list[int] | None = next((ids[1:] for ids in spellings if ids[0] == token), None)
            if rest is not None:
                started[i] = True
                self.pending[row] = list(rest)
                if not rest:
                    self.ended.add(row)
                if starts[i] and self.hold_open:
                    self.alone.add(row)
        return (
            torch.tensor(tokens, dtype=nxt.dtype, device=nxt.device),
            torch.tensor(started, dtype=torch.bool, device=nxt.device),
        )

    def watched(self, row: int, used: bool, at_start: bool) -> list[list[int]]:
        """The keyword spellings whose first token starts a keyword for this row now: until one
        is used, the spellings for the position; when boxes are held open, also any spelling
        that opens a box, since the model opens boxes with " coffee" too (drawn as "coffee")."""
        mid, start = self.spellings[row]
        if self.hold_open and at_start:
            return start + mid
        return [] if used else (start if at_start else mid)

    def keep_boxes_open(self, logits: torch.Tensor, rows: torch.Tensor, ids: SpecialIds) -> None:
        """Forbid the box and end tokens to rows whose box holds only their keyword so far."""
        if not self.alone:
            return
        for i, row in enumerate(rows.tolist()):
            if row in self.alone and not self.pending.get(row):
                logits[i, [ids.box, ids.eos]] = float("-inf")

    def end_words(self, logits: torch.Tensor, rows: torch.Tensor) -> None:
        """After a keyword, forbid tokens that would run on into it ("wait" + "bairs")."""
        if not self.ended:
            return
        for i, row in enumerate(rows.tolist()):
            if row in self.ended:
                logits[i, self.extends_word] = float("-inf")
        self.ended.clear()


class Openings:
    """Makes each box of a row open with the row's opening tokens for that box (a new
    template's format, formats.py): they replace the samples, as a started keyword's rest does."""

    def __init__(self, rows: list[Row]) -> None:
        self.openings = {i: row.openings for i, row in enumerate(rows) if any(row.openings)}
        self.pending = {i: list(boxes[0]) for i, boxes in self.openings.items() if boxes[0]}  # row -> tokens

    def force(self, nxt: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
        """(b,) next tokens, with each row's next opening token in place of its sample."""
        if not self.pending:
            return nxt
        tokens = nxt.tolist()
        for i, row in enumerate(rows.tolist()):
            if self.pending.get(row):
                tokens[i] = self.pending[row].pop(0)
        return torch.tensor(tokens, dtype=nxt.dtype, device=nxt.device)

    def box_started(self, is_box: torch.Tensor, rows: torch.Tensor, boxes_done: torch.Tensor) -> None:
        """Queue the opening of the box each row just started with a box token."""
        if not self.openings:
            return
        for i in is_box.nonzero().squeeze(1).tolist():
            row, box = int(rows[i]), int(boxes_done[i])
            if row in self.openings and box < len(self.openings[row]):
                self.pending[row] = list(self.openings[row][box])


COMPACT_AT = 8  # drop ended rows once they are 1/8 of the batch


class Progress:
    """Box progress of the rows still being sampled, and which original rows they are."""

    def __init__(self, box_counts: torch.Tensor) -> None:
        self.rows = torch.arange(len(box_counts), device=box_counts.device)  # (b,) original row index
        self.box_counts = box_counts  # (b,)
        self.boxes_done = torch.zeros_like(box_counts)  # (b,) box tokens emitted
        self.box_len = torch.zeros_like(box_counts)  # (b,) tokens in the current box
        self.ended = torch.zeros_like(box_counts, dtype=torch.bool)  # (b,) past its end token

    def advance(self, nxt: torch.Tensor, ids: SpecialIds) -> torch.Tensor:
        """Count the new tokens into boxes; returns which rows just ended."""
        is_box = nxt == ids.box
        self.boxes_done += is_box.long()
        self.box_len = torch.where(is_box, torch.zeros_like(self.box_len), self.box_len + 1)
        just_ended = (nxt == ids.eos) & ~self.ended
        self.ended |= just_ended
        return just_ended

    def worth_compacting(self) -> bool:
        """Whether enough rows have ended to drop them from the batch and the cache."""
        return int(self.ended.sum()) * COMPACT_AT >= len(self.ended)

    def select(self, keep: torch.Tensor) -> None:
        self.rows, self.box_counts = self.rows[keep], self.box_counts[keep]
        self.boxes_done, self.box_len = self.boxes_done[keep], self.box_len[keep]
        self.ended = self.ended[keep]


def decode_boxes(model: LoadedModel, seq: list[int]) -> list[str]:
    """Split a sampled sequence at box tokens, stop at the end token, decode, and fold each box
    as it will be drawn (NFKC, spaces), the form the filters check."""
    ids = model.ids
    seq = seq[: seq.index(ids.eos)] if ids.eos in seq else seq
    boxes: list[list[int]] = [[]]
    for token in seq:
        if token == ids.box:
            boxes.append([])
        else:
            boxes[-1].append(token)
    return [shown_form(str(model.tokenizer.decode(b, skip_special_tokens=True))) for b in boxes]


def write_captions(
    model: LoadedModel,
    requests: list[CaptionRequest],
    settings: SamplingSettings,
    rng_seed: int | None = None,
) -> list[Caption]:
    """n filtered captions per request (fewer if the filters keep rejecting), in request order.

    Rejected captions are resampled in further rounds, up to ``settings.max_attempts`` rounds;
    each round is one batched forward loop over every caption still missing.
    """
    seed = rng_seed if rng_seed is not None else int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    generator = torch.Generator(device=model.device).manual_seed(seed)
    checked = [check_request(r) for r in requests]
    accepted: list[list[Caption]] = [[] for _ in checked]
    sampling = settings.to_dict() | {"seed": seed}
    # candidates, the best r.n are kept
    wanted = [r.n * (settings.keyword_candidates if r.keywords else settings.candidates) for r in checked]
    stand_ins = [stand_in_template(model, r) if settings.borrow_template else None for r in checked]
    for attempt in range(settings.max_attempts):
        factor = settings.oversample if attempt == 0 else 2.0  # later rounds: what is left failed before
        rows = [
            row
            for i, r in enumerate(checked)
            if (missing := wanted[i] - len(accepted[i])) > 0
            for row in make_rows(model, i, r, max(1, round(missing * factor)), rng, stand_ins[i])
        ]
        if not rows:
            break
        for row, boxes in zip(rows, sample_boxes(model, rows, settings, generator), strict=True):
            taken = accepted[row.request]
            if boxes is None or len(taken) >= wanted[row.request] or any(c.boxes == boxes for c in taken):
                continue
            if model.filter.reason(boxes) is None:
                taken.append(Caption(boxes, row.keywords, model.version, sampling, row.request))
    return best_of(model, checked, accepted, settings.length_cost)


def best_of(
    model: LoadedModel,
    requests: list[CaptionRequest],
    accepted: list[list[Caption]],
    length_cost: float = 0.0,
) -> list[Caption]:
    """Each request's n lowest-cost candidates (rerank.py), in request order."""
    if all(len(group) <= r.n for r, group in zip(requests, accepted, strict=True)):
        return [c for group in accepted for c in group]
    flat = [c for group in accepted for c in group]
    # A new template's candidates are scored under the generic token, not the stand-in they were
    # written under (unseen.py): scored under the stand-in, 8 of 96 shown captions changed (the
    # eight templates of bench/data/new-templates.json, two seeds), too few for readers to judge.
    candidates = [(requests[c.request_index].template_key or "", c.boxes, c.keywords) for c in flat]
    costs = iter(caption_costs(model.model, model.tokenizer, candidates, model.vocabulary, length_cost))
    shown: list[Caption] = []
    for r, group in zip(requests, accepted, strict=True):
        group_costs = [next(costs) for _ in group]
        shown += [group[i] for i in choose_varied([c.boxes for c in group], group_costs, r.n)]
    return shown
