"""Moved to hazard_dsl.cli.prompt (issue 36: the prompt is a front end); the odds it gives are
play.odds's. This name stays only until the tests' imports follow (they move by layer first)."""

from ..cli.prompt import (HELP, MAX_ANSWER, MAX_ANSWER_BYTES, SessionOver, Terminal,  # noqa: F401
                          UnreadableAnswer, read_answer, seat_at_start, typed_name)
from .chances import chance_words  # noqa: F401
