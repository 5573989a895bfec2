"""One seat's strategy at a table where the caster is answered by setters, exactly
(solve.table_strategy): checked against a second computation written here — the session of two
players at Cotton's table modelled by hand from the published chance of the caster and the rule
file's passing, solved by a dense elimination of our own — against the seat chain
(solve.seat_ruin) where a flat stake makes them the same session, against the progressions'
chain (solve.progressions) at a table with a bank, where every game is the same game, and
against sessions simulated in lanes (simulate.sessions.play_to_goal)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hazard_dsl.commands.loading import build_machine, load
from hazard_dsl.solve.seats import SeatSolver, seat_ruin
from hazard_dsl.solve.table_strategy import (
    MAX_TABLE_STRATEGY_NODES,
    TableStrategyError,
    stake_rule,
    table_strategy,
)

# Cotton's caster wins a game with 1979/4032 (≈ 49.08%): the nick 35/216 and the chance won
# 3977/12096, summed over the mains from the table of nick, out and chance per main in
# Wikipedia's "Hazard (game)" after Cotton 1674 pp. 168-169, and games.porg.es's 49.08%
CASTER_WINS = Fraction(1979, 4032)


def machine(name: str, options=()):
    return build_machine(load(name), list(options))


# ---------------------------------------------------------------------------- a second method


def _solve(unknowns: list, equations: dict) -> dict:
    """x = b + Σ a x', by Gauss–Jordan elimination over Fractions on the matrix (I − A), its
    rows kept as {column: coefficient} (the last column, n, is b): `equations` {state: (b,
    {state': a})}."""
    index = {s: i for i, s in enumerate(unknowns)}
    n = len(unknowns)
    rows = []
    for s in unknowns:
        b, terms = equations[s]
        row = {index[s]: Fraction(1), n: Fraction(b)}
        for t, a in terms.items():
            row[index[t]] = row.get(index[t], Fraction(0)) - a
        rows.append(row)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r].get(col))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = {k: v / head for k, v in rows[col].items() if v}
        for r in range(n):
            factor = rows[r].get(col) if r != col else None
            if factor:
                for k, v in rows[col].items():
                    rows[r][k] = rows[r].get(k, Fraction(0)) - factor * v
                del rows[r][col]
    return {s: rows[index[s]].get(n, Fraction(0)) for s in unknowns}


def cotton_by_hand(purse: int, goal: int, progression: str, seat_casts_first: bool) -> tuple:
    """Two players at Cotton's table (rulesets/cotton.yaml: each setter stakes even money
    against the caster, the dice pass to the left after a loss), the seat from `purse` to
    `goal`, the other staking 1 flat: P(goal) and the expected games, from equations written out
    by hand. As the caster the seat wins or loses the other's stake of 1 and keeps the box
    while he wins; as the setter he stakes `progression`'s ("flat": 1; "martingale": 1 doubled
    after each loss, 1 again after a win, at most his purse) against the caster, and gets the
    box when the caster loses. Ruin: an empty purse, or less than 1 when he must answer as the
    caster. The martingale reads his purse at each stake he lays against his purse at his last
    one (play.strategies.Progressions), whatever games he cast between."""
    w = CASTER_WINS

    def ends(p: int, casting: bool):
        return p >= goal or p <= 0 or (casting and p < 1)

    def moves(state):
        casting, p, doubled, before, last = state
        if casting:
            return [(w, (True, p + 1, doubled, before, last)), (1 - w, (False, p - 1, doubled, before, last))]
        if progression == "martingale" and before is not None:
            doubled = 0 if p > before else doubled + 1 if p < before else doubled
        x = min(2 ** doubled if progression == "martingale" else 1, p)
        return [(w, (False, p - x, doubled, p, x)), (1 - w, (True, p + x, doubled, p, x))]

    first = (seat_casts_first, purse, 0, None, None)
    unknowns, queue = [first], [first]
    while queue:
        state = queue.pop()
        for _, nxt in moves(state):
            if not ends(nxt[1], nxt[0]) and nxt not in unknowns:
                unknowns.append(nxt)
                queue.append(nxt)

    def system(reward_at_goal: bool):
        eq = {}
        for s in unknowns:
            b, terms = Fraction(0), {}
            if not reward_at_goal:
                b = Fraction(1)  # a game played
            for p, nxt in moves(s):
                if ends(nxt[1], nxt[0]):
                    b += p if reward_at_goal and nxt[1] >= goal else 0
                else:
                    terms[nxt] = terms.get(nxt, Fraction(0)) + p
            eq[s] = (b, terms)
        return eq

    return _solve(unknowns, system(True))[first], _solve(unknowns, system(False))[first]


@pytest.mark.parametrize("progression", ["flat", "martingale"])
@pytest.mark.parametrize("seat", ["Ann", "Ben"])
def test_two_players_at_cotton_agree_with_the_session_worked_by_hand(progression, seat):
    """From a purse of 3 to 6: the chain of the compiled game, each game's outcomes for the
    seat in its role, against the equations written out by hand above — both as the first
    caster (Ann) and as the first setter (Ben)."""
    m = machine("cotton")
    exact = table_strategy(m, ["Ann", "Ben"], seat, stake_rule(progression, 1), 3, 6, 1)
    reach, games = cotton_by_hand(3, 6, progression, seat == "Ann")
    assert exact.reach_goal == reach
    assert exact.games == games
    assert exact.ruin == 1 - reach


def test_the_martingale_from_four_to_eight_against_the_session_worked_by_hand():
    """A longer session, whose martingale meets stakes cut short by the purse."""
    m = machine("cotton")
    exact = table_strategy(m, ["Ann", "Ben"], "Ben", stake_rule("martingale", 1), 4, 8, 1)
    reach, games = cotton_by_hand(4, 8, "martingale", False)
    assert (exact.reach_goal, exact.games) == (reach, games)
    assert exact.reach_goal != table_strategy(m, ["Ann", "Ben"], "Ben", stake_rule("flat", 1), 4, 8, 1).reach_goal


def test_the_purse_at_the_end_is_a_distribution_over_the_goal_and_ruin():
    """The purses at the end are at least the goal or at most nothing (the caster is ruined
    below 1 only at a purse of 0 here, as the stakes are whole), their chances sum to one, and
    their mean is the bankroll plus the net."""
    m = machine("cotton")
    exact = table_strategy(m, ["Ann", "Ben"], "Ben", stake_rule("martingale", 1), 3, 6, 1)
    assert sum(exact.purses.values()) == 1
    assert all(v >= 6 or v <= 0 for v in exact.purses)
    assert sum((p for v, p in exact.purses.items() if v >= 6), Fraction(0)) == exact.reach_goal
    assert exact.net == sum((v * p for v, p in exact.nets.items()), Fraction(0))
    # worked by hand: the martingale doubles only after the purse fell since its last stake,
    # which at a purse of 5 was at least 6, the goal; so no stake takes a purse past 6
    assert set(exact.purses) == {0, 6}


# ---------------------------------------------------------------------------- where other chains overlap


@pytest.mark.parametrize("options, players", [
    ((), ["Ann", "Ben", "Cat"]),
    (("passing=three_losses",), ["Ann", "Ben", "Cat"]),
])
def test_a_flat_stake_is_the_seat_chain_of_solve_seat_ruin(options, players):
    """Staking 1 flat, the seat plays the session solve.seat_ruin solves by its own chain (its
    plan empty, every setter staking 1): the same chance, games and purse at the end, with the
    box passing after each loss and after three in a row."""
    m = machine("cotton", options)
    chains = SeatSolver(m)
    for seat in players:
        mine = table_strategy(m, players, seat, stake_rule("flat", 1), 4, 8, 1, chains=chains)
        theirs = seat_ruin(m, {}, players, seat, 4, 8, 1, chains=chains)
        assert (mine.reach_goal, mine.games, mine.final_purse) == \
            (theirs.reach_goal, theirs.games, theirs.final_purse), seat
        assert mine.games_casting == theirs.games_as["caster"]


@pytest.mark.parametrize("name", ["martingale", "paroli", "fibonacci", "labouchere"])
def test_at_a_table_with_a_bank_it_is_the_progressions_chain(name):
    """With a bank every game of the seat is the stake bet's, whoever casts: the session is the
    one solve.progressions solves over (purse, progression) alone. The stake bet's game (the
    French game's caster wins 5629/12096) is counted by commands.strategy_goal."""
    from hazard_dsl.commands.strategy_goal import exact_outcomes
    from hazard_dsl.solve.progressions import progression_run

    m = machine("french")
    chains = SeatSolver(m)
    outcomes, why = exact_outcomes(m, chains.solver, m.ruleset)
    assert why is None and outcomes == {1: Fraction(5629, 12096), -1: Fraction(6467, 12096)}
    mine = table_strategy(m, ["Ann", "Ben"], "Ben", stake_rule(name, 1, cap=8), 6, 12, 1, chains=chains)
    theirs = progression_run(outcomes, name, 6, 12, 1, 8)
    assert (mine.reach_goal, mine.games, mine.staked, mine.nets) == \
        (theirs.reach_goal, theirs.games, theirs.staked, theirs.nets)


# ---------------------------------------------------------------------------- refusals


def test_a_chain_too_large_is_refused_before_it_is_built_with_its_size_and_the_bound():
    import time

    m = machine("cotton")
    started = time.perf_counter()
    with pytest.raises(TableStrategyError) as caught:
        table_strategy(m, ["Ann", "Ben"], "Ann", stake_rule("martingale", 1), 10, 10_000, 1)
    assert time.perf_counter() - started < 5  # judged, not built
    said = str(caught.value)
    # the purse's whole values 1 to 9,999 at each of the two places of the box
    assert f"{MAX_TABLE_STRATEGY_NODES:,}" in said and "19,998" in said and "simulate" in said


def test_a_progression_where_a_game_can_end_before_any_stake_is_refused():
    """The history sheet's games end without a main a third of the time, asking no stake: a
    progression reads the purse only at its stakes, which this chain does not follow. A flat
    stake, which reads nothing, is still solved there, as solve.seat_ruin solves it."""
    m = machine("history_sheet")
    with pytest.raises(TableStrategyError, match=r"a stake is laid in 2/3 of the games"):
        table_strategy(m, ["Ann", "Ben"], "Ann", stake_rule("martingale", 1), 3, 6, 1)
    flat = table_strategy(m, ["Ann", "Ben"], "Ann", stake_rule("flat", 1), 3, 6, 1)
    assert flat.reach_goal == seat_ruin(m, {}, ["Ann", "Ben"], "Ann", 3, 6, 1).reach_goal


# ---------------------------------------------------------------------------- against simulation


SIMULATED = [("cotton", "martingale", 1, Fraction(8), ["Ann", "Ben", "Cat"]),
             ("cotton", "best", 5, None, ["Ann", "Ben", "Cat"]),
             ("hoyle", "martingale", 1, Fraction(4), ["Ann", "Ben"])]  # hoyle: its box fee from the caster


@pytest.mark.statistical  # a simulation against exact figures
@pytest.mark.slow  # seconds, not milliseconds
@pytest.mark.parametrize("ruleset, name, stake, cap, players", SIMULATED, ids=[f"{r}-{n}" for r, n, *_ in SIMULATED])
def test_sessions_simulated_in_lanes_agree_within_four_standard_errors(ruleset, name, stake, cap, players):
    """`simulate --players … --strategy S --goal 20` (commands.strategy_goal: each game drawn
    whole from its exact categories, simulate.sessions.play_to_goal, a sampler written apart
    from this chain) prints this chain beside its sessions: each seat's chance of the goal, its
    games and its purse at the end within four standard errors."""
    from hazard_dsl.commands.strategy_goal import strategy_to_goal

    settings = {"players": players, "purse": Fraction(10), "stake": Fraction(stake), "strategy": name,
                "rounds": 1, "policy": "optimal", "ruleset": ruleset}
    report = strategy_to_goal(load(ruleset), settings, 4000, 11, Fraction(20), cap=cap)
    for seat in players:
        row = report["seats"][seat]
        assert row["why_no_exact"] is None and row["unfinished"] == 0, (seat, row["why_no_exact"])
        for figure, exact, z in (("reached", "exact_reach", "z_reach"), ("games", "exact_games", "z_games"),
                                 ("purse", "exact_purse", "z_purse")):
            if row[z] is None:  # no spread to divide by (the first caster's one game of 10): the same figure
                assert row[figure] == float(row[exact]), (seat, figure, row)
            else:
                assert abs(row[z]) < 4, (seat, z, row)


def test_a_first_caster_who_cannot_answer_the_setters_is_ruined_before_his_first_game():
    """Ann casts first at a table of three with 1, less than the two stakes of 1 she must
    answer: ruined at once, no game played, as the table (and simulate.sessions.play_to_goal)
    rules her; Ben, who sets first, plays on from the same purse, and is ruined only when the box
    comes to him (he stakes what he holds as a setter: at most his purse)."""
    from hazard_dsl.solve.table_strategy import exact_at_table

    m = machine("cotton")
    chains = SeatSolver(m)
    found = exact_at_table(m, chains.solver, ["Ann", "Ben", "Cat"], "martingale", Fraction(1), Fraction(3),
                           Fraction(1))
    ann, why = found["Ann"]
    assert why is None and (ann.ruin, ann.games, ann.purses) == (1, 0, {Fraction(1): 1})
    ben, why = found["Ben"]
    assert why is None and ben.games >= 1 and 0 < ben.reach_goal < 1


def test_the_first_caster_answering_two_stakes_of_five_from_ten_plays_one_game_for_twenty():
    """With the best stake of 1 to 5 at a table of three from 10 to 20, Ann casts first and
    must answer Ben's and Cat's stakes of 5: one game decides her session, won with the
    caster's chance, 1979/4032 (CASTER_WINS above, published), whatever her policy as setter."""
    from hazard_dsl.solve.table_strategy import exact_at_table

    m = machine("cotton")
    found = exact_at_table(m, SeatSolver(m).solver, ["Ann", "Ben", "Cat"], "best", Fraction(10), Fraction(20),
                           Fraction(5))
    ann, why = found["Ann"]
    assert why is None and (ann.reach_goal, ann.games, ann.games_casting) == (CASTER_WINS, 1, 1)
    assert ann.purses == {Fraction(0): 1 - CASTER_WINS, Fraction(20): CASTER_WINS}
    assert all(found[seat][0] is not None for seat in ("Ben", "Cat"))
