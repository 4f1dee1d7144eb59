"""Commands and benchmarks that compare sampling settings take them as name=value pairs; a bad
pair is refused naming the problem."""

import pytest

from generation.captions import SamplingSettings
from generation.captions.errors import SamplingError


def test_pairs_change_a_copy_and_leave_the_rest() -> None:
    base = SamplingSettings(candidates=3)
    changed = base.changed("temperature=0.8, borrow_template=false keyword_candidates=6")
    assert changed == SamplingSettings(
        candidates=3, temperature=0.8, borrow_template=False, keyword_candidates=6
    )
    assert base.changed("") == base and base.temperature == SamplingSettings().temperature


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("warmth=2", "not name=value of a sampling setting"),
        ("end_bonus", "not name=value of a sampling setting"),
        ("candidates=2.5", "'2.5' is not a value for candidates"),
        ("top_p=2", "top_p must be above 0 and at most 1"),
        ("borrow_template=ture", "'ture' is not a value for borrow_template"),
    ],
)
def test_a_bad_pair_is_refused_with_the_reason(text: str, problem: str) -> None:
    with pytest.raises(SamplingError, match=problem):
        SamplingSettings().changed(text)
