"""The exact solver's names, where callers import them: the chain solver (`solve.chain`), the
policy solver over a compiled machine (`solve.solver`) and the exact arithmetic both run in
(`solve.exact`), once one 900-line module doing three jobs. Nothing is defined here."""

from .chain import (
    MAX_ELIMINATION_WORK,
    Chain,
    TooLargeToSolve,
    gauss,
    solve_component,
    sparse_solve,
    strongly_connected,
)
from .exact import (
    FRACTIONS,
    ONE,
    SMALL_DENOMINATOR,
    SMOOTH,
    SMOOTH_FROM,
    ZERO,
    Smooth,
    Visits,
    exact_sum,
)
from .solver import (
    MAX_POLICY_ROUNDS,
    THROWS_OF_36,
    PolicyArgumentError,
    PolicyError,
    Solver,
    policy_for,
)

__all__ = ["FRACTIONS", "MAX_ELIMINATION_WORK", "MAX_POLICY_ROUNDS", "ONE", "SMALL_DENOMINATOR",
           "SMOOTH", "SMOOTH_FROM", "THROWS_OF_36", "ZERO", "Chain", "PolicyArgumentError",
           "PolicyError", "Smooth", "Solver", "TooLargeToSolve", "Visits", "exact_sum", "gauss",
           "policy_for", "solve_component", "sparse_solve", "strongly_connected"]
