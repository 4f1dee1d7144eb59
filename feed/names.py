"""Usernames a reader could take for one another, told by Unicode's confusable
skeleton (UTS #39) as ICU computes it: "аdmin" with a Cyrillic а and "admin"
both have the skeleton "adrnin", as "𝔭𝒶ỿ𝕡𝕒ℓ" and "paypal" both have "paypal".

A name is held under two keys, and a new name is refused when either is held:
its skeleton as written, so "biII" (capital i) cannot stand beside "bill", and
its skeleton once case is folded, so "АLICE" (a Cyrillic А) cannot stand beside
"alice". Neither key alone catches both: folded, "biII" is "biii"; as written,
"АLICE" is "ALlCE" and "alice" is "alice".

ICU's confusables data comes with the system's ICU (libicu), which PyICU is
built against; keys stored under one version are compared with new names under
the same one until ICU is upgraded, when a few rare characters may map anew."""

from __future__ import annotations

import hashlib

import icu

# ICU documents a SpoofChecker as safe to share between threads while nobody
# changes its settings, and getSkeleton changes none.
_CHECKER = icu.SpoofChecker()

TOO_ALIKE = "That name is too like an existing one: a reader could take one for the other. Choose another."


def skeleton(name: str) -> str:
    """UTS #39's skeleton of ``name``: what it looks like, for comparing only (never shown)."""
    # The first argument, a script selector, has been ignored since ICU 58.
    return str(_CHECKER.getSkeleton(0, name))


def name_keys(name: str) -> tuple[str, str]:
    """The keys ``name`` is held under: the SHA-256 (hex) of its skeleton as written,
    and of its skeleton case-folded. Hashed, since a skeleton can be seven times its
    name's length: a 150-syllable Hangul name's is 1,050 characters, 3,150 bytes,
    past the 2,704 bytes PostgreSQL allows an entry of a unique index."""
    as_written = skeleton(name)
    ignoring_case = skeleton(name.casefold())
    return _digest(as_written), _digest(ignoring_case)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
