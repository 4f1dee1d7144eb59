"""Captions are wrapped into 1–3 lines, choosing the split that allows the
largest font; lines come out balanced, and the size is the largest that fits."""

import itertools

from generation.render.fit import (
    MIN_SIZE,
    balanced_split,
    fit_text,
    largest_fitting_size,
    measure,
    wrap,
)

ROOM = (760, 150)  # pixels: a classic top box of an 800 px meme, less padding


def exhaustive_best(words: list[str], font: str, room: tuple[int, int], cap: int) -> int:
    """The largest exact size over every split into 1–3 lines (brute force)."""
    best = 0
    for count in range(1, min(3, len(words)) + 1):
        for breaks in itertools.combinations(range(1, len(words)), count - 1):
            best = max(best, largest_fitting_size(wrap(words, breaks), font, room, cap))
    return best


def test_a_short_caption_stays_on_one_line() -> None:
    fit = fit_text("NOPE", "thick", ROOM, max_size=100, floor=22)
    assert fit is not None and fit.lines == ("NOPE",)


def test_a_long_caption_is_split_into_even_lines() -> None:
    fit = fit_text("ONE DOES NOT SIMPLY WALK INTO MORDOR WITHOUT WRITING TESTS FIRST", "thick", ROOM, 100, 22)
    assert fit is not None and len(fit.lines) in (2, 3)
    lengths = [len(line) for line in fit.lines]
    assert max(lengths) - min(lengths) <= 12


def test_the_chosen_split_is_as_large_as_the_best_of_all_splits() -> None:
    for caption in [
        "WHAT IF I TOLD YOU",
        "Y U NO WRITE DOCUMENTATION FOR YOUR OWN CODE",
        "I DON'T ALWAYS TEST MY CODE BUT WHEN I DO I DO IT IN PRODUCTION",
        "BRACE YOURSELVES THE MEETINGS ARE COMING",
    ]:
        fit = fit_text(caption, "thick", ROOM, max_size=100, floor=22)
        assert fit is not None
        assert fit.size >= exhaustive_best(caption.split(), "thick", ROOM, 100) - 1, caption


def test_the_size_is_the_largest_that_fits() -> None:
    fit = fit_text("WHEN THE TESTS PASS ON THE FIRST TRY", "thick", ROOM, max_size=200, floor=22)
    assert fit is not None
    width, height = measure(fit.lines, "thick", fit.size)
    assert width <= ROOM[0] and height <= ROOM[1]
    bigger = measure(fit.lines, "thick", fit.size + 1)
    assert bigger[0] > ROOM[0] or bigger[1] > ROOM[1]


def test_balanced_split_minimises_the_widest_line() -> None:
    widths = [5.0, 5.0, 5.0, 5.0, 5.0, 5.0]
    assert balanced_split(widths, 1.0, 2) == (3,)
    assert balanced_split(widths, 1.0, 3) == (2, 4)
    assert balanced_split([30.0, 1.0, 1.0, 1.0], 1.0, 2) == (1,)


def test_a_word_too_long_for_the_box_is_hyphenated_not_shrunk_to_dust() -> None:
    fit = fit_text(
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAND", "thick", (300, 150), 100, 22
    )
    assert fit is not None and fit.size >= 22
    assert all(line.endswith("-") for line in fit.lines[:-1])


def test_nothing_to_draw_gives_no_fit() -> None:
    assert fit_text("   ", "thick", ROOM, 100, 22) is None
    assert fit_text("text", "thick", (3, 3), 100, 22) is None
    assert MIN_SIZE > 0
