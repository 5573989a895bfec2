"""hazard-dsl: describe variants of Hazard (and craps) as rule files; play, analyse exactly and
compare them.

    >>> import hazard_dsl
    >>> hazard_dsl.load("cotton").analyse().win
    Fraction(1979, 4032)

`load` and `Variant` are in `hazard_dsl.api`; they are imported on first use, so that
`import hazard_dsl` stays cheap (no NumPy, no rich).
"""

from .version import __version__

__all__ = ["load", "Variant", "RulesetError", "__version__"]


def __getattr__(name):
    if name in ("load", "Variant"):
        from . import api

        return getattr(api, name)
    if name == "RulesetError":
        from .diagnostics import RulesetError

        return RulesetError
    raise AttributeError(f"module 'hazard_dsl' has no attribute {name!r}")
