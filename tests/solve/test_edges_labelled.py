"""Every edge says what it divides by, and the stake's edge is one figure wherever it is printed
(issue 34, point 3): per stake laid, in the caster's game, the bets table, each seat's table at
the table, compare and the JSON; a figure per game is a net per game, never called an edge.

Where the expected figures come from:

* The history sheet (rulesets/history_sheet.yaml) plays Cotton's table of nicks and outs, but a
  first throw outside 5-9 loses the turn before any stake is laid (no_main). The chance of a
  stake and the caster's chance once it is laid are worked out below by enumerating the 36
  throws of two fair dice (`_history_sheet_by_hand`), independently of the compiled machine:
  a stake in 24/36 = 2/3 of games, and then the caster wins 1979/4032 — Cotton's figure, 49.08%
  (/work/shared/reference/hazard-rules.md S2; tests/project/test_published_figures.py N5), an edge of
  (2053 − 1979)/4032 = 37/2016 (1.835%, Scarne's 1.84%, S1) per stake laid.
* Per game, a third of games carry no stake, so the caster's net per game is 2/3 × −37/2016 =
  −37/3024 (−1.224%): the figure the seats' tables printed as the stake's "edge" before, dividing
  by stakes never laid.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

from hazard_dsl.cli import main as cli
from hazard_dsl.commands.loading import build_machine, load
from hazard_dsl.solve.analysis import analyse
from hazard_dsl.solve.seats import SeatSolver, seats

EXAMPLE = ["analyse", "history_sheet", "--players", "Ann,Ben,Cat", "--bet", "Ben:twelve=1", "--bet", "Cat:side=2",
           "--no-options"]
WAYS = {n: 6 - abs(n - 7) for n in range(2, 13)}  # throws of two fair dice making each total, of 36


def _history_sheet_by_hand() -> tuple[F, F, F]:
    """(the chance a game lays a stake, the caster's chance of winning and of losing once it is
    laid), from the rules as the sheet and Cotton state them, over the 36 throws."""
    nicks = {5: {5}, 6: {6, 12}, 7: {7, 11}, 8: {8, 12}, 9: {9}}
    outs = {5: {2, 3, 11, 12}, 6: {2, 3, 11}, 7: {2, 3, 12}, 8: {2, 3, 11}, 9: {2, 3, 11, 12}}
    laid = win = lose = F(0)
    for main in range(5, 10):
        p_main = F(WAYS[main], 36)
        laid += p_main
        for chance in range(2, 13):
            p = p_main * F(WAYS[chance], 36)
            if chance in nicks[main]:
                win += p
            elif chance in outs[main]:
                lose += p
            else:  # thrown on until the chance (he wins) or the main (he loses)
                win += p * F(WAYS[chance], WAYS[chance] + WAYS[main])
                lose += p * F(WAYS[main], WAYS[chance] + WAYS[main])
    return laid, win / laid, lose / laid


LAID, WIN_LAID, LOSE_LAID = _history_sheet_by_hand()
EDGE_PER_STAKE_LAID = LOSE_LAID - WIN_LAID


def test_the_figures_worked_out_by_hand_are_cottons():
    assert LAID == F(2, 3) and WIN_LAID == F(1979, 4032) and EDGE_PER_STAKE_LAID == F(37, 2016)


def _machine(name: str, bets=(), options=()):
    ruleset = load(name)
    return build_machine(ruleset, list(options), [ruleset.table.stake, *bets])


def test_the_chain_counts_the_stakes_laid():
    """The stakes laid per game come from the seat's chain (a stake laid at the first throw where
    the stake bet may be made), not from a rule about any ruleset: 2/3 for the history sheet as
    enumerated, 1 for Cotton, whose bad first throws are thrown again, and Cotton with a lost
    first throw agrees with the bet analysis' own chance that a game reaches the stake."""
    sheet = SeatSolver(_machine("history_sheet"))
    assert sheet.stake_laid() == LAID
    assert sheet.stake_unit() == LAID * (WIN_LAID - LOSE_LAID) == F(-37, 3024)  # per game, per unit staked
    assert SeatSolver(_machine("cotton")).stake_laid() == 1
    lost = _machine("cotton", options=["first_throw=lose"])
    assert SeatSolver(lost).stake_laid() == analyse(lost).bets["stake"].made_per_game == F(2, 3)


def test_each_seats_stake_has_the_stakes_edge_per_stake_laid():
    """Every seat's stake, as caster (covering two setters) and as setter (laying against the
    caster), nets the edge per stake laid: what it puts at risk is counted in the games that lay a
    stake, 2 × 2/3 a game for the caster of a table of three, 2/3 for a setter."""
    figures = seats(_machine("history_sheet", ["twelve", "side"]), {"Ben": {"twelve": 1}, "Cat": {"side": 2}},
                    players=["Ann", "Ben", "Cat"])
    for seat in ("Ann", "Ben", "Cat"):
        caster, setter = ([r for r in figures.rows[seat] if r.what == "stake" and r.role == role]
                          for role in ("caster", "setter"))
        assert (caster[0].edge, setter[0].edge) == (EDGE_PER_STAKE_LAID, -EDGE_PER_STAKE_LAID)
        assert (caster[0].risk, setter[0].risk) == (2 * LAID, LAID)
        assert caster[0].per_game == 2 * LAID * (WIN_LAID - LOSE_LAID) == F(-37, 1512)
    # the side bet is laid at the first throw of every game and pushed on no_main: per unit staked,
    # its edge counts those games (the bets table's 37/3024), and Cat's figure is the same one
    [side] = [r for r in figures.rows["Cat"] if r.what == "side" and r.role == "caster"]
    assert side.edge == LAID * EDGE_PER_STAKE_LAID == F(37, 3024)


def test_the_json_keeps_its_keys_and_says_each_edges_divisor(capsys):
    assert cli([*EXAMPLE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["edge"] == "37/3024"  # kept: P(lose) − P(win) per game, as before
    assert data["edge_per_stake_laid"] == data["stake"]["edge"] == data["bets"]["stake"]["edge"] == "37/2016"
    assert F(data["edge_per_stake_laid"]) == EDGE_PER_STAKE_LAID
    assert F(data["net_per_game"]) == LAID * (WIN_LAID - LOSE_LAID) == F(-37, 3024)
    for seat, rows in data["seats"]["seats"].items():
        stakes = {r["role"]: r for r in rows if r["what"] == "stake"}
        assert stakes["caster"]["edge"] == "37/2016" and stakes["setter"]["edge"] == "-37/2016", seat
        assert stakes["caster"]["risk_per_game"] == "4/3" and stakes["setter"]["risk_per_game"] == "2/3", seat
    # where every game lays a stake, the two are one figure
    assert cli(["analyse", "cotton", "--no-options", "--json"]) == 0
    cotton = json.loads(capsys.readouterr().out)
    assert cotton["edge_per_stake_laid"] == cotton["edge"] == "37/2016" and cotton["net_per_game"] == "-37/2016"


def _text(argv, columns: int, capsys, monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    assert cli(argv) == 0
    return capsys.readouterr().out


def test_the_example_at_80_columns_prints_the_stake_at_one_edge(capsys, monkeypatch):
    text = _text(EXAMPLE, 80, capsys, monkeypatch)
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80
    assert "edge per game" not in text  # a figure per game is a net
    summary = {line.split("  ")[0].strip(): line.split()[-2:] for line in lines[:20] if "  " in line}
    assert summary["edge of the stake (per stake laid)"] == ["37/2016", "1.835%"]
    assert summary["caster's net per game, in stakes (no main as a push)"] == ["-37/3024", "-1.224%"]
    stakes = [line.split() for line in lines if line.startswith(" stake ")]
    # the bets table's row, then each seat's two rows: caster (backer) and setter (layer)
    assert stakes[0][:2] == ["stake", "caster"] and "1.835%" in stakes[0]
    seat_rows = stakes[1:]
    assert len(seat_rows) == 6
    assert [r[-1] for r in seat_rows] == ["1.835%", "-1.835%"] * 3
    # "1.224%" is the side bet's own edge per unit staked, Cat's side and Ann's taking of it; and the
    # caster's net per game above
    assert {line.split()[0] for line in lines if "1.224%" in line and "net" not in line} == {"side", "Cat's"}
    # the columns say what they are per; a narrow column breaks "caster :" / "setter", never "caster" / ":"
    assert "edge % per" in text and "unit at risk" in text and "net per game" in text.replace("\n", " ")
    assert not any(line.strip() == ":" for line in lines)


def test_markdown_and_csv_name_the_columns_in_full(capsys, monkeypatch):
    markdown = _text([*EXAMPLE, "--format", "markdown"], 200, capsys, monkeypatch)
    assert "| bet | as | side | net per game | net per throw | net per hand | edge % per unit at risk |" in markdown
    assert "|  | net per round | net per game |" in markdown
    csv = _text([*EXAMPLE, "--format", "csv"], 200, capsys, monkeypatch)
    header = csv.splitlines()[0].split(",")
    assert "edge % per unit at risk" in header and "net per game" in header
    assert "caster : setter" in csv and "\u00a0" not in csv  # the unbroken space is for the terminal only


def test_compare_names_the_stakes_edge_and_the_net_per_game(capsys, monkeypatch):
    text = _text(["compare", "cotton", "history_sheet"], 80, capsys, monkeypatch)
    assert max(map(len, text.splitlines())) <= 80
    rows = {line.split("  ")[0].strip(): line.split() for line in text.splitlines() if line.startswith(" ")}
    assert rows["edge per stake laid"][-4:] == ["37/2016", "(1.835%)", "37/2016", "(1.835%)"]
    assert rows["caster's net per game"][-4:] == ["-37/2016", "(-1.835%)", "-37/3024", "(-1.224%)"]
    assert "edge per game" not in text


def test_the_option_tables_give_the_game_per_game_as_a_net(capsys, monkeypatch):
    """Under first_throw=lose a bad first throw counts as a loss though no stake is laid: per game
    the caster nets 2/3 × −37/2016 − 1/3 = −1045/3024 (−34.557%), not an edge of the stake."""
    text = _text(["analyse", "history_sheet"], 80, capsys, monkeypatch)
    table = text.split("Option first_throw: the caster's game under each value")[1].split("\n\n")[1]
    assert "net per game %" in table and "edge" not in table
    rows = {line.split()[0]: line.split() for line in table.splitlines()[2:]}
    assert rows["lose"][3] == "-34.557%" and rows["lose_turn"][-2] == "-1.224%"
    assert F(2, 3) * -EDGE_PER_STAKE_LAID - F(1, 3) == F(-1045, 3024)


def test_the_simulator_meets_the_stake_at_its_edge_per_stake_laid():
    """An independent estimate: the simulator plays the history sheet's games on its own engine,
    makes the stake wherever it may, and counts its net per unit staked over the stakes it made:
    within four standard errors of −37/2016 (the game that lays none is no bet made)."""
    import hazard_dsl

    games = 60_000
    sim = hazard_dsl.load("history_sheet").simulate(games=games, seed=7, bets={"stake": 1}).bets["stake"]
    net = sim.net_per_unit
    assert F(net.exact) == -EDGE_PER_STAKE_LAID
    assert abs(net.value - float(-EDGE_PER_STAKE_LAID)) < 4 * net.stderr


def test_the_by_table_gives_each_mains_edge_per_stake_laid(capsys, monkeypatch):
    """By main: a main of 5 nets Cotton's 1.517% (S2's 49.24% to win), a game without a main lays
    no stake and has no edge, and the row 'all' is the stake's 1.835%, not 1.224% per game."""
    text = _text(["analyse", "history_sheet", "--by", "main", "--no-options"], 80, capsys, monkeypatch)
    rows = {line.split()[0]: line.split() for line in text.split("By main:")[1].split("\n\n")[1].splitlines()[3:]}
    assert rows["0"][8] == "—" and rows["5"][8] == "1.517" and rows["all"][8] == "1.835"
