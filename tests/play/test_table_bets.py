"""Bets at the table besides the stake (play.table_bets): made by the people sitting there,
taken by the caster, another player or the bank, and settled on the throws."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hazard_dsl
from hazard_dsl.play.actions import IllegalAction
from hazard_dsl.play.table import replay

ROOT = Path(__file__).resolve().parents[2]


def settles(events, bet=None):
    return [e for e in events if e["event"] == "settle" and (bet is None or e.get("bet") == bet)]


@pytest.mark.parametrize("tape, main, chance, won", [
    # Hoyle 1790's table of odds (hazard-rules.md N10, S1): the setter who lays the odds on the
    # main against the chance lays them "to the amount of the original stake" (EB1911, S8).
    # Main 5 (4 ways), chance 7 (6 ways): the odds are 6 to 4 — £10 laid at "7 to 5" wins £15.
    ("1-4 3-4 2-3", 5, 7, 15),
    # Main 6 (5 ways), chance 5 (4 ways): 4 to 5 — £10 laid at "5 to 6" wins £8.
    ("3-3 2-3 4-2", 6, 5, 8),
])
def test_hoyles_odds_laid_by_a_setter_pay_the_true_odds(tape, main, chance, won):
    table = hazard_dsl.load("hoyle").table(["Ann", "Ben"], purse=40, dice=tape, bets=["odds"])
    table.play(table.strategy("flat", stake=10, plans={"Ben": {"odds": 10}}))
    events = table.events
    [bet] = [e for e in events if e["event"] == "bet"]
    assert bet == {"event": "bet", "against": "Ann", "stake": str(won), "bet": "odds", "who": "Ben",
                   "amount": "10", "side": "layer", "caster": "Ann"}
    # the main comes before the chance: Ann loses the stake (10) and her odds (the stake `won`)
    assert [(e["payer"], e["payee"], e["amount"]) for e in settles(events)] == \
        [("Ann", "Ben", "10"), ("Ann", "Ben", str(won))]
    assert table.purses == {"Ann": Fraction(30 - won), "Ben": Fraction(50 + won)}


def test_the_caster_refuses_one_setter_and_takes_anothers():
    table = hazard_dsl.load("hoyle").table(["Ann", "Ben", "Cat"], purse=40, dice="1-4 3-4 2-3", bets=["odds"])
    table.play(table.strategy("flat", stake=4, plans={"Ben": {"odds": 4}, "Cat": {"odds": 4}},
                              refuse={("Ann", "odds")}))
    refused = [e for e in table.events if e["event"] == "refuse" and e.get("bet") == "odds"]
    assert refused and all(e["declined"] and e["against"] == "Ann" for e in refused)
    assert not [e for e in table.events if e["event"] == "bet"]


def test_a_side_bet_is_offered_round_the_table_until_one_accepts():
    """Craps lets a player lay the odds only against the bank; a side bet between players needs a
    bet whose both sides are `player`: written here, in a rule file of its own."""
    rules = ROOT / "tests" / "data" / "rulesets" / "side_bets.yaml"
    variant = hazard_dsl.load(rules)
    table = variant.table(["Ann", "Ben", "Cat", "Dan"], purse=10, dice="1-4 3-4 2-3 6-1 1-2", bets=["main_first"])
    answers = {"Cat": "decline", "Dan": "accept"}
    while not table.over:
        q = table.waiting
        if q.ask == "bet":  # the table is asked who bets: Ben proposes it once
            offered = [o["bet"] for o in q.facts["bets"].get("Ben", [])]
            table.apply({"action": "bet", "player": "Ben", "bet": "main_first", "amount": 2}
                        if "main_first" in offered and not any(e["event"] == "bet" for e in table.events)
                        else {"action": "done"})
        elif q.ask == "accept":
            table.apply({"action": answers.get(q.player, "decline")})
        else:
            table.apply(table.strategy()(q))
    [bet] = [e for e in table.events if e["event"] == "bet"]
    assert bet["who"] == "Ben" and bet["against"] == "Dan"
    side = settles(table.events, "main_first")
    assert len(side) == 1 and {side[0]["payer"], side[0]["payee"]} == {"Ben", "Dan"}


def test_bets_are_actions_refused_when_not_legal():
    table = hazard_dsl.load("hoyle").table(["Ann", "Ben"], purse=40, dice="1-4 3-4 2-3", bets=["odds"])
    table.play(table.strategy("flat", stake=10), until=lambda q: q.ask == "bet" and "Ben" in q.facts["bets"])
    q = table.waiting.to_json()
    assert q["player"] is None  # the table is asked who bets
    [ben] = q["bets"]["Ben"]
    assert ben["bet"] == "odds" and ben["most"] == "10" and ben["pays"] == "2 to 3" and ben["side"] == "layer"
    assert {"action": "done"} in q["actions"]
    before = json.dumps([table.to_json(), table.log])
    for action, reason in [({"action": "bet", "player": "Ben", "bet": "ods", "amount": 1}, "did you mean 'odds'"),
                           ({"action": "bet", "player": "Ben", "bet": "odds", "amount": 11}, "at most 10"),
                           ({"action": "bet", "player": "Ben", "bet": "odds", "amount": 0}, "more than 0"),
                           ({"action": "bet", "bet": "odds", "amount": 1}, "a bet names its player"),
                           ({"action": "bet", "player": "Dan", "bet": "odds", "amount": 1}, "not 'Dan'"),
                           ({"action": "stake", "amount": 1}, "'bet' or 'done'")]:
        with pytest.raises(IllegalAction, match=reason):
            table.apply(action)
        assert json.dumps([table.to_json(), table.log]) == before


def test_run_with_plans_logs_and_replays(tmp_path):
    log = tmp_path / "odds.log"
    cli = [sys.executable, "-m", "hazard_dsl"]
    made = subprocess.run(cli + ["run", "hoyle", "--players", "Ann,Ben,Cat", "--dice", "1-4 3-4 2-3", "--stake", "10",
                                 "--purse", "40", "--bet", "Ben:odds=10", "--bet", "Cat:odds=5", "--refuse",
                                 "Ann:odds", "--log", str(log)], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    assert "Ann declines Ben's offer of the odds on the chance for 10s." in made.stdout
    header = json.loads(log.read_text().splitlines()[0])
    assert header["bets"] == ["odds"]
    again = subprocess.run(cli + ["replay", str(log)], capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert "Ann declines Ben's offer of the odds" in again.stdout


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["hoyle", "craps", "french", "cotton", "petty", "history_sheet"]), st.integers(0, 2**16),
       st.data())
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_any_plans_conserve_money_and_keep_purses_at_or_above_nothing(name, seed, data):
    # cotton, petty and the history sheet: side bets between two at the table, single-throw bets;
    # a seat's own stake (0: an onlooker) besides
    variant = hazard_dsl.load(name)
    stake = variant.ruleset.table.stake
    bets = [b for b in variant.ruleset.bets if b != stake]
    players = ["Ann", "Ben", "Cat"]
    plans = {p: {b: Fraction(data.draw(st.integers(1, 8))) for b in data.draw(st.lists(st.sampled_from(bets),
                                                                                        max_size=4))}
             for p in players}
    refuse = {(p, b) for p in players for b in bets if data.draw(st.booleans())}
    table = variant.table(players, purse=data.draw(st.sampled_from([3, 10, "15/2"])), seed=seed, rounds=1)
    stakes = {p: Fraction(data.draw(st.integers(0, 3))) for p in players if data.draw(st.booleans())}
    strategy = table.strategy(data.draw(st.sampled_from(["flat", "fraction", "cautious"])), 2, plans, refuse, stakes)
    total = sum(table.purses.values())
    for _ in range(3000):
        if table.over:
            break
        table.apply(strategy(table.waiting))
        session = table.session
        assert all(p >= 0 for p in table.purses.values())
        assert sum(table.purses.values()) + session.bank + session.box == total
    again = variant.table(players, purse=table.session.seats[0].purse * 0 + Fraction(table.events[0]["purses"]["Ann"]),
                          seed=seed, rounds=1)
    assert replay(again, table.log).events == table.events


# ------------------------------------------------------------------ each ruleset's table bets


def played(table, plans=None, refuse=(), override=None, stake=1):
    """Play `table` to the end under flat stakes of `stake` and `plans`, `override(question)`
    answering first where it returns an action."""
    strategy = table.strategy("flat", stake, plans, refuse)
    while not table.over:
        q = table.waiting
        table.apply((override and override(q)) or strategy(q))
    return table.events


def test_chicken_two_setters_lay_the_odds_and_the_caster_refuses_one():
    """Chicken Hazard (built on Hoyle's): the caster calls seven; Ben and Cat set 4 each; 2-2 is the
    chance (four); both lay the odds to the amount of their stakes; Ann takes Ben's and refuses
    Cat's; 3-4 is the main: Ann loses both stakes and her odds with Ben. Four has 3 ways, seven
    6: the caster's odds pay 2 to 1, so Ben's 4 laid answers Ann's stake of 2 (Hoyle 1790's
    table, hazard-rules.md N10)."""
    table = hazard_dsl.load("chicken").table(["Ann", "Ben", "Cat"], purse=40, dice="2-2 3-4", bets=["odds"])
    events = played(table, {"Ben": {"odds": 4}, "Cat": {"odds": 4}}, stake=4, override=lambda q: (
        {"action": "refuse"} if q.ask == "cover" and q.facts.get("setter") == "Cat" and "bet" in q.facts else None))
    [taken] = [e for e in events if e["event"] == "bet"]
    [refused] = [e for e in events if e["event"] == "refuse"]
    assert (taken["who"], taken["against"], taken["amount"], taken["stake"]) == ("Ben", "Ann", "4", "2")
    assert (refused["who"], refused["against"], refused["declined"]) == ("Cat", "Ann", True)
    paid = [(e["payer"], e["payee"], e["amount"], e.get("bet")) for e in settles(events)]
    assert paid[:3] == [("Ann", "Ben", "4", None), ("Ann", "Cat", "4", None), ("Ann", "Ben", "2", "odds")]


def test_cotton_an_onlookers_side_bet_is_accepted_by_a_setter():
    """Cotton's table with an onlooker (Barker: "non-participants are welcome to place side-bets"):
    Dan stakes nothing, and backs the caster's game for 3 at even money; Ann (the caster) is
    asked first and declines, Ben accepts. 6-1 sets seven, 5-6 nicks it: Ben pays Dan 3."""
    table = hazard_dsl.load("cotton").table(["Ann", "Ben", "Dan"], purse=20, dice="6-1 5-6", bets=["side"])
    state = {"asked": []}

    def override(q):
        if q.ask == "stake" and q.player == "Dan":
            return {"action": "stake", "amount": 0}
        if q.ask == "bet":
            offered = [o["bet"] for o in q.facts["bets"].get("Dan", [])]
            made = any(e["event"] == "bet" for e in table.events)
            return {"action": "bet", "player": "Dan", "bet": "side", "amount": 3} if "side" in offered and not made \
                else {"action": "done"}
        if q.ask == "accept":
            state["asked"].append(q.player)
            return {"action": "decline" if q.player == "Ann" else "accept"}
        return None

    events = played(table, override=override)
    assert state["asked"] == ["Ann", "Ben"]
    [bet] = [e for e in events if e["event"] == "bet"]
    assert (bet["who"], bet["against"], bet["side"], bet["amount"]) == ("Dan", "Ben", "backer", "3")
    assert [(e["payer"], e["payee"], e["amount"]) for e in settles(events, "side")] == [("Ben", "Dan", "3")]


def test_history_sheet_first_caster_by_the_lowest_die_and_a_bet_on_the_next_throw():
    """The "History of Hazard & Craps" sheet: each throws one die, the lowest casts first (a tie
    thrown again: Ann and Cat tie on 2, Cat throws lower); bets between each roll: Ben puts 1 on
    twelve (35 to 1, true odds, laid by the next player to accept) before a throw of 6-6."""
    table = hazard_dsl.load("history_sheet").table(["Ann", "Ben", "Cat"], purse=40, dice="2 5 2 4 1 3-4 6-6 1-2",
                                                   bets=["twelve"])
    once = {"made": False}

    def override(q):
        if q.ask == "bet" and "Ben" in q.facts["bets"] and any(e["event"] == "throw" for e in table.events) \
                and not once["made"]:
            once["made"] = True
            return {"action": "bet", "player": "Ben", "bet": "twelve", "amount": 1}
        return None

    events = played(table, override=override)
    first = next(e for e in events if e["event"] == "first")
    assert first["caster"] == "Cat"
    [bet] = [e for e in events if e["event"] == "bet"]
    assert bet["bet"] == "twelve" and bet["who"] == "Ben"
    [won] = settles(events, "twelve")
    assert (won["payee"], won["amount"]) == ("Ben", "35")


def test_french_the_bank_pays_every_bet():
    table = hazard_dsl.load("french").table(["Ann", "Ben"], purse=40, seed=5, rounds=1)
    events = played(table, {"Ann": {"side": 2, "odds": 2}, "Ben": {"side": 2}})
    bets = [e for e in events if e["event"] == "bet"]
    assert bets and all(e["against"] == "bank" for e in bets)
    assert {e["payer"] for e in settles(events) if e["payee"] != "bank"} <= {"bank"}


def _seed_with_a_chance() -> int:
    """A seed whose first game at Hoyle's table sets a main and then a chance (odds open)."""
    for seed in range(200):
        table = hazard_dsl.load("hoyle").table(["Ann", "Ben"], purse=20, seed=seed, bets=["odds"])
        table.play(table.strategy(), until=lambda q: q.ask == "bet" and any(
            o["bet"] == "odds" for o in q.facts["bets"].get("Ben", [])))
        if not table.over and table.session.game == 1 and \
                sum(e["event"] == "throw" for e in table.events) == 2:
            return seed
    raise AssertionError("no seed sets a main and a chance in two throws")


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_play_offers_bets_explains_refuses_takes_and_resumes_mid_bet(short_tmp):
    """`play hoyle` at the keyboard: at the throw after the chance, `bets` lists what each may bet,
    `? odds` explains it; Ben backs a side bet, which Ann declines (Enter would decline too);
    Ben lays the odds and the session is cut at Ann's question (quit); resumed from its log, the
    same question is asked, `? odds` explains it there, Ann takes them, and they are settled."""
    seed = _seed_with_a_chance()
    answers = ["",  # Ann throws (nobody bets first): the main
               "", "",  # Ben's stake of 1, and Ann covers it
               "",  # Ann throws: the chance
               "bets", "? odds",  # at the next throw's prompt: what may be bet, and what odds is
               "Ben side 1", "n",  # Ben backs a side bet; Ann declines it
               "Ben odds 1",  # Ben lays the odds
               "quit"]  # and the session stops at Ann's question
    log = short_tmp / "hoyle.log"  # a short path, so the lines that name it fit in 80 columns
    result = subprocess.run([sys.executable, "-m", "hazard_dsl", "play", "hoyle", "--players", "Ann,Ben", "--purse", "20",
                             "--seed", str(seed), "--log", str(log)],
                            input="\n".join(answers) + "\n", capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, COLUMNS="80"))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # prompts are wrapped like the rest (a line longer than 80 only by the answer echoed after it)
    assert all(len(line) <= 80 or any(line.endswith(" " + a) and len(line) - len(a) <= 81 for a in answers if a)
               for line in out.splitlines() if "--resume" not in line)
    flat = " ".join(out.split())
    assert "Ben may bet:" in flat and "Ben odds AMOUNT: lay it against Ann, you pay " in flat  # `bets`
    assert "no edge either way from here" in flat  # Hoyle's odds are true odds, wherever they are laid
    assert "The odds on the chance (odds): chance against main" in flat  # `? odds`: its words, its description
    assert "Ann, Ben backs a side bet on the caster for 1s against you (a win pays the backer 1 to 1" in flat
    assert "Ann declines Ben's offer of a side bet on the caster for 1s." in flat
    assert "Ann, Ben lays the odds on the chance for 1s against you (a win pays the backer " in flat
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert {"action": "refuse", "player": "Ann"} in entries
    assert {"action": "bet", "player": "Ben", "bet": "odds", "amount": "1"} in entries
    resumed = subprocess.run([sys.executable, "-m", "hazard_dsl", "play", "--resume", str(log)],
                             input="? odds\ny\n" + "\n" * 60, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    again = " ".join(resumed.stdout.split())
    assert "Resuming" in again and "Ann, Ben lays the odds on the chance for 1s against you" in again  # asked again
    assert "The odds on the chance (odds): chance against main" in again  # explained at that question
    assert "Ben lays the odds on the chance for 1s against Ann." in again and " on the odds on the chance." in again  # taken, then settled


def test_at_the_keyboard_enter_declines_anothers_bet_and_may_ask_what_it_is():
    """Nobody takes on another's bet by pressing Enter: at `accept`, Enter declines; `? BET` there
    says what the bet is, and the payout shown is the one from where the game stands."""
    from hazard_dsl.play.actions import Question
    from hazard_dsl.cli.prompt import Terminal

    table = hazard_dsl.load("cotton").table(["Ann", "Ben", "Cat"], purse=20, seed=1)
    said, typed = [], iter(["? side", ""])
    terminal = Terminal(table.machine, table.chooser.solver, lambda prompt: said.append(prompt) or next(typed),
                        said.append, table=table)
    question = Question("accept", "Cat", {"maker": "Ben", "amount": "1", "bet": "side", "side": "backer",
                                          "pays": "1 to 1"})
    assert terminal(question) == {"action": "decline"}
    assert "[y/N]" in said[0] and "a win pays the backer 1 to 1" in said[0]
    # the bet by its words, as a sentence, then the name it is typed by
    assert said[1].startswith("A side bet on the caster (side): ") and said[1].endswith("it pays 1 to 1.")


def test_a_commission_taken_up_front_is_paid_as_the_bet_is_made():
    """Craps' buy bets with the vig paid when the bet is made (`--option vig=up_front`): 5% of the
    stake goes to the house at once, win or lose (craps.yaml; the Wizard of Odds' buy bets)."""
    craps = hazard_dsl.load("craps", vig="up_front")
    table = craps.table(["Ann"], purse=100, dice="2-2 6-6 3-1", bets=["buy_4"])
    events = played(table, {"Ann": {"buy_4": 20}})
    bet = next(e for e in events if e["event"] == "bet")
    assert (bet["who"], bet["against"], bet["amount"]) == ("Ann", "bank", "20")
    paid = next(e for e in events if e["event"] == "settle" and e["why"] == "commission")
    assert (paid["payer"], paid["payee"], paid["amount"], paid["bet"]) == ("Ann", "bank", "1", "buy_4")
    # 3-1: four before seven, at true odds, 2 to 1 (and the bet made again, its vig paid again)
    won = next(e for e in settles(events, "buy_4") if e["why"] != "commission")
    assert (won["payer"], won["payee"], won["amount"]) == ("bank", "Ann", "40")
    assert sum(table.purses.values()) + table.session.bank == 100


@pytest.mark.parametrize("name, bet", [("cotton", "side"), ("hoyle", "odds"), ("craps", "pass"), ("craps", "field"),
                                       ("french", "side")])
def test_a_bets_edge_from_where_the_game_stands(name, bet):
    """`play` prices a bet from where the table stands (BetTable.edge_at): weighed by where the
    game stands when the bet may first be made, those edges are `analyse`'s edge, exactly; and a
    side bet on Cotton's caster is worth more or less to his backer once his chance is set."""
    from hazard_dsl.commands.loading import build_machine, load
    from hazard_dsl.solve.bets import BetTable
    from hazard_dsl.solve.markov import Solver

    m = build_machine(load(name), [])
    solver = Solver(m)
    solver.set_policy("optimal")
    table = BetTable(m, solver)
    cb = m.bets[bet]
    placed = table.placement(cb)
    assert sum(p * table.edge_at(cb, g) for g, p in placed.items()) == table.figures_of(cb).edge
    edges = {table.edge_at(cb, g) for g in cb.made}
    if (name, bet) == ("cotton", "side"):
        assert min(edges) < table.figures_of(cb).edge < max(edges)
    if (name, bet) == ("hoyle", "odds"):
        assert edges == {0}
