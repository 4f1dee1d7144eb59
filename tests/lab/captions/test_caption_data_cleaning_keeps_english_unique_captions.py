from generation.captions.text import caption_text
from lab.captions.data import clean_captions, is_validation, split_captions


def test_cleaning_folds_case_and_space_and_drops_junk_duplicates_and_other_languages() -> None:
    memes = {
        "Success-Kid": [
            ["FINALLY   fixed", "the BUG"],
            ["finally fixed", "the bug"],  # duplicate once normalised
            ["ok"],  # too short
            ["caf\u00e9 au lait every morning"],  # non-ASCII
            ["!!!!!!!!!!!! ???????"],  # few letters
            ["cuando te dicen que el examen es manana y no has estudiado"],  # Spanish
            ["", "when the coffee kicks in"],  # empty box dropped, caption kept
        ]
    }
    kept, report = clean_captions(memes)
    assert kept["Success-Kid"] == [["finally fixed", "the bug"], ["when the coffee kicks in"]]
    assert report["dropped_duplicate"] == 1 and report["dropped_length"] == 1
    assert report["dropped_non_ascii"] == 1 and report["dropped_few_letters"] == 1
    assert report["dropped_non_english"] == 1


def test_the_validation_split_depends_only_on_the_caption_text() -> None:
    memes = {"A": [[f"caption number {i}"] for i in range(2000)]}
    train, val = split_captions(memes, 0.05)
    _again_train, again_val = split_captions({"A": list(reversed(memes["A"]))}, 0.05)
    assert sorted(map(caption_text, val["A"])) == sorted(map(caption_text, again_val["A"]))
    assert 50 <= len(val["A"]) <= 150
    assert all(is_validation(caption_text(c), 0.05) for c in val["A"])
    assert not {caption_text(c) for c in train["A"]} & {caption_text(c) for c in val["A"]}
