"""Today's audit of the best stake, Kelly, --risk and the progressions (issue 38): refusals that
are plain and come before any work, and the progressions of the bets-only games."""

from __future__ import annotations

import pytest

from hazard_dsl.cli import main
from hazard_dsl.solve.progressions import PROGRESSIONS, progression_run

REFUSAL = "a game that cannot be both won and lost leaves no choice of stake"
BETS_ONLY = ("sic_bo", "chuck_a_luck", "crown_and_anchor", "grand_hazard")


@pytest.mark.parametrize("game", BETS_ONLY)
def test_every_progression_of_a_bets_only_game_is_refused_plainly(game, capsys):
    # the caster of a bets-only game neither wins nor loses: the chain would push for ever
    # (it was a ZeroDivisionError, exit 70); the refusal is the best stake's and Kelly's
    for name in PROGRESSIONS:
        code = main(["analyse", game, "--strategy", name, "--bankroll", "5", "--goal", "10", "--stake", "1"])
        err = capsys.readouterr().err
        assert code == 2 and REFUSAL in err and "internal error" not in err, (game, name, code, err)
    for words in (["--stake", "best", "--bankroll", "5", "--goal", "10"], ["--stake", "kelly"]):
        assert main(["analyse", game, *words]) == 2
        assert REFUSAL in capsys.readouterr().err


@pytest.mark.parametrize("name", PROGRESSIONS)
def test_a_game_of_pushes_only_is_refused_by_the_chain_itself(name):
    with pytest.raises(ValueError, match=REFUSAL):
        progression_run({0: 1}, name, 5, 10, 1)
