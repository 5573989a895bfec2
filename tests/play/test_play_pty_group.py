"""Three people at one keyboard, at a pseudo-terminal 80 columns wide (issue 34, "Done when"):
'Robert fitz John', 'The Guildmaster' and 'Ann' play Hoyle from a dice tape — stakes, the odds
laid and taken, a side bet backed and one laid, each typed as the prompt shows it (names in any
case, in quotes) — then Ctrl-C and `play --resume LOG`: the open wagers are shown at each step,
at the stop and in the recap, and settle when the game is decided."""

from __future__ import annotations

import os
import re
import select
import sys
import time
from fractions import Fraction

import pytest

import hazard_dsl
from hazard_dsl.render.words import money_amount

from tests.conftest import ROOT
from tests.ptys import press_ctrl_c

PLAYERS = "Robert fitz John,The Guildmaster,Ann"
# 3-4: seven is the main; 2-2: four is the chance; 2-2 again: the chance before the main, the
# caster wins (Hoyle's odds on a chance of four against a main of seven: 6 ways to 3, 2 to 1)
TAPE = "3-4 2-2 2-2 1-1"
HOYLE = hazard_dsl.load("hoyle").ruleset


def m(amount) -> str:
    """Money as the table says it (render.words: the ruleset's coinage)."""
    return money_amount(HOYLE, Fraction(amount))


class Pty:
    """A `hazard-dsl` command at a pseudo-terminal: wait for a prompt, type an answer."""

    def __init__(self, argv: list[str], env: dict):
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the game at a terminal
            os.chdir(ROOT)
            os.execve(sys.executable, [sys.executable, "-m", "hazard_dsl", *argv],
                      dict(os.environ, COLUMNS="80", LINES="40", **env))
        self.out = b""
        self.seen = 0  # how much of `out` the prompts waited for have used
        self.deadline = time.time() + 120

    def wait(self, prompt: str) -> None:
        """Read until `prompt` (a regular expression) appears after what was seen."""
        pattern = re.compile(prompt.encode())
        while time.time() < self.deadline:
            found = pattern.search(self.out, self.seen)
            if found:
                self.seen = found.end()
                return
            if select.select([self.fd], [], [], 1)[0]:
                try:
                    self.out += os.read(self.fd, 4096)
                except OSError:
                    break
        raise AssertionError(f"no {prompt!r} in:\n{self.text()[-3000:]}")

    def answer(self, prompt: str, typed: str) -> None:
        self.wait(prompt)
        time.sleep(0.05)
        os.write(self.fd, typed.encode() + b"\r")

    def ctrl_c(self) -> int:
        self.out, status = press_ctrl_c(self.fd, self.pid, self.out, self.deadline)
        return os.waitstatus_to_exitcode(status)

    def finish(self) -> int:
        while time.time() < self.deadline:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                break
            if select.select([self.fd], [], [], 0.2)[0]:
                try:
                    self.out += os.read(self.fd, 4096)
                except OSError:
                    pass
        else:
            raise AssertionError("the session did not end")
        try:
            while select.select([self.fd], [], [], 0.2)[0]:
                chunk = os.read(self.fd, 4096)
                if not chunk:
                    break
                self.out += chunk
        except OSError:
            pass
        return os.waitstatus_to_exitcode(status)

    def text(self) -> str:
        return self.out.decode("utf-8", "replace").replace("\r\n", "\n")


THROW = r"press Enter "
WAGERS_BEFORE_THE_ODDS = [
    "Wagers up:",
    f"  Robert fitz John stakes on the cast against The Guildmaster: {m(2)} at risk, a",
    f"  Robert fitz John stakes on the cast against Ann: {m(3)} at risk, a win pays",
]


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_three_players_with_names_of_several_words_bet_stop_and_resume(tmp_path, short_tmp):
    log = short_tmp / "hoyle.log"  # a short path, so the lines that name it fit in 80 columns
    env = {"XDG_DATA_HOME": str(tmp_path)}
    play = Pty(["play", "hoyle", "--players", PLAYERS, "--dice", TAPE, "--log", str(log)], env)
    # the prompt says how a bet is typed, and that a side bet may be laid
    play.answer(r"Robert fitz John throws \(a bet first\? NAME BET AMOUNT or NAME lay BET AMOUNT;\s+bets lists "
                r"them\): press Enter ", "")  # 3-4: seven is the main
    play.answer(r"The Guildmaster, your stake against Robert fitz John\?", "2")
    play.answer(r"do you cover The Guildmaster's stake", "y")
    play.answer(r"Ann, your stake against Robert fitz John\?", "3")
    play.answer(r"do you cover Ann's stake", "y")
    play.answer(THROW, "bets")  # what each may bet, the line that makes it, and the wagers up
    # a name of two words, typed in lower case, backs a side bet; Ann declines, the caster takes it
    play.answer(THROW, "the guildmaster side 2")
    play.answer(r"\[y/N\] ", "n")
    play.answer(r"\[y/N\] ", "y")
    # a name in quotes, and a side bet laid rather than backed
    play.answer(THROW, "'Ann' lay side 1")
    play.answer(r"\[y/N\] ", "y")
    play.answer(THROW, "")  # 2-2: four is the chance
    play.answer(r"Four is the chance\.[\s\S]*?" + THROW, "purses")
    play.answer(THROW, "The Guildmaster odds 2")  # a setter lays the odds to the caster
    play.answer(r"do you take it\? .*\s*.*\[Y/n\] ", "y")
    play.wait(THROW)  # the odds are up: Ctrl-C at the next throw
    assert play.ctrl_c() == 130
    first = play.text()
    lines = first.splitlines()
    flat = " ".join(first.split())
    # `bets`: each bet with the line that makes it, to back and to lay a side bet
    assert "The Guildmaster side AMOUNT: back it against" in flat
    assert "The Guildmaster lay side AMOUNT: lay it against" in flat
    assert "Robert fitz John lay side AMOUNT: lay it against" in flat
    # the side bet's limit is what somebody who would take it can cover: the caster has 15
    # free (20 less the stakes of 2 and 3 he answers), the others 18 and 17
    assert (f"Robert fitz John side AMOUNT: back it against whoever accepts of The Guildmaster, Ann, a win pays "
            f"you 1 to 1, up to {m(15)}, edge from here 1.414% against you") in flat
    # a taker is told what he puts up before he accepts
    assert (f"Ann, The Guildmaster backs a side bet on the caster for {m(2)} against you (a win pays the backer "
            f"1 to 1; you put up {m(2)}): do you take it?") in flat
    assert (f"Robert fitz John, Ann lays a side bet on the caster for {m(1)} against you (a win pays the backer "
            f"1 to 1; you put up {m(1)}): do you take it?") in flat
    # the odds on a chance of four against a main of seven: 2 to 1; laying 2, the caster puts up 1
    assert (f"Robert fitz John, The Guildmaster lays the odds on the chance for {m(2)} against you (a win pays "
            f"the backer 2 to 1; you put up {m(1)}): do you take it?") in flat
    # every wager up, seat by seat, at `purses` and at the stop
    expected = [
        "Wagers up:",
        f"  Robert fitz John stakes on the cast against The Guildmaster: {m(2)} at risk, a win pays {m(2)}.",
        f"  Robert fitz John stakes on the cast against Ann: {m(3)} at risk, a win pays {m(3)}.",
        f"  Robert fitz John lays a side bet on the caster against The Guildmaster: {m(2)} at risk, a win "
        f"pays {m(2)}.",
        f"  Robert fitz John backs a side bet on the caster against Ann: {m(1)} at risk, a win pays {m(1)}.",
        f"  Robert fitz John backs the odds on the chance against The Guildmaster: {m(1)} at risk, a win pays "
        f"{m(2)} (2 to 1).",
        f"  The Guildmaster sets the stake against Robert fitz John: {m(2)} at risk, a win pays {m(2)}.",
        f"  The Guildmaster backs a side bet on the caster against Robert fitz John: {m(2)} at risk, a win pays "
        f"{m(2)}.",
        # the layer's odds are the backer's the other way round: he risks 2 to win 1
        f"  The Guildmaster lays the odds on the chance against Robert fitz John: {m(2)} at risk, a win pays "
        f"{m(1)} (1 to 2).",
        f"  Ann sets the stake against Robert fitz John: {m(3)} at risk, a win pays {m(3)}.",
        f"  Ann lays a side bet on the caster against Robert fitz John: {m(1)} at risk, a win pays {m(1)}.",
    ]
    stop = first[first.index("Interrupted: the session stops here."):]
    assert " ".join(stop.split()).startswith(
        f"Interrupted: the session stops here. Purses: Robert fitz John {m(20)}, The Guildmaster {m(20)}, "
        f"Ann {m(20)}. " + " ".join(" ".join(expected).split()))
    assert " ".join(" ".join(expected[:5]).split()) in flat[:flat.index("Interrupted")]  # at `purses`, before the odds
    assert all(len(line) <= 80 for line in lines if "--resume" not in line and not line.endswith(
        ("side 2", "side 1", "odds 2")))
    # resumed: the recap says where the game stands and every wager up; the throw settles them
    again = Pty(["play", "--resume", str(log), "--dice", TAPE], env)
    again.answer(THROW, "")  # 2-2: the chance, before the main
    again.answer(r"keep the dice\? \[Y/n\] ", "quit")
    assert again.finish() == 0
    resumed = again.text()
    recap = " ".join(resumed[resumed.index("Resuming"):resumed.index("press Enter")].split())
    assert ("Game 1 is under way: Robert fitz John holds the box (hand 1, round 1 of 1). Seven is the main. "
            "Four is the chance.") in recap
    assert " ".join(" ".join(expected).split()) in recap
    told = " ".join(resumed[resumed.index("press Enter"):].split())
    for payer, payee, amount in [("The Guildmaster", "Robert fitz John", 2), ("Ann", "Robert fitz John", 3),
                                 ("Robert fitz John", "The Guildmaster", 2), ("Ann", "Robert fitz John", 1),
                                 ("The Guildmaster", "Robert fitz John", 2)]:
        assert f"£ {payer} pays {payee} {m(amount)}" in told  # a game of £ s d: its money told by £
    # the narration reads in words: no identifier of the rule file, no improper fraction
    for text in (first, resumed):
        for word in ("chance_win", "chance_loss", "no_main", "side_odds", "(fee box)"):
            assert word not in text
        assert not re.search(r"\b\d+/\d+\b", text.replace(str(log), ""))
    # once settled nothing is up: the stop says so; the purses are what the settlements left
    assert "No wagers are up." in told
    assert (f"Purses: Robert fitz John {m(26)}, The Guildmaster {m(18)}, Ann {m(16)}.") in told
