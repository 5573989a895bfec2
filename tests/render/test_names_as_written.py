"""A player's name is told as written (audit 42): the narration began each sentence with a capital
and so changed the names people gave, "Mrs. de Vere" to "Mrs. De Vere" (a capital after a full
stop), "e. e. cummings" to "E. E. Cummings", "van Dyke" to "Van Dyke" at a line's start, while
the same narration wrote "van Dyke sets 1s" two lines below. The rules' own words still begin a
sentence with a capital ("The caster nicks it", "Crabs! Deuce-ace is out")."""

from __future__ import annotations

from hazard_dsl.render.words import sentences
from tests.in_process import said

PEOPLE = ("Mrs. de Vere", "van Dyke", "e. e. cummings")


def test_sentences_leave_the_names_kept_as_written():
    assert sentences("van Dyke throws out.", keep=PEOPLE) == "van Dyke throws out."
    assert sentences("crabs! Mrs. de Vere throws out.", keep=PEOPLE) == "Crabs! Mrs. de Vere throws out."
    assert sentences("it is out. e. e. cummings loses.", keep=PEOPLE) == "It is out. e. e. cummings loses."
    # without names to keep, every sentence begins with a capital, as before
    assert sentences("the caster throws out. the main is six.") == "The caster throws out. The main is six."


def test_a_session_tells_the_names_as_the_players_wrote_them():
    # seed 2: Mrs. de Vere throws crabs on her second throw, e. e. cummings wins a chance and
    # throws crabs (the lines the capital changed before); van Dyke backs the side bet each game
    code, out, err = said("run", "cotton", "--players", ",".join(PEOPLE), "--seed", "2",
                          "--bet", "van Dyke:side=1")
    assert code == 0, err
    words = " ".join(out.split())
    assert "Mrs. De Vere" not in words and "E. E. Cummings" not in words and "e. E." not in words
    assert "Van Dyke" not in words
    assert "Crabs! Deuce-ace is out to every main. Mrs. de Vere throws out. [Mrs. de Vere loses]" in words
    assert "van Dyke backs a side bet on the caster for 1s against e. e. cummings." in words
    assert "e. e. cummings throws the chance before the main. [e. e. cummings wins]" in words
