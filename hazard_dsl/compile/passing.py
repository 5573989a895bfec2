"""When the dice pass: a ruleset's `passing:` compiled to a table over how each game ends.

The table's state is the caster's losses in a row (0 when the rules count none). After each
game, `moves[state, result, label]` gives the state after it and whether the dice pass; the
exact analysis of a hand and the table sessions both read this table, never the rules.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, RulesetError
from ..model import Passing
from ..records import record
from .evaluate import EvaluationError, closure


@record(frozen=True)
class CompiledPassing:
    losses_in_a_row: int  # 0: losses alone never pass the dice
    after_labels: tuple  # a game ending with one of these passes the dice
    voluntary_after_win: bool  # the caster may pass after a win (he keeps them unless he says so)
    moves: dict  # (losses so far, result, label) -> (losses after, the dice pass)
    description: str | None = None
    first: str = "seat_order"  # who casts first (model.FIRST_CASTER): seat order, or the lot of one die

    start = 0

    def after_game(self, state: int, result: str, label: str) -> tuple[int, bool]:
        return self.moves[state, result, label]

    @property
    def ever_passes(self) -> bool:
        return any(passes for _, passes in self.moves.values())

    @property
    def by_lot(self) -> bool:
        """Whether the players throw one die each for the first cast (not the first named)."""
        return self.first != "seat_order"

    def first_says(self) -> str:
        """Who casts first, in a few words, for people."""
        return first_words(self.first)

    def says(self) -> str:
        """The rule in a few words, for people — only about endings these rules can reach (no
        "after a game ending no_main" where no game can end so), and, when it takes more than
        one loss, which losses count ("any loss counts: chance_loss or out")."""
        from ..model import NUMBER_WORDS, readable  # a label in words: "no main", never no_main

        reached = list(dict.fromkeys(label for _, _, label in self.moves))
        parts = []
        n = self.losses_in_a_row
        if n == 1:
            parts.append("after every loss")
        elif n:
            counted = [label for label in reached if self.moves.get((0, "lose", label), (0, True)) == (1, False)]
            count = f"after {NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else n} losses in a row"
            if counted:
                counted = [readable(label) for label in counted]
                kinds = counted[0] if len(counted) == 1 else ", ".join(counted[:-1]) + " or " + counted[-1]
                count += f" (any loss counts: {kinds}; a win starts the count again"
                pushes = [label for label in reached if (0, "push", label) in self.moves
                          and label not in self.after_labels]
                count += ", a push leaves it as it is)" if pushes else ")"
            parts.append(count)
        after = [label for label in self.after_labels if label in reached]
        if after and not n and set(after) >= set(reached):  # a layout's one-throw game: each ends so
            parts.append("after every game")
        elif after:
            parts.append("after a game ending in " + " or ".join(readable(label) for label in after))
        text = "the dice pass " + " or ".join(parts) if parts else "the dice never pass"
        if self.voluntary_after_win:
            text += "; the caster may also pass them after a win"
        return text


def first_words(first: str) -> str:
    """Who casts first (`passing: first:`, one of model.FIRST_CASTER), in a few words."""
    if first == "seat_order":
        return "the first player named casts first"
    which = "lowest" if first == "lowest_die" else "highest"
    return f"each player throws one die, and the {which} casts first (those tied throw again)"


def compile_passing(passing: Passing | None, endings, options: dict) -> CompiledPassing:
    """The table for these option values; `endings` are the (result, label) pairs a game can end with."""
    if passing is None:
        return CompiledPassing(0, (), False, {(0, result, label): (0, False) for result, label in endings})
    losses = passing.losses_in_a_row
    if losses is not None and not isinstance(losses, int):
        try:
            losses = closure(losses, ())({}, None, options)
        except EvaluationError as exc:
            raise RulesetError([Diagnostic(f"passing: {exc}", exc.position)]) from None
        if not isinstance(losses, int) or isinstance(losses, bool) or not 0 <= losses <= 100:
            raise RulesetError([Diagnostic(f"passing: losses_in_a_row comes to {losses!r} with these options; "
                                           f"it must be between 0 (never) and 100", passing.position)])
    losses = losses or 0
    moves = {}
    for state in range(max(losses, 1)):
        for result, label in endings:
            after = state + 1 if result == "lose" else (0 if result == "win" else state)
            passes = label in passing.after_labels or bool(losses and after >= losses)
            moves[state, result, label] = (0 if passes else after if losses else 0, passes)
    return CompiledPassing(losses, tuple(passing.after_labels), passing.voluntary_after_win, moves,
                           passing.description, passing.first)
