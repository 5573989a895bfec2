"""A log of `play --plan` edited so that a planned seat's stake is not its plan's, resumed
(/work/notes/fuzz41/report.md F17): the refusal said "the log has Ben staking 3, but Ben's
plan (martingale) stakes 1s there" — the logged amount raw, the plan's in the game's money.
Both are now said in the game's money. The test failed before the fix."""

from __future__ import annotations

import contextlib
import io

from hazard_dsl.cli import main


def run(*argv, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        import sys

        old, sys.stdin = sys.stdin, io.StringIO(stdin)
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code
        finally:
            sys.stdin = old
    return code, out.getvalue(), " ".join(err.getvalue().split())


def test_a_stake_edited_away_from_the_plan_is_told_in_the_games_money(tmp_path):
    log = tmp_path / "planned.log"
    code, _, err = run("play", "cotton", "--players", "Ann,Ben,Cat", "--plan", "Ann:martingale", "--plan",
                       "Ben:martingale", "--plan", "Cat:martingale", "--seed", "5", "--log", str(log))
    assert code == 0, err
    lines = log.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if '"action": "stake"' in line)
    assert '"amount": "1"' in lines[first]  # a martingale's first stake: 1 shilling
    lines[first] = lines[first].replace('"amount": "1"', '"amount": "3"')
    cut = tmp_path / "edited.log"
    cut.write_text("\n".join(lines[:first + 1]) + "\n")  # cut after the edited action
    code, _, err = run("play", "--resume", str(cut), "cotton")
    assert code != 0
    assert "staking 3s, but" in err and "(martingale) stakes 1s there" in err
