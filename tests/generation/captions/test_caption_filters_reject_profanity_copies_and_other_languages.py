from generation.captions.filters import CaptionFilter, caption_hashes

TRAINING = [["when the code compiles", "on the first try"]]


def make_filter() -> CaptionFilter:
    return CaptionFilter(caption_hashes(TRAINING))


def test_an_ordinary_new_english_caption_passes() -> None:
    assert make_filter().reason(["when the coffee kicks in", "at five in the afternoon"]) is None


def test_a_verbatim_training_caption_is_rejected_whatever_its_case_or_spacing() -> None:
    assert make_filter().reason(["When the  CODE compiles", "on the first try"]) == "copy"


def test_profane_captions_are_rejected() -> None:
    assert make_filter().reason(["when the code compiles", "holy shit it works"]) == "profanity"
    assert make_filter().reason(["what the fuck is this code"]) == "profanity"
    assert make_filter().reason(["sh1t, the build broke again"]) == "profanity"  # leetspeak
    assert make_filter().reason(["ped.0. this whole night long"]) == "profanity"  # punctuation inside a word


def test_captions_in_another_language_are_rejected() -> None:
    assert (
        make_filter().reason(["cuando te dicen que el examen es mañana y no has estudiado nada"])
        == "not_english"
    )


def test_too_short_too_long_and_empty_boxes_are_rejected() -> None:
    assert make_filter().reason(["lol"]) == "length"
    assert make_filter().reason(["a very long caption " * 10]) == "length"
    assert make_filter().reason(["a perfectly fine top", ""]) == "length"
