"""Hate codes, explicit slang and insults writers' captions found missing are refused as words or
phrases, and the triple-parentheses echo as hateful; the ordinary words and names they sit beside
("guy fawkes", a rugby hooker, emphasis around a short word, shag carpet, hugs) are not."""

import pytest

from generation.moderation import refusal


@pytest.mark.parametrize(
    "text",
    [
        "the goyim are waking up",
        "day of the rope when",
        "zog runs the banks",
        "14/88 my brothers",
        "hail victory comrades",
        "remove kebab from the premises",
        "despite being 13% of us",
        "the jewish question again",
        "typical heeb move",
        "fudgepackers parade",
        "fap session ruined",
        "creampie gang",
        "stop jerking off at work",
        "nice knockers",
        "hookers on the strip",
        "booty calls at 4am",
        "what a douchebag",
        "douche bags on the bus",
        "bollocks to this",
        "fawk off",
        "rahowa brothers",
        "dindu nuffin officer",
        "the 13/50 stat again",
        "join the 41% already",
        "typical oven dodger",
        "what a knobhead",
        "fookin hell mate",
        "fancy a shag tonight",
        "shirtlifters everywhere",
        "gangbang at mine",
        "milf next door",
        "rimjob friday",
        "holohoax believers",
        "it's okay to be white",
        "filthy taigs",
        "poofter can't kick",  # "*poof*" is emphasis now, so the word no longer reaches it
        "dtf? my place",
        "abos at the servo",
        "13% of the population, 50% of the crime",
        "clown world, we all know who",
        "we wuz kangz n shiet",
        "the 14 words",
        "lezzers again",
        "carpet munchers parade",
        "she bought a strapon",
        "some sperg ranting about trains",
        "f4ck this lag",
        "i want to get railed tonight",
        "her naked pics leaked",
        "threesome tonight, who's in",
        "eating her out on the couch",
        "rub one out before work",
        "femoids only want chads",
        "88 / heil",
        "getting railed on a tuesday",
        "her vibrator went off in class",
        "i'd bang your mom",
        "blue balls all weekend",
        "the kalergi plan is real",
        "basketball americans at it again",
        "foreigners out",
        "lezzos ruining another film",
        "morning wood, she noticed",
        "ball gag and handcuffs",
    ],
)
def test_a_hate_code_or_explicit_slang_is_refused(text: str) -> None:
    reason = refusal(text)
    assert reason is not None and reason.reason == "profanity"


@pytest.mark.parametrize(
    "text",
    [
        "guy fawkes mask | remember remember",
        "the hooker threw it in crooked",
        "that film gave me the heebie jeebies",
        "when *he* breaks a plate",
        "the door knocker fell off",
        "grandad's 88th birthday",
        "that shag carpet has to go",
        "like a boss",
        "gangbangers in the movie",
        "my dad's old matsushita radio",
        "clitheroe castle on a sunny day",
        "i'm a boss at this game",  # "a boss" joined is not "abos" with -s
        "the wankel engine",
        "dick's sporting goods sale",
        "dick van dyke dancing",
        "the pogroms in history class",
        "strap on my helmet and go",
        "my son has asperger's and loves trains",
        "the senator railed against the bill",
        "we banged on the door for an hour",
        "and poof, it's gone",
        "i'm absolutely knackered",
        "my boss is so anal about fonts",
        "spank the ball over the fence",
        "phone on vibrate in the meeting",
        "when you bang your knee on the table",
        "graduated summa cum laude",
        "walking offa's dyke path",
        "got laid off on a friday",
        "lightwater and bagshot, surrey's finest",
        "shitterton is a real village in dorset",
    ],
)
def test_the_ordinary_words_beside_them_are_accepted(text: str) -> None:
    assert refusal(text) is None


@pytest.mark.parametrize("text", ["(((they))) own the banks", "ask ((( soros )))", "(((globalists)))"])
def test_the_triple_parentheses_echo_around_a_word_is_refused_as_hateful(text: str) -> None:
    reason = refusal(text)
    assert reason is not None and reason.reason == "hateful"


@pytest.mark.parametrize("text", ["sending (((hugs)))", "(((inhales deeply))) / west virginia", "((nice))"])
def test_parentheses_around_a_hug_or_a_phrase_are_accepted(text: str) -> None:
    assert refusal(text) is None
