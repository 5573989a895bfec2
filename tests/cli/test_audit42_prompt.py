"""At `play`'s throw, a bet's line that names nobody who may bet now says why, where the table
knows (audit 42): before, "ann side 1s" at a table of Ann Smith and Ann Jones, and "ann smith
side 1s" from a player whose side bet was already up, were each answered only with the general
"Press Enter to throw … those who may bet now: Mrs. O'Brien", naming neither the two Anns nor
the bet already up."""

from __future__ import annotations

import io

from tests.in_process import said

PLAYERS = "Mrs. O'Brien,Ann Smith,Ann Jones"


def test_the_prompt_says_which_names_a_word_begins_and_which_bet_is_up(monkeypatch):
    # seed 7: Mrs. O'Brien's first throw is no main, so the lines are typed at the throw's prompt
    answers = "ann side 1s\nann smith side 1s\ny\nann smith side 1s\nquit\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code, out, err = said("play", "cotton", "--no-log", "--players", PLAYERS, "--seed", "7")
    assert code == 0, err
    words = " ".join((out + err).split())
    assert ("'ann' begins the names of Ann Smith and Ann Jones: write the whole name. Press Enter to "
            "throw, or ? for help.") in words
    assert "Ann Smith backs a side bet on the caster for 1s against Ann Jones." in words
    assert ("Ann Smith has a side bet on the caster up against Ann Jones already: one at a time. Press "
            "Enter to throw, or ? for help. A bet is NAME BET AMOUNT, such as Mrs. O'Brien side 2s; "
            "those who may bet now: Mrs. O'Brien.") in words


def test_a_name_typed_without_its_accents_is_pointed_to_the_seat(monkeypatch):
    # "jose alvarez" for José Álvarez, from a keyboard without accents: said which seat it
    # meant, but not taken as that seat (two seats may differ only in their accents)
    monkeypatch.setattr("sys.stdin", io.StringIO("jose alvarez side 1s\nquit\n"))
    code, out, err = said("play", "cotton", "--no-log", "--players", "Mrs. O'Brien,José Álvarez", "--seed", "7")
    assert code == 0, err
    words = " ".join((out + err).split())
    assert "jose alvarez side 1s Did you mean José Álvarez? Type the name with its accents. Press Enter" in words
    assert "backs a side bet" not in words
