"""hazard-dsl: describe variants of Hazard (and craps) as rule files; play, analyse exactly and
compare them.

    >>> import hazard_dsl
    >>> hazard_dsl.load("cotton").analyse().win
    Fraction(1979, 4032)

The public API (`__all__`; docs/api.md): `load` and `load_text` (in `hazard_dsl.api`) give a
checked `Variant`; a rule file with errors raises `RulesetError` (its `Diagnostic`s); results
are the classes of `hazard_dsl.results`. They are imported on first use, so that
`import hazard_dsl` stays cheap (no NumPy, no rich, no Lark).
"""

from .version import __version__

_HOMES = {
    "load": "api", "load_text": "api", "Variant": "api",
    "RulesetError": "diagnostics", "Diagnostic": "diagnostics",
    "Analysis": "results", "Comparison": "results", "Hand": "results", "Ruin": "results",
    "Simulation": "results", "TableSimulation": "results", "Estimate": "results",
}

__all__ = ["load", "load_text", "Variant", "RulesetError", "Diagnostic", "Analysis", "Comparison", "Hand",
           "Ruin", "Simulation", "TableSimulation", "Estimate", "__version__"]


def __getattr__(name):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'hazard_dsl' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # found once: the next look-up is an attribute like any other
    return value


def __dir__():
    # the public names (found or not yet), not the modules a use has imported
    return sorted(set(__all__) | {name for name in globals() if name.startswith("__")})
