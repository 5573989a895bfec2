"""hazard-dsl: describe variants of Hazard (and craps) as rule files; play, analyse exactly and
compare them.

    >>> import hazard_dsl
    >>> hazard_dsl.load("cotton").analyse().win
    Fraction(1979, 4032)

The public API (`__all__`; docs/api.md): `load` and `load_text` (in `hazard_dsl.api`) give a
checked `Variant`; a rule file with errors raises `RulesetError` (its `Diagnostic`s), a bad
argument `hazard_dsl.errors.ArgumentError` naming the keyword (a `ValueError`); results are the
classes of `hazard_dsl.results`; results, variants, tables and errors pickle as themselves. They are imported on first use, so that
`import hazard_dsl` stays cheap (no NumPy, no rich, no Lark).
"""

from .version import __version__

__all__ = ["load", "load_text", "Variant", "RulesetError", "Diagnostic", "Analysis", "Comparison", "Hand",
           "Ruin", "Seats", "TableRuin", "Simulation", "TableSimulation", "GoalSimulation", "Estimate",
           "__version__"]


def __getattr__(name):
    # each home imported by name, not through importlib, so that the test of the package's
    # imports (tests/test_imports.py) sees these imports too
    if name in ("load", "load_text", "Variant"):
        from . import api as home
    elif name in ("RulesetError", "Diagnostic"):
        from . import diagnostics as home
    elif name in __all__ and name != "__version__":
        from . import results as home
    else:
        raise AttributeError(f"module 'hazard_dsl' has no attribute {name!r}")
    value = getattr(home, name)
    globals()[name] = value  # found once: the next look-up is an attribute like any other
    return value


def __dir__():
    # the public names (found or not yet), not the modules a use has imported
    return sorted(set(__all__) | {name for name in globals() if name.startswith("__")})
