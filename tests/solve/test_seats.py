"""Each seat's exact figures at the table (solve.seats; `analyse RULESET --bet SEAT:NAME=AMOUNT`):
a seat that makes the bets of its plan whenever the table allows, per game, per throw, per hand
and per round, against figures worked out here by hand and against sessions played at the table.

Sources of the figures:

* Hoyle 1790 pp. 239-240, as Wikipedia tabulates it (/work/shared/reference/hazard-rules.md S1,
  the odds table N10): the odds on chance against main are ways(main) to ways(chance), the true
  odds, so a setter who lays them on every chance has expected net 0 on them; the Encyclopaedia
  Britannica 1911 (S8): he lays them "to the amount of the original stake".
* The "History of Hazard & Craps" sheet (history_sheet.yaml): side bets "on individual throws",
  2 or 12 at 35 to 1 between two players; the dealers' summary of craps (hazard-rules.md, "2 or
  12: 30 to 1"): the house's price. A bet decided by the next throw, made at every throw, nets
  its edge times its amount on every throw.
* Craps: 557/165 throws per game and 1671/196 per shooter's hand (hazard-rules.md, "Craps process
  numbers"), so 495/196 games per hand.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

import pytest

import hazard_dsl
from hazard_dsl.cli import main as cli
from hazard_dsl.commands.loading import build_machine, load
from hazard_dsl.play.table import Table
from hazard_dsl.compile.bets import most_paid, most_paid_from
from hazard_dsl.solve.seats import SeatError, SeatSolver, seats

from tests.conftest import ROOT

SEAT_BETS = str(ROOT / "tests" / "data" / "rulesets" / "seat_bets.yaml")
WAYS = {n: 6 - abs(n - 7) for n in range(2, 13)}


def machine(name: str, bets, options=()):
    ruleset = load(name)
    stake = [ruleset.table.stake] if ruleset.table.stake else []
    return build_machine(ruleset, list(options), stake + list(bets))


def row(figures, seat: str, what: str, role: str):
    [found] = [r for r in figures.rows[seat] if r.what == what and r.role == role]
    return found


# ---------------------------------------------------------------------------- Hoyle's odds


def test_hoyles_odds_laid_by_a_setter_cost_him_nothing_per_game_or_per_hand():
    """N10, S1: the odds are true, so the setter who lays them on every chance nets 0 on them,
    per game and per hand; his stake nets the caster's edge (1.835%, N5), as a gain."""
    figures = seats(machine("hoyle", ["odds"]), {"Ben": {"odds": 2}}, stake=1)
    odds = row(figures, "Ben", "odds", "setter")
    assert (odds.side, odds.per_game, odds.per_hand) == ("layer", 0, 0)
    # made once a chance is thrown: the chance of a game reaching it, worked out from the table
    # of nicks and outs (main 5 or 9: 10 throws of 36 decide it; 6 or 8: 11; 7: 12), each main
    # thrown with the chance of its ways among the 24 ways of 5 to 9
    decided = {5: 10, 6: 11, 7: 12, 8: 11, 9: 10}
    chance = sum(F(WAYS[m], 24) * F(36 - decided[m], 36) for m in decided)
    assert chance == F(301, 432) and odds.wagers == chance
    # he lays 2, but at most "the amount of the original stake" (S8): 1
    assert odds.risk == chance * 1
    caster = row(figures, "Ben", "odds", "caster")
    assert (caster.side, caster.per_game, caster.per_hand) == ("backer", 0, 0)
    stake = row(figures, "Ben", "stake", "setter")
    assert stake.per_game == F(37, 2016) and stake.per_hand == F(37, 2016) * F(4032, 2053) == F(74, 2053)
    assert stake.edge == -F(37, 2016)


def test_a_caster_backing_hoyles_odds_against_the_setters_nets_nothing_either():
    figures = seats(machine("hoyle", ["odds"]), {"Ann": {"odds": 5}}, stake=3, players=["Ann", "Ben", "Cat"])
    assert row(figures, "Ann", "odds", "caster").per_game == 0
    # the caster's stake answers both setters: twice a setter's, the other way
    assert row(figures, "Ann", "stake", "caster").per_game == -2 * 3 * F(37, 2016)
    # Ben, the first setter on her left, takes her odds when she casts; when he casts, she lays
    # them to him as a setter (her plan's other side)
    taken = [r for r in figures.rows["Ben"] if r.maker == "Ann"]
    assert [(r.what, r.role, r.side, r.casters) for r in taken] == [("Ann's odds", "setter", "layer", ("Ann",)),
                                                                   ("Ann's odds", "caster", "backer", None)]
    assert not [r for r in figures.rows["Cat"] if r.maker == "Ann" and r.role == "setter"]


# ---------------------------------------------------------------------------- a bet on one throw


@pytest.mark.parametrize("name, bet, amount, edge", [
    # the house's 30 to 1 on 12 (hazard-rules.md): 1 throw in 36 wins 30, 35 lose 1: 5/36
    ("craps", "twelve", 1, F(5, 36)),
    ("craps", "two", F(5, 2), F(5, 36)),
    # the sheet's side bets at the true odds of the throw, 35 to 1: no edge
    ("history_sheet", "twelve", 2, F(0)),
    ("history_sheet", "two", 1, F(0)),
])
def test_a_bet_on_the_next_throw_nets_its_analysed_edge_on_every_throw(name, bet, amount, edge):
    assert hazard_dsl.load(name).analyse().bets[bet].edge == edge  # the edge `analyse` gives it
    figures = seats(machine(name, [bet]), {"Ben": {bet: amount}})
    for role in ("caster", "setter"):
        r = row(figures, "Ben", bet, role)
        assert figures.per_throw(r) == -edge * amount
        assert r.wagers == figures.throws  # one wager on every throw
        assert r.per_game == -edge * amount * figures.throws
        assert r.per_hand == r.per_game * figures.games_per_hand
    if name == "craps":
        assert figures.throws == F(557, 165) and figures.games_per_hand == F(495, 196)


def test_a_setters_bet_on_the_next_throw_is_the_casters_to_lay():
    """A bet a setter backs and the caster lays: the caster who plans it lays it to the setter
    on his left; the setter's stake is what he puts at risk over what a win pays (30)."""
    figures = seats(machine(SEAT_BETS, ["twelve_at_thirty"]), {"Ben": {"twelve_at_thirty": 3}}, stake=1,
                    players=["Ann", "Ben", "Cat"])
    setter = row(figures, "Ben", "twelve_at_thirty", "setter")
    assert (setter.side, figures.per_throw(setter)) == ("backer", -3 * F(5, 36))
    caster = row(figures, "Ben", "twelve_at_thirty", "caster")
    assert (caster.side, figures.per_throw(caster)) == ("layer", F(3, 30) * F(5, 36))
    # Ann covers Ben's bet when she casts; Cat, on Ben's left, takes it when Ben casts
    assert [(r.role, r.side, r.per_game, r.casters) for r in figures.rows["Ann"] if r.maker] == \
        [("caster", "layer", -setter.per_game, None)]
    assert [(r.role, r.side, r.per_game, r.casters) for r in figures.rows["Cat"] if r.maker] == \
        [("setter", "backer", -caster.per_game, ("Ben",)), ("caster", "layer", -setter.per_game, None)]
    # a round: each casts one hand; what Ben loses as a setter, Ann and Cat win as casters
    games = F(4032, 2053)
    stake = F(37, 2016) * games
    assert figures.per_round["Ben"] == games * (caster.per_game + 2 * setter.per_game)
    assert figures.per_round["Ann"] == games * -setter.per_game
    assert figures.per_round["Cat"] == games * (-setter.per_game - caster.per_game)
    assert stake and sum(figures.per_round.values()) == 0 and figures.bank_per_round == 0


# ---------------------------------------------------------------------------- wagers carried


def test_a_wager_carried_from_game_to_game_is_solved_in_the_long_run():
    """six before seven stays up from game to game: made again at the throw after it is decided,
    so in the long run a wager is up on every throw and 11 throws of 36 decide it (6 or 7); each
    wins 5 times in 11 at even money."""
    figures = seats(machine(SEAT_BETS, ["six_before_seven"]), {"Ben": {"six_before_seven": 3}}, stake=1,
                    players=["Ann", "Ben"])
    caster = row(figures, "Ben", "six_before_seven", "caster")
    assert caster.carried and caster.wagers == figures.throws * F(11, 36)
    assert caster.per_game / caster.wagers == 3 * (F(5, 11) - F(6, 11))
    setter = row(figures, "Ben", "six_before_seven", "setter")
    assert setter.per_game == -caster.per_game
    # as caster he backs it, as setter he lays it: a wager carried over the passing of the box is
    # played differently, so the games of a hand are not alike
    assert caster.per_hand is None and figures.per_round is None and "six_before_seven" in figures.why_no_round


def test_a_place_bet_carried_alike_in_either_role_has_a_hand():
    figures = seats(machine("craps", ["place_6"]), {"Ben": {"place_6": 6}})
    r = row(figures, "Ben", "place_6", "caster")
    assert r.carried and r.per_hand == r.per_game * F(495, 196)
    assert r.per_game / r.wagers == -6 * hazard_dsl.load("craps").analyse().bets["place_6"].edge  # 1/66 of it


def test_odds_backing_the_pass_line_are_capped_by_the_stake_times_the_multiple():
    """Craps' free odds back the pass line (the stake): at most 3, 4 or 5 times it (3-4-5x), at
    true odds, so they cost nothing; made on every point."""
    figures = seats(machine("craps", ["odds"]), {"Ben": {"odds": 100}}, stake=2)
    r = row(figures, "Ben", "odds", "caster")
    assert r.per_game == 0
    points = {4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3}  # the multiple of each point
    assert r.risk == sum(F(WAYS[p], 36) * 2 * m for p, m in points.items())


# ---------------------------------------------------------------------------- the table's rules


@pytest.mark.parametrize("name", ["hoyle", "craps", "french", SEAT_BETS])
def test_what_a_layer_sets_aside_is_the_most_a_win_can_pay_from_where_it_was_made(name):
    """compile.bets.most_paid_from, which the table and the seats' figures both use: never more
    than the bet's largest payout anywhere, and at Hoyle's odds made on a chance of seven against
    a main of five, exactly the odds there (4 ways to 6: 2 to 3)."""
    m = machine(name, [b for b in load(name).bets][:12])
    for cb in m.bets.values():
        for g in sorted(cb.made)[:40]:
            assert most_paid_from(cb, m, g) <= most_paid(cb), (cb.name, g)
    if name == "hoyle":
        five_seven = m.find("chance", main=5, chance=7).index
        assert most_paid_from(m.bets["odds"], m, five_seven) == F(2, 3)


def test_a_bet_the_seat_cannot_make_in_a_role_says_why():
    chains = SeatSolver(machine(SEAT_BETS, ["twelve_at_thirty"]))
    lone = chains.sides({"twelve_at_thirty": 1}, "setter", seats=2)
    assert lone["twelve_at_thirty"].side == "backer"  # the caster takes it
    solo = SeatSolver(machine("history_sheet", ["two"])).sides({"two": 1}, "caster", seats=1)
    assert solo["two"].side is None and "nobody" in solo["two"].why_not


def test_two_plans_that_would_meet_at_the_table_are_refused():
    with pytest.raises(SeatError, match="Ann and Ben both plan odds"):
        seats(machine("hoyle", ["odds"]), {"Ann": {"odds": 1}, "Ben": {"odds": 1}}, players=["Ann", "Ben"])


# ---------------------------------------------------------------------------- against play


def category(r, stake: str | None) -> str:
    if r.what.startswith("fee "):
        return r.what
    return "stake" if r.bet in (stake, None) else r.bet


def played(name: str, bets: list, plans: dict, players: list, sessions: int, stake=1, options=()):
    """Sessions of one round at the table under the plans: each seat's net per game, in total
    and by what it came from (a bet, the stake, a fee), beside the exact figure, with the
    standard error of a ratio of means (the delta method)."""
    m = machine(name, bets, options)
    exact = seats(m, plans, stake, players)
    stake_name = m.ruleset.table.stake
    expected: dict = {}
    n = len(players)
    for seat in players:
        for r in exact.rows[seat]:
            hands = 1 if r.role == "caster" else (len(r.casters) if r.casters else n - 1)
            key = (seat, category(r, stake_name))
            expected[key] = expected.get(key, F(0)) + hands * r.per_hand
        expected[seat, "all"] = exact.per_round[seat]
    nets = {key: [] for key in expected}
    games = []
    for k in range(sessions):
        table = Table(m, players, purse=10 ** 6, rounds=1, seed=k, history=False, bets=bets)
        events = table.play(table.strategy("flat", stake=stake, plans=plans))
        got = {key: F(0) for key in expected}
        for e in events:
            if e["event"] != "settle":
                continue
            what = e.get("bet") or (f"fee {e['fee']}" if "fee" in e else "stake")
            for who, sign in ((e["payer"], -1), (e["payee"], 1)):
                if (who, what) in got:
                    got[who, what] += sign * F(e["amount"])
                    got[who, "all"] += sign * F(e["amount"])
        assert all(got[s, "all"] == table.purses[s] - 10 ** 6 for s in players)  # every settlement counted
        for key in expected:
            nets[key].append(float(got[key]))
        games.append(table.session.game)
    mean_games = sum(games) / sessions
    out = {}
    for key, values in nets.items():
        theta = float(expected[key]) / (n * float(exact.games_per_hand))  # per game of a round
        estimate = sum(values) / sum(games)
        residuals = [v - estimate * g for v, g in zip(values, games)]
        sd = math.sqrt(sum(x * x for x in residuals) / (sessions - 1))
        out[key] = (estimate, theta, sd / math.sqrt(sessions) / mean_games)
    return out


@pytest.mark.parametrize("name, bets, plans, players, sessions", [
    # Ben lays Hoyle's odds on every chance as a setter, and backs them as the caster
    ("hoyle", ["odds"], {"Ben": {"odds": 2}}, ["Ann", "Ben", "Cat"], 400),
    # the house's one-roll props, every throw, with the bank
    ("craps", ["twelve", "two"], {"Ben": {"twelve": 1}, "Ann": {"two": 2}}, ["Ann", "Ben"], 250),
    # a setter's bet on the next throw at a house's price, laid by the caster (or by Ben, casting)
    (SEAT_BETS, ["twelve_at_thirty"], {"Ben": {"twelve_at_thirty": 1}}, ["Ann", "Ben", "Cat"], 300),
    # the sheet's side bets between players, and a side bet on the caster's game (Barker)
    ("history_sheet", ["twelve", "side"], {"Ben": {"twelve": 1}, "Cat": {"side": 2}}, ["Ann", "Ben", "Cat"], 300),
])
@pytest.mark.statistical  # a simulation against exact figures
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_sessions_at_the_table_agree_with_each_seats_exact_figures(name, bets, plans, players, sessions):
    """Each seat's net per game over sessions of one round, in all and from each bet, the stake
    and each fee, within four standard errors of the exact figure."""
    for key, (estimate, theta, se) in played(name, bets, plans, players, sessions).items():
        if se == 0:
            assert estimate == pytest.approx(theta, abs=1e-12), key
        else:
            assert abs(estimate - theta) <= 4 * se, (key, estimate, theta, se)


# ---------------------------------------------------------------------------- the command


def run_cli(capsys, *argv):
    code = cli(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_analyse_gives_each_seats_figures_as_json(capsys):
    code, out = run_cli(capsys, "analyse", "hoyle", "--hand", "--bet", "Ben:odds=2", "--players", "Ann,Ben,Cat",
                        "--stake", "1", "--no-options", "--json")
    assert code == 0
    data = json.loads(out)["seats"]
    assert data["plans"] == {"Ben": {"odds": "2"}} and data["players"] == ["Ann", "Ben", "Cat"]
    [odds] = [r for r in data["seats"]["Ben"] if r["what"] == "odds" and r["role"] == "setter"]
    assert odds["per_game"] == odds["per_hand"] == odds["per_throw"] == "0" and odds["side"] == "layer"
    assert data["games_per_hand"] == "4032/2053" and set(data["round"]["per_round"]) == {"Ann", "Ben", "Cat"}


def test_a_bet_without_a_seat_is_still_a_combination(capsys):
    code, out = run_cli(capsys, "analyse", "craps", "--bet", "pass=10", "--bet", "odds=3-4-5x", "--no-options",
                        "--json")
    data = json.loads(out)
    assert code == 0 and data["combination"]["edge"] == "7/1870" and "seats" not in data


@pytest.mark.parametrize("argv, said", [
    (["--bet", "Ben:odds=2", "--bet", "odds=2"], "names no seat"),
    (["--bet", "Ben:ods=2"], "did you mean 'odds'"),
    (["--bet", "Bn:odds=2", "--players", "Ann,Ben"], "did you mean 'Ben'"),
    (["--bet", "Ben:odds=nothing"], "is not an amount of money"),
    (["--bet", "Ben:odds=0"], "the amount must be more than 0"),
    (["--bet", "Ben:odds=1e999"], "is not an amount of money"),
    (["--bet", "Ben:stake=2"], "the exact figures take one stake for every setter"),
    (["--stake", "2"], "--goal and --stake go together"),
    (["--bet", "Ann:odds=1", "--bet", "Ben:odds=1", "--players", "Ann,Ben"], "both plan odds"),
    (["--bet", "Ben:odds=2", "--stake", "0"], "more than 0"),
])
def test_mistakes_are_told_with_exit_2(capsys, argv, said):
    code, out = run_cli(capsys, "analyse", "hoyle", "--no-options", *argv)
    assert code == 2 and said in out and "Traceback" not in out


def test_an_up_front_commission_is_in_the_figures_analyse_prints(capsys):
    code, out = run_cli(capsys, "analyse", "craps", "--option", "vig=up_front", "--bet", "Ben:buy_4=20",
                        "--no-options", "--json")
    assert code == 0
    rows = json.loads(out)["seats"]["seats"]["Ben"]
    assert {r["edge"] for r in rows if r["bet"] == "buy_4"} == {"1/21"}


def test_simulate_at_the_table_plays_the_bets_beside_the_exact_figures(capsys):
    code, out = run_cli(capsys, "simulate", "hoyle", "--players", "Ann,Ben", "--bet", "Ben:odds=2", "--games", "10",
                        "--seed", "1")
    assert code == 0 and "beside the exact figure" in out and "Ben" in out


def test_the_long_run_of_games_strung_together():
    """The share of games starting in each state of the wagers carried: the stationary
    distribution of the closed class reached, weighed by the chance of reaching it."""
    from hazard_dsl.solve.seats import long_run

    chain = {"a": {"a": F(1, 2), "b": F(1, 4), "c": F(1, 4)}, "b": {"b": F(1)},
             "c": {"c": F(1, 2), "d": F(1, 2)}, "d": {"c": F(1)}}
    # from a: b for ever with 1/2; else c and d, d always back to c, c half the time to d
    assert long_run(chain, "a") == {"b": F(1, 2), "c": F(1, 3), "d": F(1, 6)}
    assert long_run({"x": {"y": F(1)}, "y": {"x": F(1)}}, "x") == {"x": F(1, 2), "y": F(1, 2)}  # periodic
    assert long_run({"x": {"x": F(1)}}, "x") == {"x": F(1)}


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_commission_taken_up_front_is_in_the_seats_figures_as_the_table_takes_it():
    """Craps' buy bets with the vig paid up front (the table charges it as the bet is made): the
    seat's edge per unit it puts in (stake and commission) is the bet's edge from analyse, 1/21
    (5% of the bet over the 1.05 paid in; the buy bet itself pays true odds), and sessions on
    the table agree with the exact net per round within four standard errors."""
    from fractions import Fraction

    import hazard_dsl
    from hazard_dsl.commands.simulate import planned_rounds
    from hazard_dsl.commands.sessions import table_settings

    craps = hazard_dsl.load("craps", vig="up_front")
    assert craps.analyse().bets["buy_4"].edge == Fraction(1, 21)
    figures = craps.seats({"Ann": {"buy_4": 20}}, players=["Ann", "Ben"])
    [buy] = {r.edge for r in figures.rows["Ann"] if r.bet == "buy_4"}
    assert buy == Fraction(1, 21)
    settings = table_settings(craps.ruleset, "craps", players="Ann,Ben", purse="1000")
    report = planned_rounds(craps.ruleset, settings, {"Ann": {"buy_4": Fraction(20)}}, set(), 600, 3,
                            {"vig": "up_front"})
    ann = report["seats"]["Ann"]
    assert ann["exact"] == figures.per_round["Ann"]
    assert abs(ann["z"]) <= 4, ann
