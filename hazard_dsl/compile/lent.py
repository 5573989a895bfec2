"""The explorations lent to the work running now: what one compilation lends the next
(`compile.explorations.Explorations`), owned by the caller and lent for the duration of its work
by `cache.sharing` (the command line one per run, the server one per folder, the language service
one per set of documents). It lives here, below `check/`, so that the game check can borrow the
lender's explorations without importing `cache`, which wraps the pipeline from above. Nothing here
holds anything between callers: without a lender, there is nothing to borrow.

It imports nothing heavy (not the compiler), so that lending costs a command that compiles
nothing nothing.
"""

from __future__ import annotations

from contextvars import ContextVar

# none by default: the work of a caller that lends none is compiled from scratch
LENT: ContextVar = ContextVar("hazard_dsl_explorations", default=None)


class Lent:
    """Explorations lent: those given, or one made when first asked for (so that a command that
    compiles nothing does not import the compiler to lend it)."""

    __slots__ = ("explorations",)

    def __init__(self, explorations):
        self.explorations = explorations

    def get(self):
        if self.explorations is None:
            from .explorations import Explorations

            self.explorations = Explorations()
        return self.explorations


def explorations_lent():
    """The explorations lent now (`cache.sharing`), or None."""
    lent = LENT.get()
    return lent.get() if lent is not None else None
