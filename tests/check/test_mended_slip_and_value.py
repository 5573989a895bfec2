"""A layout slip the reader mends (`paysé1`, a key without its colon, read as `pays:` with
nothing after it) leaves the value's own error at the same place in the author's text; that
error still holds the game back (found by the language service's edit property test, seed 77:
the game was explored with a bet that pays nothing, and `check` exited 70)."""

import subprocess
import sys
from pathlib import Path

EDITOR = Path(__file__).resolve().parents[1] / "data" / "rulesets" / "editor"


def test_a_mended_key_whose_value_is_wrong_holds_the_game_back(tmp_path):
    text = (EDITOR / "small.yaml").read_text(encoding="utf-8")
    assert "    pays: 1 to 1\n" in text
    path = tmp_path / "slip.yaml"
    path.write_text(text.replace("    pays: 1 to 1\n", "    paysé1\n"), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "hazard_dsl", "check", str(path)], capture_output=True,
                         text=True, encoding="utf-8", timeout=120)
    assert run.returncode == 1, run.stderr
    assert "internal error" not in run.stderr
    assert "slip.yaml:33:11: error: pays must read like 7 to 6 or 30 for 1" in run.stderr
    assert "held back: the game itself" in run.stderr
