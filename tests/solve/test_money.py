"""Bets, banks and fees: exact edges from the engine, checked against the published figures of
the reference (../shared/reference/hazard-rules.md, sections 3, 8 and 9) and against an
independent calculation written here from first principles."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from hazard_dsl.cli import main
from hazard_dsl.compile.bets import BetMachine
from hazard_dsl.render.tables import percent
from hazard_dsl.solve.analysis import analyse
from hazard_dsl.solve.bets import BetTable
from hazard_dsl.solve.markov import Solver
from tests.conftest import machine
from tests.published import HOYLE_ODDS

WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}


def table(name, policy="optimal", **options):
    m = machine(name, **options)
    solver = Solver(m)
    solver.set_policy(policy)
    return BetTable(m, solver)


# --------------------------------------------------------------------------- Hoyle


def test_hoyle_odds_table_is_reproduced_exactly():
    # Hoyle 1790 pp. 239-240 via S1; reference §3: the odds paid to a caster backing his chance.
    published = HOYLE_ODDS
    t = table("hoyle")
    figures = t.figures("odds")
    m = t.machine
    found = {}
    for g, net in figures.pays.items():
        state = m.states[g]
        found.setdefault(state.value(m, "main"), {})[state.value(m, "chance")] = net
    assert found == {main: {c: F(text) for c, text in row.items()} for main, row in published.items()}


def test_hoyle_odds_bet_has_no_edge_and_halves_the_stakes_edge():
    t = table("hoyle")
    assert t.figures("odds").edge == 0
    assert t.figures("stake").edge == F(37, 2016)
    # reference §3: stake plus odds equal to it whenever a chance is set: random main 1.0817%
    assert percent(t.combination([("stake", "1"), ("odds", "1x")]).edge, 4) == "1.0817%"


@pytest.mark.parametrize("main, shown", [(5, "0.8807%"), (6, "1.3827%"), (7, "0.8485%"), (8, "1.3827%"), (9, "0.8807%")])
def test_stake_plus_odds_per_main(main, shown):
    # reference §3 and §4: the edge per unit staked with 1x true odds, for each main.
    t = table("chicken", policy=str(main))
    assert percent(t.combination([("stake", "1"), ("odds", "1x")]).edge, 4) == shown


def test_hoyle_box_fee_after_three_successive_mains():
    # half a guinea (21/2 shillings) after three successive mains won; a loss starts the count
    # again. Long run: a game completes a run of three with probability p³ / (1 + p + p²).
    a = analyse(machine("hoyle"))
    p = a.win
    fee = a.fees["box"]
    assert fee.amount == F(21, 2)
    assert fee.due_per_game == p ** 3 / (1 + p + p * p)
    assert fee.cost_per_game == F(21, 2) * p ** 3 / (1 + p + p * p)


def test_chicken_box_fee_is_five_shillings():
    a = analyse(machine("chicken"))
    p = F(244, 495)  # the caster calls 7
    assert a.fees["box"].cost_per_game == 5 * p ** 3 / (1 + p + p * p)


# --------------------------------------------------------------------------- French


@pytest.mark.parametrize("option, edge", [("out", F(419, 6048)), ("void", F(-85, 5544)), ("sca", F(31, 672))])
def test_french_stake_edge_under_each_candidate(option, edge):
    # reference §5: D1, D2, D3 as the bank's edge on the caster's even-money stake.
    assert table("french", not_a_nick=option).figures("stake").edge == edge


@pytest.mark.parametrize("option, short", [("true_odds", F(0)), ("twentieth_short", F(1, 20)), ("tenth_short", F(1, 10))])
def test_french_short_odds(option, short):
    # The bank pays (1 − short) × true odds r. At true odds P(win)·r = P(lose) chance by chance,
    # so the bettor loses short × P(win)·r summed over chances = short × P(lose) per unit.
    figures = table("french", bank_odds=option).figures("odds")
    assert figures.edge == short * figures.lose


def test_analyse_french_shows_each_option(capsys):
    assert main(["analyse", "french", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by = data["by_option"]
    assert by["not_a_nick"]["void"]["stake"] == "-85/5544"
    assert by["bank_odds"]["true_odds"]["odds"] == "0"
    assert F(by["bank_odds"]["tenth_short"]["odds"]) > F(by["bank_odds"]["twentieth_short"]["odds"]) > 0


# --------------------------------------------------------------------------- craps


def test_n13_pass_and_dont_pass():
    # S11, S12: pass 1.414%, don't pass 1.364% (1.402% excluding pushes: 3/220 ÷ 35/36).
    t = table("craps")
    assert t.figures("pass").edge == F(7, 495)
    dont = t.figures("dont_pass")
    assert dont.edge == F(3, 220) and dont.push == F(1, 36)
    assert dont.edge_per_decision == F(3, 220) / F(35, 36)
    assert [percent(x, 3) for x in (F(7, 495), dont.edge)] == ["1.414%", "1.364%"]


@pytest.mark.parametrize("odds, shown", [("1x", "0.848%"), ("2x", "0.606%"), ("3x", "0.471%"), ("3-4-5x", "0.374%")])
def test_n14_pass_with_odds(odds, shown):
    # S12: pass plus 1x / 2x / 3x / 3-4-5x odds, per unit of money staked.
    assert percent(table("craps").combination([("pass", "10"), ("odds", odds)]).edge, 3) == shown


def _before_seven(n):
    return F(WAYS[n], WAYS[n] + 6)


def independent_edges(vig="on_win", field_12=2, props_pay="to"):
    """Each bet's edge per unit of money staked, from first principles (not from the engine)."""
    edges = {"pass": F(7, 495), "come": F(7, 495), "dont_pass": F(3, 220), "dont_come": F(3, 220),
             "odds": F(0), "lay_odds": F(0)}
    place = {4: F(9, 5), 5: F(7, 5), 6: F(7, 6), 8: F(7, 6), 9: F(7, 5), 10: F(9, 5)}
    true = {n: F(6, WAYS[n]) for n in place}
    for n in place:
        p = _before_seven(n)
        edges[f"place_{n}"] = -(p * place[n] - (1 - p))
        # buy: true odds, 5% of the bet; on a win only, or up front (then staked 1.05)
        if vig == "on_win":
            edges[f"buy_{n}"] = -(p * (true[n] - F(1, 20)) - (1 - p))
        else:
            edges[f"buy_{n}"] = -(p * true[n] - (1 - p) - F(1, 20)) / F(21, 20)
        # lay: 7 before n at 1/true, 5% of the win
        q = 1 - p
        win = 1 / true[n]
        if vig == "on_win":
            edges[f"lay_{n}"] = -(q * win * F(19, 20) - p)
        else:
            commission = win / 20
            edges[f"lay_{n}"] = -(q * win - p - commission) / (1 + commission)
    for n, pays in ((4, 7), (6, 9), (8, 9), (10, 7)):
        p = F(1, WAYS[n] + 6)  # the one hard way before 7 or an easy n
        edges[f"hard_{n}"] = -(p * pays - (1 - p))
    for n in (6, 8):
        edges[f"big_{n}"] = -(_before_seven(n) - (1 - _before_seven(n)))

    def one_roll(pays: dict):  # total -> net on a win; every other total loses 1
        ev = sum(F(WAYS[t], 36) * pays.get(t, -1) for t in range(2, 13))
        return -ev

    edges["field"] = one_roll({2: 2, 12: field_12, 3: 1, 4: 1, 9: 1, 10: 1, 11: 1})
    edges["any_seven"] = one_roll({7: 4})
    edges["any_craps"] = one_roll({2: 7, 3: 7, 12: 7})
    prop = {"to": {30: 30, 15: 15}, "for": {30: 29, 15: 14}}[props_pay]
    edges["two"] = one_roll({2: prop[30]})
    edges["twelve"] = one_roll({12: prop[30]})
    edges["three"] = one_roll({3: prop[15]})
    edges["eleven"] = one_roll({11: prop[15]})
    # horn: 1 unit on each of 2, 3, 11, 12 (4 staked)
    edges["horn"] = one_roll({t: F(prop[30 if t in (2, 12) else 15] - 3, 4) for t in (2, 3, 11, 12)})
    # C&E: 1 unit on any craps (7 to 1), 1 on eleven (15 to 1); 2 staked
    edges["ce"] = one_roll({2: F(7 - 1, 2), 3: F(7 - 1, 2), 12: F(7 - 1, 2), 11: F(15 - 1, 2)})
    return edges


@pytest.mark.parametrize("options", [{}, {"vig": "up_front", "field_12": 3, "props_pay": "for"}])
def test_every_craps_bet_against_an_independent_calculation(options):
    t = table("craps", **options)
    expected = independent_edges(**options)
    names = set(t.machine.ruleset.bets)
    issue_names = {"pass", "dont_pass", "come", "dont_come", "odds", "lay_odds", "field", "big_6", "big_8",
                   "any_seven", "any_craps", "two", "three", "eleven", "twelve", "horn", "ce"}
    issue_names |= {f"{kind}_{n}" for kind in ("place", "buy", "lay") for n in (4, 5, 6, 8, 9, 10)}
    issue_names |= {f"hard_{n}" for n in (4, 6, 8, 10)}
    assert issue_names <= names
    for name in sorted(issue_names):
        assert t.figures(name).edge == expected[name], name


def test_known_craps_percentages():
    # Commonly published house edges, as a readable cross-check of the exact fractions.
    t = table("craps")
    shown = {name: percent(t.figures(name).edge, 2) for name in
             ("place_6", "place_5", "place_4", "buy_4", "field", "hard_6", "hard_4", "any_seven", "horn", "ce")}
    assert shown == {"place_6": "1.52%", "place_5": "4.00%", "place_4": "6.67%", "buy_4": "1.67%", "field": "5.56%",
                     "hard_6": "9.09%", "hard_4": "11.11%", "any_seven": "16.67%", "horn": "12.50%", "ce": "11.11%"}


def test_analyse_craps_json_lists_every_bet(capsys):
    assert main(["analyse", "craps", "--json", "--no-options", "--bet", "pass=10", "--bet", "odds=3-4-5x"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["bets"]) == 39  # 6 line and odds, 18 place/buy/lay, 4 hard, 2 big, 9 one-roll
    for figures in data["bets"].values():
        assert set(figures) >= {"win", "lose", "push", "edge", "edge_per_decision", "expected_throws"}
    assert data["bets"]["place_6"]["edge"] == "1/66"
    assert data["combination"]["edge"] == "7/1870"


def test_place_bet_made_on_the_come_out_is_off_until_a_point():
    t = table("craps")
    bm = BetMachine(t.machine, t.machine.ruleset.bets["place_6"])
    come_out = t.machine.states[t.machine.start.target]
    after = t.machine.states[come_out.steps[6 * 2 + 3].target]  # 3-4: a seven on the come-out
    assert bm.step(come_out, bm.start, (3, 4), after) == bm.start  # neither wins nor loses
