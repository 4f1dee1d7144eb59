"""How well OCR read a text: the measure the round-trip benchmark and tests score it by."""

from __future__ import annotations


def edit_distance(first: str, second: str) -> int:
    """Levenshtein distance in characters: the numerator of a character error rate."""
    previous = list(range(len(second) + 1))
    for row, char in enumerate(first, start=1):
        current = [row]
        for column, other in enumerate(second, start=1):
            current.append(min(previous[column] + 1, current[-1] + 1, previous[column - 1] + (char != other)))
        previous = current
    return previous[-1]
