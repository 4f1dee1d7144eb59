import pytest

from generation.captions import CaptionRequest, KeywordError, SamplingSettings, clean_keywords
from generation.captions.errors import TemplateError
from generation.captions.tiny import tiny_caption_model


def test_keywords_are_lowercased_folded_and_deduplicated() -> None:
    assert clean_keywords(["  Monday  Morning ", "coffee", "COFFEE"]) == ["monday morning", "coffee"]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (["a", "b", "c", "d"], "at most 3"),
        (["x" * 31], "over 30 characters"),
        (["  "], "must not be empty"),
        ([42], "must be text"),
        ([None], "must be text"),
        (["shit"], "profanity"),
        (["<|endoftext|>"], "token markers"),
        (["nul\x00here"], "control characters"),
    ],
)
def test_unusable_keywords_raise_a_clear_keyword_error(raw: list[object], message: str) -> None:
    with pytest.raises(KeywordError, match=message):
        clean_keywords(raw)


def test_write_refuses_bad_keywords_and_box_counts_before_sampling() -> None:
    model = tiny_caption_model()
    with pytest.raises(KeywordError):
        model.write(
            [CaptionRequest("Success-Kid", 1, keywords=["one", "two", "three", "four"])], SamplingSettings()
        )
    with pytest.raises(TemplateError, match="box_count"):
        model.write([CaptionRequest("Success-Kid", 0)], SamplingSettings())
