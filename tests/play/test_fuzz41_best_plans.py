"""`play --plan SEAT:best` judged before the first throw as `run --strategy best` is
(/work/notes/fuzz41/report.md F14): a purse of 6d played "the best stake towards a purse of
2s" (twice 6d is 1s: the policy is solved in whole units), and a purse of 5000 was refused
only at the seat's first stake, the game under way. Each test failed before the fix."""

from __future__ import annotations


from tests.in_process import said


def run(*argv) -> tuple[int, str, str]:
    return said(*argv, words=True)


PLAY = ["play", "cotton", "--players", "Ann,Ben", "--no-log", "--seed", "3", "--plan", "Ann:best", "--plan", "Ben:best"]


def test_a_purse_of_a_fraction_of_a_unit_is_refused_before_the_first_throw():
    code, out, err = run(*PLAY, "--purse", "1/2")
    assert (code, out) == (2, "")
    assert "--plan Ann:best stakes whole units (its policy is solved in them): give --purse and --stake in " \
           "whole units, not 1/2 and 1" in err


def test_a_purse_too_large_for_the_policy_is_refused_before_the_first_throw():
    code, out, err = run(*PLAY, "--purse", "5000")
    assert (code, out) == (2, "")  # no game told: nothing thrown
    # twice 5000 is 10,000: 9,999 purses below it, over the policy's 1,000
    assert "--purse is too large for --plan Ann:best: its exact policy, towards twice the purse, takes at most " \
           "1,000 purses below it" in err
