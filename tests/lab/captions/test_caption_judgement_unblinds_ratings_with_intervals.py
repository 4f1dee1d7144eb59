"""The blind judgement's arithmetic: ratings read strictly, unblinded per source with Wilson intervals."""

import pytest

from lab.captions.judgement import BlindItem, blind_sheet, read_ratings, unblind, wilson


def test_wilson_interval_matches_the_textbook_values():
    low, high = wilson(14, 71)
    assert (round(low, 3), round(high, 3)) == (0.121, 0.304)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_sheet_round_trips_and_every_answer_must_be_0_or_1():
    sheet = blind_sheet([BlindItem("a1", "Y-U-No", ["y u no", "reply"]), BlindItem("b2", "Y-U-No", ["hi"])])
    assert "y u no | reply" in sheet
    with pytest.raises(ValueError, match="coherent, in_format, funny, offensive must be 0 or 1"):
        read_ratings(sheet)
    filled = sheet.replace(",,,,", ",1,1,0,0")
    assert read_ratings(filled)["a1"] == {"coherent": 1, "in_format": 1, "funny": 0, "offensive": 0}


def test_unblinding_reports_each_source_and_refuses_missing_ratings():
    key = {"a": "product", "b": "human", "c": "product"}
    yes = {"coherent": 1, "in_format": 1, "funny": 0, "offensive": 0}
    no = {"coherent": 0, "in_format": 1, "funny": 0, "offensive": 0}
    report = unblind({"a": yes, "b": yes, "c": no}, key)
    assert report["product"]["coherent"]["yes"] == 1
    assert report["product"]["coherent_and_in_format"]["of"] == 2
    assert report["human"]["in_format"]["rate"] == 1.0
    with pytest.raises(ValueError, match="1 items have no rating"):
        unblind({"a": yes, "b": yes}, key)
