"""Who casts first (`passing: first:`): in seat order, or each player throws one die and the
lowest casts, those tied throwing again ("History of Hazard & Craps": "A common way to determine
who goes first is by each casting a die, the lowest going first. After that the dice pass to the
left."; rulesets/history_sheet.yaml). The lot's throws are questions, actions and events of the
table like any other throw: scripted on a tape, logged, replayed, resumed, asked at the keyboard.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

import hazard_dsl
from hazard_dsl.cli import main
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.play.actions import IllegalAction
from hazard_dsl.play.dice import DiceTape
from hazard_dsl.play.table import Table, replay
from hazard_dsl.simulate import sessions as simulated
from hazard_dsl.solve.markov import Solver

from tests.conftest import RULESETS, machine
from tests.play.test_table import cli, events_of

# Ann throws a cater, Ben and Cat a deuce each: a tie for the lowest, so Ben and Cat throw again
# (a cinque, a trey) and Cat casts first. Then Cat's 5-4 sets nine and 6-6 throws out: the dice
# pass to Ann (the seat after Cat), whose 3-4 sets seven and ames-ace throws out; Ben takes them.
TAPE = "4 2 2 5 3 5-4 6-6 3-4 1-1"
LOTS = [{"event": "lot", "player": "Ann", "face": 4, "round": 1, "caster": None},
        {"event": "lot", "player": "Ben", "face": 2, "round": 1, "caster": None},
        {"event": "lot", "player": "Cat", "face": 2, "round": 1, "caster": None},
        {"event": "lot", "player": "Ben", "face": 5, "round": 2, "caster": None},
        {"event": "lot", "player": "Cat", "face": 3, "round": 2, "caster": None}]
FIRST = {"event": "first", "caster": "Cat", "face": 3, "rounds": 2, "why": "the lowest die"}


def table_machine(name: str = "history_sheet", **options):
    ruleset = read_ruleset(RULESETS / f"{name}.yaml")
    return compile_ruleset(ruleset, options, [ruleset.table.stake])


# ------------------------------------------------------------------ the language


def test_the_history_sheet_casts_lots_and_the_others_go_in_seat_order():
    assert read_ruleset(RULESETS / "history_sheet.yaml").passing.first == "lowest_die"
    assert machine("history_sheet").passing.by_lot
    assert "each casting a die, the lowest going first" in " ".join(read_ruleset(RULESETS / "history_sheet.yaml").notes)
    for name in ("cotton", "chicken", "petty", "hoyle"):
        assert read_ruleset(RULESETS / f"{name}.yaml").passing.first == "seat_order"
        assert not machine(name).passing.by_lot


def test_a_misspelt_first_is_an_error_at_its_place_with_a_did_you_mean(write_ruleset, capsys):
    path = write_ruleset("name: Mine\nextends: cotton\npassing:\n  losses_in_a_row: 1\n  first: lowst_die\n")
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert (f"{path}:5:10: error: passing: first is seat_order, lowest_die or highest_die, not 'lowst_die' "
            f"(did you mean 'lowest_die'?)") in err
    with pytest.raises(hazard_dsl.RulesetError, match=r"mine:3:18: passing: first is .* \(did you mean 'highest_die'"):
        hazard_dsl.load_text("name: Mine\nextends: cotton\npassing: {first: higest_die}\n", name="mine")


def test_show_and_the_rule_sheet_say_who_casts_first(capsys):
    assert main(["show", "history_sheet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["passing"]["first"] == "lowest_die"
    assert main(["rules", "history_sheet"]) == 0
    assert "Each player throws one die, and the lowest casts first (those tied throw again)." in \
        " ".join(capsys.readouterr().out.split())


# ------------------------------------------------------------------ a scripted session


def test_a_tape_chooses_the_first_caster_by_the_lowest_die_a_tie_thrown_again(capsys):
    assert main(["run", "history_sheet", "--players", "Ann,Ben,Cat", "--dice", TAPE, "--json"]) == 0
    events = events_of(capsys.readouterr().out)
    assert events[0]["event"] == "session" and events[0]["caster"] is None  # nobody holds the box yet
    assert events[1:7] == LOTS + [FIRST]
    assert events[7] == {"event": "hand", "caster": "Cat", "hand": 1, "purse": "20"}
    # the box goes round the table from Cat: Ann, then Ben
    assert [(e["caster"], e["to"]) for e in events if e["event"] == "pass"] == [("Cat", "Ann"), ("Ann", "Ben")]
    assert [e["caster"] for e in events if e["event"] == "game"] == ["Cat", "Ann", "Ben"]
    assert events[-1]["why"] == "the dice tape ran out"
    # and in words
    assert main(["run", "history_sheet", "--players", "Ann,Ben,Cat", "--dice", TAPE]) == 0
    said = capsys.readouterr().out
    assert ("Ann throws a cater (4) for the box.\nBen throws a deuce (2) for the box.\n"
            "Cat throws a deuce (2) for the box.\nBen throws a cinque (5) for the box again, to break the tie.\n"
            "Cat throws a trey (3) for the box again, to break the tie.\nCat casts first: the lowest die.\n") in said


def test_the_highest_die_where_the_rules_say_so(capsys):
    mine = hazard_dsl.load_text("name: Mine\nextends: history_sheet\npassing:\n  losses_in_a_row: 1\n"
                                "  first: highest_die\n", name="mine")
    events = mine.session(["Ann", "Ben", "Cat"], dice="4 2 2 5-4 6-6")
    assert [e["event"] for e in events[1:6]] == ["lot", "lot", "lot", "first", "hand"]
    assert events[4] == {"event": "first", "caster": "Ann", "face": 4, "rounds": 1, "why": "the highest die"}


def test_a_tape_refuses_a_lone_face_after_the_lots_where_dice_never_land_off(capsys):
    assert main(["run", "history_sheet", "--players", "Ann,Ben", "--dice", "3 5 3-4 5"]) == 2
    assert "throw 4 is '5', but the dice of these rules never land off" in capsys.readouterr().err
    assert main(["run", "cotton", "--players", "Ann,Ben", "--dice", "3 3-4"]) == 2  # no lots at Cotton's table
    assert "throw 1 is '3', but the dice of these rules never land off" in capsys.readouterr().err
    # found only once the lot is thrown, exit 2 as the two above (audit 10, finding 8)
    assert main(["run", "history_sheet", "--players", "Ann,Ben", "--dice", "3-4 5-6"]) == 2
    assert "throw 1 is '3-4', but here the dice want one die thrown for the first cast: a lone face" in \
        capsys.readouterr().err


def test_a_lot_the_tape_cannot_finish_ends_the_session_before_any_game():
    events = hazard_dsl.load("history_sheet").session(["Ann", "Ben"], dice="2 2 4")
    assert [e["event"] for e in events] == ["session", "lot", "lot", "lot", "end"]
    assert events[-1]["why"] == "the dice tape ran out" and events[-1]["games"] == 0


def test_a_die_with_one_face_could_never_choose_and_is_refused():
    mine = hazard_dsl.load_text("name: Mine\nextends: history_sheet\ndice:\n  die1: [1, 0, 0, 0, 0, 0]\n", name="m")
    with pytest.raises(ValueError, match="shows only one face, so the players would tie for ever"):
        mine.table(["Ann", "Ben"])


# ------------------------------------------------------------------ the log


def test_its_log_replays_and_a_changed_lot_is_refused(tmp_path, capsys):
    log = tmp_path / "lot.log"
    assert main(["run", "history_sheet", "--players", "Ann,Ben,Cat", "--dice", TAPE, "--log", str(log)]) == 0
    told = capsys.readouterr().out
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    # each lot is an action with the die it threw, then its event
    assert lines[1:3] == [{"action": "throw", "player": "Ann", "dice": [4]}, LOTS[0]]
    assert lines[9:12] == [{"action": "throw", "player": "Cat", "dice": [3]}, LOTS[4], FIRST]
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.splitlines()[:10] == told.splitlines()[:10]
    assert main(["replay", str(log), "--json"]) == 0
    assert events_of(capsys.readouterr().out)[1:] == [e for e in lines if "event" in e][1:]
    # Cat's second die changed to a deuce (in the action and its event): he ties Ben no more, but
    # the rules would still have Cat first; changed to a sice, Ben is first, and the log says Cat
    changed = list(lines)
    changed[9] = dict(lines[9], dice=[6])
    changed[10] = dict(lines[10], face=6)
    bad = tmp_path / "bad.log"
    bad.write_text("".join(json.dumps(e) + "\n" for e in changed))
    assert main(["replay", str(bad)]) == 1
    assert f"{bad}:12: the log contradicts the rules: caster is \"Cat\" in the log, but the rules make it \"Ben\"" \
        in capsys.readouterr().err
    changed[9] = dict(lines[9], dice=[7])
    bad.write_text("".join(json.dumps(e) + "\n" for e in changed))
    assert main(["replay", str(bad)]) == 1
    assert f"{bad}:10: the log contradicts the rules: an action they do not allow here: a die shows a face from " \
           f"1 to 6, not 7" in capsys.readouterr().err


def test_a_log_of_events_alone_implies_the_lots(tmp_path, capsys):
    """A log without its action lines (as the first logs were written) replays by the actions its
    events imply: a lot's die is the logged face."""
    log, events_only = tmp_path / "lot.log", tmp_path / "events.log"
    assert main(["run", "history_sheet", "--players", "Ann,Ben,Cat", "--seed", "3", "--log", str(log)]) == 0
    lines = [line for line in log.read_text().splitlines() if '"event"' in line]
    events_only.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["replay", str(events_only), "--json"]) == 0
    replayed = events_of(capsys.readouterr().out)
    assert replayed[1:] == [json.loads(line) for line in lines[1:]]
    assert [e["event"] for e in replayed[1:4]] == ["lot", "lot", "lot"]
    # a lot where the log has a game's throw: refused, naming the line
    lines[1] = json.dumps({"event": "throw", "game": 1, "throw": 1, "caster": "Ann", "dice": [4, 4]})
    events_only.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(events_only)]) == 1
    assert f"{events_only}:2: the log contradicts the rules: the players throw for the first cast here, but the " \
           f"log has a \"throw\" event" in capsys.readouterr().err


# ------------------------------------------------------------------ the table, by actions alone


def test_the_table_driven_by_actions_alone():
    table = Table(table_machine(), ["Ann", "Ben", "Cat"], purse=20, seed=5)
    assert [e["event"] for e in table.events] == ["session"]  # the lot is asked before any hand
    q = table.waiting.to_json()
    assert q == {"ask": "throw", "player": "Ann", "cast": "lot", "round": 1, "first": "lowest_die",
                 "may_land_off": False, "actions": [{"action": "throw"}, {"action": "throw", "dice": "given"}]}
    for wrong, why in (({"action": "throw", "dice": [3, 4]}, "dice are [face]: the one die thrown for the first cast"),
                       ({"action": "throw", "dice": [0]}, "a die shows a face from 1 to 6, not 0"),
                       ({"action": "throw", "dice": [None]}, "a die shows a face from 1 to 6, not null"),
                       ({"action": "throw", "player": "Ben"}, "it is Ann's turn to throw one die for the first "
                                                              "cast, not 'Ben''s"),
                       ({"action": "stake", "amount": 1}, "the table waits for Ann to throw one die for the first "
                                                          "cast: the action is 'throw', not 'stake'")):
        with pytest.raises(IllegalAction) as refused:
            table.apply(wrong)
        assert why in str(refused.value)
    assert table.apply({"action": "throw", "dice": [3]}) == [dict(LOTS[0], player="Ann", face=3)]
    assert table.apply({"action": "throw", "player": "Ben", "dice": [1]}) == [dict(LOTS[0], player="Ben", face=1)]
    assert table.apply({"action": "throw", "dice": [1]}) == [dict(LOTS[0], player="Cat", face=1)]
    # Ben and Cat tied at an ace: they alone throw again, in seat order
    q = table.waiting.to_json()
    assert (q["player"], q["cast"], q["round"]) == ("Ben", "lot", 2)
    assert table.apply({"action": "throw", "dice": [6]}) == [dict(LOTS[0], player="Ben", face=6, round=2)]
    assert table.waiting.player == "Cat"
    caused = table.apply({"action": "throw"})  # the table's own die (seed 5): a cinque
    assert caused == [dict(LOTS[0], player="Cat", face=5, round=2),
                      {"event": "first", "caster": "Cat", "face": 5, "rounds": 2, "why": "the lowest die"},
                      {"event": "hand", "caster": "Cat", "hand": 1, "purse": "20"},
                      {"event": "game", "game": 1, "caster": "Cat"}]
    assert table.log[-len(caused) - 1] == {"action": "throw", "player": "Cat", "dice": [5]}  # the die it threw
    assert table.caster == "Cat" and table.waiting.to_json()["cast"] == "both"
    table.play()
    assert table.over and table.events[-1]["why"] == "1 round of the table"
    assert sum(table.purses.values()) + table.session.box == 60
    again = replay(Table(table_machine(), ["Ann", "Ben", "Cat"], purse=20, seed=5), table.log)
    assert again.events == table.events


def test_a_lone_player_against_a_bank_casts_without_a_lot():
    french = read_ruleset(RULESETS / "french.yaml")
    mine = hazard_dsl.load_text("name: Mine\nextends: french\npassing: {losses_in_a_row: 1, first: lowest_die}\n",
                                name="mine")
    assert french.table.against == "bank"
    table = mine.table(["Ann"], seed=1)
    assert [e["event"] for e in table.events][:2] == ["session", "hand"]
    assert table.waiting.facts.get("cast") != "lot"


# ------------------------------------------------------------------ play at the keyboard


def test_play_throws_the_die_on_enter_and_logs_what_run_logs(tmp_path):
    """Enter throws each player's die for the box (and every throw, stake and answer after it):
    the log is the one `run` writes for the same seed under the flat strategy."""
    kept, ran = tmp_path / "play.log", tmp_path / "run.log"
    played = cli("play", "history_sheet", "--players", "Ann,Ben,Cat", "--seed", "11", "--log", str(kept),
                 stdin="\n" * 200)
    assert played.returncode == 0, played.stderr
    assert "Ann throws one die for the first cast: press Enter" in played.stdout
    assert cli("run", "history_sheet", "--players", "Ann,Ben,Cat", "--seed", "11", "--log", str(ran)).returncode == 0
    # play offers the table's bets before each throw; nobody bets (Enter): `done`, where run,
    # with no bets planned, offers none
    at_keyboard = [json.loads(line) for line in kept.read_text().splitlines()]
    at_keyboard = [e for e in at_keyboard if e != {"action": "done"}]
    by_strategy = [json.loads(line) for line in ran.read_text().splitlines()]
    assert at_keyboard[1:] == by_strategy[1:]
    assert [e["event"] for e in at_keyboard[1:] if "event" in e][:3] == ["lot", "lot", "lot"]
    first = next(e for e in at_keyboard if e.get("event") == "first")
    assert f"{first['caster']} casts first: the lowest die." in played.stdout


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_session_stopped_during_the_lot_resumes_with_the_same_dice(tmp_path):
    whole, cut = tmp_path / "whole.log", tmp_path / "cut.log"
    assert cli("play", "history_sheet", "--players", "Ann,Ben,Cat", "--seed", "11", "--log", str(whole),
               stdin="\n" * 200).returncode == 0
    stopped = cli("play", "history_sheet", "--players", "Ann,Ben,Cat", "--seed", "11", "--log", str(cut),
                  stdin="\n")  # Ann throws; the input ends at Ben's throw
    assert stopped.returncode == 0 and "Resume it with" in stopped.stdout
    resumed = cli("play", "--resume", str(cut), stdin="\n" * 200)
    assert resumed.returncode == 0, resumed.stderr
    assert "Nobody holds the box yet: the players are throwing one die each for the first cast (round 1)." in \
        " ".join(resumed.stdout.split())
    assert cut.read_text().splitlines()[1:] == whole.read_text().splitlines()[1:]


# ------------------------------------------------------------------ the simulator


def first_chances(faces, players: int, lowest: bool = True) -> list[Fraction]:
    """Each seat's exact chance of casting first when every player throws a die with these
    faces' chances and those tied for the lowest (highest) throw again: worked out over every
    set of players that can be left throwing, with no symmetry assumed."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def chances(throwing: tuple) -> tuple:
        alone = [Fraction(0)] * players  # first from this throw
        again: dict = {}  # the players left tied -> the chance
        for throw in product(range(6), repeat=len(throwing)):
            p = Fraction(1)
            for face in throw:
                p *= faces[face]
            if not p:
                continue
            best = min(throw) if lowest else max(throw)
            tied = tuple(k for k, face in zip(throwing, throw) if face == best)
            if len(tied) == 1:
                alone[tied[0]] += p
            else:
                again[tied] = again.get(tied, Fraction(0)) + p
        stay = again.pop(throwing, Fraction(0))  # all tied: this same throw again
        out = list(alone)
        for tied, p in again.items():
            for k, q in enumerate(chances(tied)):
                out[k] += p * q
        return tuple(x / (1 - stay) for x in out)

    return list(chances(tuple(range(players))))


@pytest.mark.parametrize("dice", ["fair", "high", "low", "one_high"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_seat_is_first_alike_whatever_the_die_so_the_simulator_draws_it_uniformly(dice, players):
    """Why `simulate --players` may draw the first caster uniformly even with loaded dice: every
    player throws the same die, so the chances come out equal — worked out exactly here for
    Fullam's loaded dice, and a die loaded every which way."""
    faces = machine("fullams", dice=dice).dice.faces(1)
    for lowest in (True, False):
        assert first_chances(faces, players, lowest) == [Fraction(1, players)] * players
    odd = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 16), Fraction(1, 32), Fraction(1, 32)]
    assert first_chances(odd, players) == [Fraction(1, players)] * players


def test_the_simulator_follows_the_session_engine_from_the_lot_on():
    """A tape played by the session engine, lots first, and by the vectorised table given the same
    first caster: the same games, the same purses to the last minor unit."""
    import numpy as np

    m = table_machine()
    solver = Solver(m)
    solver.set_policy("optimal")
    setup = simulated.setup(m, solver, 3, Fraction(20), Fraction(2), "flat", 3)
    assert setup.by_lot
    for seed in range(4):
        rng = np.random.default_rng(seed)
        throws = [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(3000, 2))]
        lots = [2, 3, 2, 4, 1] if seed % 2 else [3, 1, 2]  # Cat (after his tie with Ann), or Ben
        at_table = Table(m, ["Ann", "Ben", "Cat"], Fraction(20), DiceTape(lots + throws), 3)
        end = at_table.play(at_table.strategy("flat", Fraction(2)))[-1]
        first = next(e["caster"] for e in at_table.events if e["event"] == "first")
        assert first == ("Cat" if seed % 2 else "Ben")
        games = simulated.categories_on_tape(m, solver, m.bets.get("stake"), [6 * (a - 1) + (b - 1) for a, b in throws])
        played = simulated.play_sessions(setup, 1, categories=[[setup.categories.index(c) for c in games]],
                                         first=[["Ann", "Ben", "Cat"].index(first)])
        assert [Fraction(int(p), setup.scale) for p in played.purses[0]] == \
            [Fraction(v) for v in end["purses"].values()]
        assert int(played.games[0]) == end["games"]


def test_simulate_says_how_the_first_caster_was_chosen(capsys):
    assert main(["simulate", "history_sheet", "--players", "Ann,Ben,Cat", "--games", "3000", "--seed", "2",
                 "--workers", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["first"] == "by_lot"
    assert main(["simulate", "cotton", "--players", "Ann,Ben,Cat", "--games", "300", "--seed", "2",
                 "--workers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["first"] == "seat_order"
