"""Reranking knows which neighbouring words people put together: a caption stringing words
that never meet in training ("purple chair camera") costs more than one people would write,
and the vocabulary a training run saves is read back by the model."""

from pathlib import Path

from generation.captions.rerank import UNSEEN_PAIR_COST, Vocabulary, known_pairs, text_cost

# Three times over: a word is known once seen 3 times, a pair once seen twice.
TRAINING = [["i once ate a pizza", "for two days"], ["i once ate a pizza"], ["for two days", "i once"]] * 3


def test_pairs_seen_often_enough_in_one_box_are_known() -> None:
    pairs = known_pairs(["i once ate", "i once slept", "ate i"], min_count=2)
    assert pairs == [("i", "once")]


def test_a_caption_of_unseen_word_pairs_costs_more_than_one_people_write() -> None:
    known = Vocabulary.of(TRAINING)
    assert text_cost(["i once ate a pizza", "for two days"], known) == 0
    salad = text_cost(["a pizza once i ate", "days two for"], known)
    assert salad == UNSEEN_PAIR_COST * 5  # "pizza once", "once i", "i ate", "days two", "two for"


def test_pairs_do_not_run_across_boxes() -> None:
    known = Vocabulary.of(TRAINING)
    assert text_cost(["i once", "ate a pizza"], known) == 0  # "once ate" spans two boxes


def test_the_vocabulary_a_run_saves_is_the_one_a_model_loads(tmp_path: Path) -> None:
    known = Vocabulary.of(TRAINING)
    known.save(tmp_path)
    assert Vocabulary.load(tmp_path) == known
    assert ("i", "once") in Vocabulary.load(tmp_path).pairs


def test_a_model_without_a_vocabulary_charges_nothing_for_words(tmp_path: Path) -> None:
    assert Vocabulary.load(tmp_path) == Vocabulary()
    assert text_cost(["zorblax quux", "flim flam"], Vocabulary()) == 0
