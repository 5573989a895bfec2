"""A seat's net over N games at the table, exactly (solve.seat_ruin.seat_games; `analyse
--players Ann,Ben,Cat --bet Ben:side=1 --games N`, the API's `seats_over_games`).

The expected distributions are enumerated here apart from the seat chains: every sequence of
N game results, each game's chance and each seat's net worked out by hand from Cotton's rules
(The Compleat Gamester, 1674, pp. 168-173, as rulesets/cotton.yaml reads him):

* the caster's game: a main thrown from 5 to 9 (a throw outside is thrown again); the nicks
  (5: 5; 6: 6, 12; 7: 7, 11; 8: 8, 12; 9: 9) win, the outs (2, 3 always; 11, 12 against 5 or 9;
  11 against 6 or 8; 12 against 7) lose, any other throw is the chance, then won by throwing the
  chance before the main — P(the caster wins) = 1979/4032, counted below from the 36 throws;
* the dice pass after every loss (the option `passing=after_loss`, the default), the first
  player casting first;
* every setter stakes 1 against the caster, who covers each (±2 at a table of three); `side`
  backs the caster's game at even money (the ruleset's note: "one backing the caster's game and
  the other the main"), a bet between two players: the table gives it to the first seat on the
  maker's left, Cat for Ben's, who lays it in every game, his own hands too.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F

import pytest

import hazard_dsl
from hazard_dsl.cli import main
from hazard_dsl.errors import ArgumentError

WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}
NICKS = {5: {5}, 6: {6, 12}, 7: {7, 11}, 8: {8, 12}, 9: {9}}
OUTS = {5: {2, 3, 11, 12}, 6: {2, 3, 11}, 7: {2, 3, 12}, 8: {2, 3, 11}, 9: {2, 3, 11, 12}}


def caster_wins() -> F:
    mains = sum(WAYS[m] for m in NICKS)  # a throw outside 5-9 is thrown again: the main is one of these
    total = F(0)
    for the_main, ways in ((m, WAYS[m]) for m in NICKS):
        win = F(sum(WAYS[t] for t in NICKS[the_main]), 36)
        for chance in range(2, 13):
            if chance in NICKS[the_main] or chance in OUTS[the_main]:
                continue
            win += F(WAYS[chance], 36) * F(WAYS[chance], WAYS[chance] + WAYS[the_main])
        total += F(ways, mains) * win
    return total


P_WIN = caster_wins()
PLAYERS = ["Ann", "Ben", "Cat"]


def enumerated(games: int, seat: str, side: bool) -> tuple[dict, F]:
    """({net: chance}, expected coin-in) of `seat` over `games` games, every sequence of results."""
    out: dict = {}
    coin = F(0)
    for results in itertools.product((True, False), repeat=games):  # True: the caster wins
        chance, net, caster, staked = F(1), F(0), 0, 0
        for won in results:
            chance *= P_WIN if won else 1 - P_WIN
            mine = PLAYERS[caster] == seat
            sign = 1 if won else -1
            net += sign * (2 if mine else -1)  # the stakes: he covers both setters, or lays one
            risk = 2 if mine else 1
            if side and seat == "Ben":  # Ben backs the caster's game, whoever casts
                net += sign
                risk += 1
            if side and seat == "Cat":  # Cat takes Ben's side, whoever casts: lays it
                net -= sign
                risk += 1
            staked += risk
            if not won:  # the dice pass after every loss
                caster = (caster + 1) % len(PLAYERS)
        out[net] = out.get(net, F(0)) + chance
        coin += chance * staked
    return {k: p for k, p in out.items() if p}, coin


@pytest.fixture(scope="module")
def cotton():
    return hazard_dsl.load("cotton")


def test_cottons_game_is_the_counted_one():
    assert P_WIN == F(1979, 4032)


@pytest.mark.parametrize("games", [1, 2, 3])
@pytest.mark.parametrize("side", [False, True])
def test_each_seats_net_is_the_enumerated_one(cotton, games, side):
    nets = cotton.seats_over_games(PLAYERS, games, {"Ben": {"side": 1}} if side else None)
    for seat in PLAYERS:
        expected, coin = enumerated(games, seat, side)
        assert nets[seat].outcomes == dict(sorted(expected.items())), seat
        assert nets[seat].coin_in == coin, seat
        assert nets[seat].ahead == sum((p for v, p in expected.items() if v > 0), F(0))


def test_the_nets_of_the_table_add_to_what_the_box_and_others_keep(cotton):
    # nobody else is at the table and no fee is charged: every shilling one seat wins another loses
    nets = cotton.seats_over_games(PLAYERS, 12, {"Ben": {"side": 1}})
    assert sum((d.mean for d in nets.values()), F(0)) == 0
    assert all(sum(d.outcomes.values()) == 1 for d in nets.values())


def test_the_json_gives_the_seats_net_exactly(capsys):
    assert main(["analyse", "cotton", "--no-options", "--players", "Ann,Ben,Cat", "--bet", "Ben:side=1",
                 "--games", "2", "--json"]) == 0
    ben = json.loads(capsys.readouterr().out)["seats_over_games"]["Ben"]
    expected, coin = enumerated(2, "Ben", True)
    assert ben["distribution"] == {str(v): str(p) for v, p in sorted(expected.items())}
    assert ben["coin_in"] == str(coin) and ben["games"] == 2
    assert ben["players"] == PLAYERS and ben["plan"] == {"side": "1"}
    assert F(ben["ahead"]) == expected[F(3)]


def test_the_text_fits_eighty_columns(capsys):
    assert main(["analyse", "cotton", "--no-options", "--players", "Ann,Ben,Cat", "--bet", "Ben:side=1",
                 "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert "Ben's net over 20 games at a table of Ann, Ben, Cat (side=1) (in shillings)" in out
    assert "Ann's net over" not in out  # the seats planned, not every player
    assert max(len(line) for line in out.splitlines()) <= 80


def test_too_many_games_are_refused_before_the_walk_naming_the_bound(cotton, capsys):
    with pytest.raises(ArgumentError) as found:
        cotton.seats_over_games(PLAYERS, 5000, {"Ben": {"side": 1}})
    assert "200,000,000" in str(found.value)
    assert main(["analyse", "cotton", "--no-options", "--players", "Ann,Ben,Cat", "--bet", "Ben:side=1",
                 "--games", "5000"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hazard-dsl: error: --games 5000: ") and "200,000,000" in err


def test_the_players_are_needed_and_stops_are_refused(capsys):
    assert main(["analyse", "cotton", "--no-options", "--bet", "Ben:side=1", "--games", "9"]) == 2
    assert "--players is needed with --games" in capsys.readouterr().err
    assert main(["analyse", "cotton", "--no-options", "--players", "Ann,Ben", "--bet", "Ben:side=1", "--games",
                 "9", "--stop-loss", "3"]) == 2
    assert "--stop-loss takes one bettor's plan" in capsys.readouterr().err


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_chart_of_a_seats_net(tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    from hazard_dsl.render import plot

    drawn = []
    real = plot.risk_chart
    monkeypatch.setattr(plot, "risk_chart", lambda risk, *a, **k: (drawn.append(risk), real(risk, *a, **k)))
    path = tmp_path / "seat.png"
    assert main(["analyse", "cotton", "--no-options", "--players", "Ann,Ben,Cat", "--bet", "Ben:side=1", "--games",
                 "2", "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    expected, _ = enumerated(2, "Ben", True)
    assert drawn[0].session.outcomes == dict(sorted(expected.items()))  # Ben's net, the seat planned
