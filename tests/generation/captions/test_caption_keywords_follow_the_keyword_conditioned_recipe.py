from generation.captions.keywords import extract_keywords, uses_keyword


def test_stop_words_and_pronouns_are_never_keywords() -> None:
    keywords = extract_keywords("when you and i are in the kitchen with them")
    assert keywords == ["kitchen"]


def test_verbs_and_adjectives_are_lemmatised_but_plural_nouns_stay_raw() -> None:
    keywords = extract_keywords("running cats")
    assert "run" in keywords and "cats" in keywords


def test_adjacent_content_words_also_form_a_chunk() -> None:
    assert "pot pies" in extract_keywords("frozen pot pies? dude, yes")


def test_a_caption_uses_a_keyword_in_any_inflection() -> None:
    assert uses_keyword("my cat was running away", "run")
    assert uses_keyword("pot pies for dinner", "pot pies")
    assert not uses_keyword("my dog sleeps", "cat")
