"""Numbers that explain themselves: one edge, one precision, real payouts, and why a bet's
edge is not the game's."""

from __future__ import annotations

import re

from hazard_dsl.render.report import EDGE_MEANS, analysis_tables
from hazard_dsl.solve.analysis import analyse

from tests.conftest import machine


def _tables(name, **options):
    return {t.title: t for t in analysis_tables(analyse(machine(name, **options)))}


def _bet_rows(tables):
    (bets,) = [t for title, t in tables.items() if title.startswith("Bets")]
    return bets, {row[0]: dict(zip(bets.columns, row)) for row in bets.rows}


def test_the_field_says_what_it_really_pays():
    _, rows = _bet_rows(_tables("craps"))
    assert rows["field"]["pays"] == "1 to 1, 2 to 1"
    _, rows = _bet_rows(_tables("craps", field_12=3))
    assert rows["field"]["pays"] == "1 to 1, 2 to 1, 3 to 1"
    assert rows["place_6"]["pays"] == "7 to 6"
    assert rows["buy_4"]["pays"] == "2 to 1 less 5% of bet"
    assert rows["lay_4"]["pays"] == "1 to 2 less 5% of win"
    assert rows["odds"]["pays"] == "varies (below)"


def test_a_payout_expression_is_summarised_not_printed_raw():
    _, rows = _bet_rows(_tables("french"))
    for row in rows.values():
        assert "if" not in row["pays"] and "option." not in row["pays"]


def test_every_edge_has_the_same_precision():
    tables = _tables("craps")
    _, rows = _bet_rows(tables)
    summary = next(t for title, t in tables.items() if title.startswith("The caster's game"))
    edges = [row[2] for row in summary.rows if row[0] == "edge"] + [r["edge %"] for r in rows.values()]
    assert all(re.fullmatch(r"-?\d+\.\d{3}%", e) for e in edges), edges


def test_the_edge_is_defined_once():
    text = "\n".join(filter(None, [t.caption for t in _tables("craps").values()]))
    assert text.count("edge: the expected loss per unit staked") == 1 and EDGE_MEANS in text


def test_a_bet_made_in_fewer_games_says_why_its_edge_differs():
    tables = _tables("cotton", first_throw="lose")
    bets, rows = _bet_rows(tables)
    assert rows["stake"]["edge %"] == "1.835%"
    summary = next(t for title, t in tables.items() if title.startswith("The caster's game"))
    assert "A stake is laid in 66.67% of games" in summary.caption
    assert "stake is made only" not in bets.caption  # said once, above
    assert "A come bet is made only in 66.67% of games: those that reach the point;" in " ".join(
        _bet_rows(_tables("craps"))[0].caption.split())


def test_fees_are_shown_for_a_ruleset_without_bets(write_ruleset):
    from hazard_dsl.compile.compiler import compile_ruleset
    from hazard_dsl.check.reading import read_ruleset

    path = write_ruleset("name: box only\nphases:\n  roll:\n    - when: total == 7\n      do: win\n"
                         "    - otherwise: lose\nfees:\n  box:\n    amount: 1\n    rules:\n"
                         "      - when: result == \"win\"\n        do: pay box\n")
    ruleset = read_ruleset(path)
    assert not ruleset.bets and ruleset.fees
    (fees,) = [t for t in analysis_tables(analyse(compile_ruleset(ruleset))) if t.title.startswith("Fees")]
    assert fees.rows[0][3] == "16.67%"


def test_a_bet_made_in_fewer_games_is_told_in_words_with_one_exact_line(capsys):
    """Hoyle's odds are made once a chance is thrown (made: phase == "chance"): 69.68% of games.
    The note names the bet by its words and the phase by its words, never `made:` or `odds`;
    at 80 columns the edge column goes and one line says where the exact figures are."""
    from hazard_dsl.cli import main as cli

    assert cli(["analyse", "hoyle", "--hand", "--players", "Ann,Ben,Cat", "--bet", "Ben:odds=2",
                "--no-options"]) == 0
    out = capsys.readouterr().out
    flat = " ".join(out.split())
    assert ("The odds on the chance is made only in 69.68% of games: those that reach the chance; games that end "
            "before are not staked, so its edge is not the game's.") in flat
    assert "made: condition" not in flat
    assert "\nExact win/lose/push and edges: --format json.\n" in out
    assert "Exact edges: --format json." not in out


def test_games_before_any_stake_are_told_by_the_label_in_words(capsys):
    from hazard_dsl.cli import main as cli

    assert cli(["analyse", "history_sheet"]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    assert "the others end in no main before any stake is laid" in flat
    assert "(no main as a push)" in flat and "no_main as" not in flat
