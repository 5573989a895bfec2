"""Diagnostics are data (issue 36): a `RulesetError` travels as itself (pickled with its
diagnostics, so a worker process's error comes back rather than hanging the pool), and a
`Diagnostic` carries its kind (`code`) and its repair (`suggestion`) as values."""

from __future__ import annotations

import multiprocessing
import pickle

import pytest

import hazard_dsl
from hazard_dsl.diagnostics import (MAX_DIAGNOSTICS, Diagnostic, Position, RulesetError,
                                    Suggestion)

BAD = "name: t\nphases:\n  start:\n    rules:\n      - when: total == 7\n        wni: true\n"


def _error(text: str) -> RulesetError:
    with pytest.raises(RulesetError) as caught:
        hazard_dsl.load_text(text)
    return caught.value


def test_a_ruleset_error_pickles_with_its_diagnostics():
    error = _error(BAD)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is RulesetError
    assert again.diagnostics == error.diagnostics
    assert str(again) == str(error)


def test_a_long_list_is_cut_once_not_again_when_unpickled():
    many = [Diagnostic(f"problem {i}", Position("f.yaml", i + 1, 1)) for i in range(MAX_DIAGNOSTICS + 5)]
    error = RulesetError(many)
    again = pickle.loads(pickle.dumps(error))
    assert len(again.diagnostics) == MAX_DIAGNOSTICS + 1
    assert again.diagnostics[-1].message == "… and 5 more problems (5 errors) not shown"


def test_a_ruleset_error_comes_back_from_a_worker_process():
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        pending = pool.apply_async(hazard_dsl.load_text, (BAD,))
        with pytest.raises(RulesetError) as there:
            pending.get(timeout=60)  # before the fix: never returned
    assert there.value.diagnostics == _error(BAD).diagnostics


def test_code_and_suggestion_are_fields_with_no_default_value():
    d = Diagnostic("unknown key 'wni'", Position("f", 6, 9))
    assert (d.code, d.suggestion) == (None, None)
    fix = Suggestion("win", Position("f", 6, 9), Position("f", 6, 12))
    d = Diagnostic("unknown key 'wni'", Position("f", 6, 9), code="unknown-key", suggestion=fix)
    assert pickle.loads(pickle.dumps(d)) == d
    assert d.suggestion.text == "win"
