"""Seats by name as people write them, side bets backed or laid up to what somebody can cover,
the wagers up, and `odds` at a recast choice (issue 34, points 1, 2, 3a, 4 and 5's `choose`)."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

import hazard_dsl
from hazard_dsl.play.actions import IllegalAction
from hazard_dsl.cli.prompt import Terminal, seat_at_start, typed_name
from hazard_dsl.render.chances import chance_words
from hazard_dsl.solve.markov import ONE, ZERO
from hazard_dsl.cli import main as cli

SEATS = ["Robert fitz John", "The Guildmaster", "Ann", "Ann Lee"]


@pytest.mark.parametrize("line, seat, rest", [
    ("Robert fitz John side 2", "Robert fitz John", "side 2"),
    ("the guildmaster side 2", "The Guildmaster", "side 2"),  # any case
    ("The   Guildmaster   lay side 2", "The Guildmaster", "lay side 2"),  # runs of spaces
    ("ann side 1", "Ann", "side 1"),
    ("Ann Lee side 1", "Ann Lee", "side 1"),  # the longest name that begins the line
    ("'Ann' side 1", "Ann", "side 1"),  # in quotes
    ('"ann lee" side 1', "Ann Lee", "side 1"),
    ("Robert side 2", None, "Robert side 2"),  # a name is written whole
    ("'Bob' side 2", None, "'Bob' side 2"),
])
def test_a_seat_is_the_longest_name_that_begins_the_line(line, seat, rest):
    assert seat_at_start(line, SEATS) == (seat, rest)


def test_a_name_is_quoted_where_a_longer_name_would_take_its_place():
    assert typed_name("Ann", ["Ann", "Ben"]) == "Ann"
    assert typed_name("Ann", ["Ann", "Ann Lee"]) == "'Ann'"  # "Ann Lee side 2" would be Ann Lee's


@pytest.mark.parametrize("players", ["Ann,ann", "The Guildmaster,the  guildmaster", "Ann,Ben,ANN"])
def test_players_refuses_two_names_that_differ_only_in_case_or_spacing(players):
    result = subprocess.run([sys.executable, "-m", "hazard_dsl", "play", "hoyle", "--players", players, "--no-log"],
                            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert "differ only in case or spacing" in result.stderr
    with pytest.raises(ValueError, match="differ only in case or spacing"):
        hazard_dsl.load("hoyle").table(players.split(","))


def _bet_question(ruleset="history_sheet", bets=("twelve",), dice="1 2 3 3-4 2-2 6-6", purse=20):
    table = hazard_dsl.load(ruleset).table(["Ann", "Ben", "Cat"], purse=purse, dice=dice, bets=list(bets))
    table.play(table.strategy("flat", stake=1), until=lambda q: q.ask == "bet")
    return table


def test_a_side_bet_is_offered_to_back_and_to_lay_up_to_what_somebody_can_cover():
    """The history sheet's `twelve` pays 35 to 1 between two players. With purses of 20 nobody
    can cover more than 20/35 = 4/7 backed, 6 6/7d: offered in whole pence (the sheet's smallest
    coin), 6d = 1/2; laid, the layer puts up 20 and the backer 4/7."""
    table = _bet_question()
    offered = table.waiting.facts["bets"]["Ben"]
    assert [(o["side"], o["most"], o["pays"]) for o in offered] == [("backer", "1/2", "35 to 1"),
                                                                    ("layer", "20", "35 to 1")]
    assert offered[0]["covered"] is True and "can cover" in offered[0]["why_most"]
    # the refusal tells the most in the ruleset's coin, rounded down to a penny: 6d
    with pytest.raises(IllegalAction, match="at most 6d"):
        table.apply({"action": "bet", "player": "Ben", "bet": "twelve", "amount": 1})
    # laid: Ben lays 7 to a backer's stake of 7/35 = 1/5; Cat, asked first, is told what she puts up
    assert table.apply({"action": "bet", "player": "Ben", "bet": "twelve", "side": "layer", "amount": 7}) == []
    question = table.waiting
    assert (question.ask, question.player) == ("accept", "Cat")
    assert question.facts["puts_up"] == "1/5" and question.facts["side"] == "layer"
    made = table.apply({"action": "accept"})
    assert made[0] == {"event": "bet", "against": "Cat", "stake": "1/5", "bet": "twelve", "who": "Ben",
                       "amount": "7", "side": "layer", "caster": "Ann"}
    assert table.wagers == [{"bet": "twelve", "backer": "Cat", "layer": "Ben", "maker": "Ben", "amount": "1/5",
                             "backer_risks": "1/5", "layer_risks": "7", "pays": "35 to 1"}]
    assert table.to_json()["wagers"] == table.wagers


def test_an_action_without_a_side_backs_as_before_and_a_wrong_side_is_refused():
    """Logs written before a bet could be laid name no side: the first offered, the backer's."""
    table = _bet_question()
    table.apply({"action": "bet", "player": "Ben", "bet": "twelve", "amount": "1/2"})
    assert table.waiting.facts["side"] == "backer" and table.waiting.facts["puts_up"] == "35/2"
    hoyle = hazard_dsl.load("hoyle").table(["Ann", "Ben"], purse=40, dice="1-4 3-4 2-3", bets=["odds"])
    hoyle.play(hoyle.strategy("flat", stake=10), until=lambda q: q.ask == "bet" and "Ben" in q.facts["bets"])
    with pytest.raises(IllegalAction, match="as 'layer' now, not 'backer'"):
        hoyle.apply({"action": "bet", "player": "Ben", "bet": "odds", "side": "backer", "amount": 1})


def test_the_taker_of_the_odds_is_told_what_he_puts_up():
    """Main five, chance seven at Hoyle's table: 4 ways to 6, a win pays the backer 2 to 3. Ben
    lays 10: Ann backs 10 / (2/3) = 15."""
    hoyle = hazard_dsl.load("hoyle").table(["Ann", "Ben"], purse=40, dice="1-4 3-4 2-3", bets=["odds"])
    hoyle.play(hoyle.strategy("flat", stake=10), until=lambda q: q.ask == "bet" and "Ben" in q.facts["bets"])
    hoyle.apply({"action": "bet", "player": "Ben", "bet": "odds", "amount": 10})
    assert hoyle.waiting.ask == "cover" and hoyle.waiting.facts["puts_up"] == "15"
    said = []
    terminal = Terminal(hoyle.machine, hoyle.chooser.solver, lambda prompt: said.append(prompt) or "y",
                        said.append, table=hoyle)
    assert terminal(hoyle.waiting) == {"action": "cover"}
    flat = " ".join(said[0].split())
    assert "Ann, Ben lays the odds on the chance for " in flat and "(a win pays the backer 2 to 3; you put up" in flat


def test_bets_are_typed_by_name_in_any_case_with_back_or_lay():
    table = _bet_question()
    said = []
    answers = iter(["ben  TWELVE 1", "bEn lay twelve 7", "bets"])
    terminal = Terminal(table.machine, table.chooser.solver, lambda prompt: next(answers), said.append,
                        table=table, dice_on_enter=True)
    action = terminal(table.waiting)
    assert action == {"action": "bet", "player": "Ben", "bet": "twelve", "amount": Fraction(7), "side": "layer"}
    # 1 backed at 35 to 1 is more than anyone can cover: the refusal says why, and the most
    assert "Nobody's purse covers 35 to 1 on" in said[0] and "(Ben twelve 6d)" in said[0]  # 4/7s, 6 6/7d, down to a penny


def test_choose_takes_the_word_the_prompt_shows():
    table = hazard_dsl.load("cotton", main="called").table(["Ann", "Ben"], purse=20, dice="6-1", bets=())
    question = table.waiting
    assert question.ask == "choose"
    for typed, value in [("six", 6), ("SIX", 6), ("6", 6), ("  Nine ", 9)]:
        said = []
        answers = iter(["ten", typed])
        terminal = Terminal(table.machine, table.chooser.solver, lambda prompt: said.append(prompt) or next(answers),
                            said.append, table=table)
        assert terminal(question) == {"action": "choose", "value": value}
        assert said[0] == "Ann, choose the main (five, six, seven, eight, nine)? "
        assert said[1].startswith("Choose one of five, six, seven, eight, nine")


def test_odds_at_a_recast_choice_give_each_answers_chance():
    """The history sheet with a die cocked one time in six: the first die off, the second
    showing four, after a main of seven. Recasting both dice is the throw again (the chance
    from before it); the off die alone lands on each face with 1/6, or (1 time in 6) is off
    again and the caster chooses again — solved here by hand from the solver's figures."""
    table = hazard_dsl.load("history_sheet", cocked="one_in_six").table(
        ["Ann", "Ben"], purse=20, dice="1 2 3-4 x-4 5 2-2", bets=())
    table.play(table.strategy("flat", stake=1),
               until=lambda q: q.ask == "choose" and q.facts["variable"] == "recast")
    question = table.waiting
    assert (question.facts["die"], question.facts["shown"], question.facts["values"]) == (1, 4, ["off", "both"])
    solver = table.chooser.solver
    win = solver.backward(lambda s: ONE if s.result == "win" else ZERO)
    machine = table.machine
    node = question.node
    throw_state = table.session.state.index  # the throw the die landed off in
    both = dict(node.alternatives)["both"].target
    assert both == throw_state
    die = machine.node(dict(node.alternatives)["off"].target)
    c = Fraction(1, 6)
    lands = sum((Fraction(1, 6) * win[step.target] for step in die.steps), ZERO)
    # off again: back at this choice, made as the policy makes it (it recasts the off die alone here)
    assert solver.alone(node.index) == 1
    off = lands  # recast alone until it lands: the mean over its faces
    said = []
    terminal = Terminal(machine, solver, None, said.append, table=table)
    terminal.question = question
    text = terminal.odds()
    assert text.splitlines() == ["Ann's chance with each answer:",
                                 f"  the off die alone (off): wins {chance_words(off)}, the best",
                                 f"  both dice (both): wins {chance_words(win[throw_state])}"]
    assert off == Fraction(1646, 3135) and win[throw_state] == Fraction(1081, 2090)
    assert c * 0 == 0  # (c leaves the figure alone where the off die is always recast alone)


def test_a_planned_bet_cut_to_a_cover_is_whole_pence_and_says_why(capsys):
    """Ann plans 1s on twelve (35 to 1); Robert fitz John, first in turn, has 19s free (his £1
    less the 1s side bet he lays her): 19/35s = 6 18/35d, down to the sheet's smallest coin, the
    penny: 6d, and the narration says why it is not her 1s."""
    assert cli(["run", "history_sheet", "--players", "Robert fitz John,The Guildmaster,Ann", "--seed", "5",
                "--bet", "Ann:side=1", "--bet", "Ann:twelve=1"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert ("Ann backs a side bet on twelve at the next throw for 6d (all Robert fitz John's purse covers at "
            "35 to 1) against Robert fitz John.") in said
    assert "/" not in said.split("Game 1:")[1].split("Game 2:")[0]  # no fraction of a penny


def test_a_bet_up_already_is_refused_with_why_and_no_near_name():
    """Hoyle: main seven, chance five (3-4, 2-3); Ben lays Ann the odds, she covers them. Ann's
    odds are up against Ben, so she may not back them again (one at a time): the refusal says
    so, and does not offer "side odds" as if it were the word she typed."""
    hoyle = hazard_dsl.load("hoyle").table(["Ann", "Ben", "Cat"], purse=40, dice="3-4 2-3 2-3",
                                           bets=["odds", "side_odds"])
    hoyle.play(hoyle.strategy("flat", stake=10), until=lambda q: q.ask == "bet" and "Ben" in q.facts["bets"])
    hoyle.apply({"action": "bet", "player": "Ben", "bet": "odds", "amount": 10})
    hoyle.apply({"action": "cover"})
    said = []
    answers = iter(["Ann odds 2", "Ann side odds 2"])
    terminal = Terminal(hoyle.machine, hoyle.chooser.solver, lambda prompt: next(answers), said.append, table=hoyle)
    assert terminal(hoyle.waiting)["bet"] == "side_odds"
    assert said[0] == ("Ann has the odds on the chance up against Ben already: one at a time. "
                       "Ann may bet side odds now.")


def test_one_time_in_n_has_its_percentage_as_every_other_chance():
    assert chance_words(Fraction(1, 3)) == "1 time in 3 (33.33%)"
    assert chance_words(Fraction(244, 495)) == "244 times in 495 (49.29%)"


def test_a_bet_put_to_a_taker_is_explained_by_question_bet_not_its_identifier():
    from hazard_dsl.play.actions import Question

    table = hazard_dsl.load("cotton").table(["Ann", "Ben", "Cat"], purse=20, seed=1)
    said, typed = [], iter(["? bet", ""])
    terminal = Terminal(table.machine, table.chooser.solver, lambda prompt: said.append(prompt) or next(typed),
                        said.append, table=table)
    question = Question("accept", "Cat", {"maker": "Ben", "amount": "1", "bet": "side", "side": "backer",
                                          "pays": "1 to 1"})
    assert terminal(question) == {"action": "decline"}
    assert said[0].endswith(": do you take it? (? bet says what the bet is) [y/N] ")
    assert said[1].startswith("A side bet on the caster (side): ")


def test_a_result_is_not_tagged_where_its_sentence_already_says_who_wins(capsys):
    """Hoyle, seed 3: "the main comes before the chance: the caster loses." says it; "the caster
    throws the chance before the main." does not say who wins, and keeps its tag."""
    assert cli(["run", "hoyle", "--seed", "3"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "The main comes before the chance: the caster loses. Game 2 " in out
    assert "[The caster loses]" not in out
    assert "The caster throws the chance before the main. [The caster wins]" in out
