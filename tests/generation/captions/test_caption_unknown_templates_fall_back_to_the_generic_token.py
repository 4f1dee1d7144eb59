import random

from generation.captions import CaptionRequest
from generation.captions.sample import keywords_for, make_rows
from generation.captions.tiny import tiny_caption_model


def test_a_known_template_gets_its_own_token_and_an_unknown_one_the_generic_token() -> None:
    model = tiny_caption_model()
    rng = random.Random(0)
    known = make_rows(model, 0, CaptionRequest("Success-Kid", 1), 1, rng)[0]
    unknown = make_rows(model, 0, CaptionRequest("Brand-New-Template", 1), 1, rng)[0]
    absent = make_rows(model, 0, CaptionRequest(None, 1), 1, rng)[0]
    assert known.prompt[0] == model.ids.templates["Success-Kid"]
    assert unknown.prompt[0] == model.ids.generic == absent.prompt[0]
    assert model.knows("Success-Kid") and model.knows("<|tpl:Success-Kid|>")
    assert not model.knows("Brand-New-Template")


def test_an_unseen_template_without_keywords_borrows_them_from_its_example_captions() -> None:
    request = CaptionRequest("Brand-New-Template", 2, examples=["my cat judges my cooking"])
    keywords = keywords_for(request, known=False, rng=random.Random(0))
    assert 1 <= len(keywords) <= 2
    assert set(keywords) <= {"cat", "judge", "cooking", "cook"}


def test_given_keywords_win_over_example_captions() -> None:
    request = CaptionRequest(None, 1, keywords=["pizza"], examples=["my cat judges my cooking"])
    assert keywords_for(request, known=False, rng=random.Random(0)) == ["pizza"]
