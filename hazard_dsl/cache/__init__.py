"""Reading and compiling with caches, around the pipeline from above. `parse/` and `compile/` do
not know it exists: the front ends (`commands/`, `api.py`, `serve/`, `language/`) read and
compile through it, and it can only ever save time — what it returns is what reading and
compiling the same text would give.

- **Between runs, on disk** (`cache.disk`): a rule file that has not changed since it was last
  read is not read again (`read_ruleset`, `read_text`), a machine already compiled from it is not
  compiled again (`compile_ruleset`), and what a command works out from it can be kept beside
  it (`kept`). ``HAZARD_DSL_NO_CACHE=1`` turns it off.
- **Within a run, in memory**: what compiling under one setting of the options lends the next
  (`compile.explorations.Explorations`) is owned by whoever runs the work and lent for its
  duration by `sharing`: the command line one per run, the server one per folder, the language
  service one per set of documents. `compile_ruleset` uses the one lent, if any; without one it
  compiles from scratch (the same machines, slower), and nothing is held between callers.

This module imports nothing heavy itself (the disk cache and the compiler are imported when
first used), so that lending explorations costs a command that compiles nothing nothing.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

# the lender's explorations are held below check/ (compile.lent), which borrows them; lent here
from ..compile.lent import LENT as _LENT, Lent as _Lent, explorations_lent  # noqa: F401  (explorations_lent: re-exported)


@contextmanager
def sharing(explorations=None):
    """While inside, `compile_ruleset` lends `explorations` (`compile.explorations.Explorations`,
    owned by the caller; None: one made when first needed, dropped on leaving — the command
    line's, one per run, which keeps no bets' checks for a next text: `_OneRun`) to every
    compilation that is given none."""
    token = _LENT.set(_Lent(explorations) if explorations is not None else _OneRun(None))
    try:
        yield
    finally:
        _LENT.reset(token)


class _OneRun(_Lent):
    """The explorations of one run (`sharing()` given none): made when first asked for, without
    the bets' checks kept for the next text (`compile.explorations.BetChecks`). A run checks each
    text once, so nothing would be found there again; keying every game and bet for it cost a
    tenth of a `check` of the built-in rule files."""

    __slots__ = ()

    def get(self):
        if self.explorations is None:
            from ..compile.explorations import Explorations

            self.explorations = Explorations(bet_checks=False)
        return self.explorations


def compile_ruleset(ruleset, options: dict | None = None, bets=None, keep: bool = True, explorations=None):
    """`compile.compiler.compile_ruleset`, from the cache when the same machine (the same rule
    files, option values and bets) was compiled before; with the explorations given, or else
    those `sharing` lends. `keep=False` compiles it without the cache (a machine needed once,
    for a table that is kept itself: writing it would cost more than it saves)."""
    from ..compile.compiler import compile_ruleset as compile, resolve_options
    from .disk import compiled

    explorations = explorations if explorations is not None else explorations_lent()
    resolved = resolve_options(ruleset, options)
    if not keep:
        return compile(ruleset, resolved, bets, explorations)
    return compiled(ruleset, resolved, None if bets is None else tuple(bets),
                    lambda: compile(ruleset, resolved, bets, explorations))


def read_ruleset(path, text: str | None = None, within=None):
    """The checked Ruleset of a rule file, from the disk cache when its files are unchanged
    (`cache.disk.read_ruleset`); inside `reading_once`, a file read before in the run is not
    read again."""
    from .disk import read_ruleset as read

    read_before = _READ.get()
    if read_before is None or text is not None:
        return read(path, text, within)
    key = (str(path), None if within is None else str(within))
    if key not in read_before:
        read_before[key] = read(path, text, within)
    return read_before[key]


# The rule files read in one run of a command (`reading_once`), by path and confining folder. The
# command line reads a rule file to type its flags into the command's request, and the command
# reads the request's ruleset again (analyse's ledger of printed figures a third time): each read
# checks the whole file, or loads and verifies it from the disk cache (docs/performance.md).
_READ: ContextVar = ContextVar("hazard_dsl_read", default=None)


@contextmanager
def reading_once():
    """While inside, `read_ruleset` reads each rule file once and gives the same Ruleset again
    after: for one run of a command (the command line's), during which its files do not change
    — not for a server, whose files do. A file that does not check is read again each time."""
    token = _READ.set({})
    try:
        yield
    finally:
        _READ.reset(token)


def read_text(text: str, name: str):
    """The checked Ruleset of a rule file held in a string (`cache.disk.read_text`)."""
    from .disk import read_text as read

    return read(text, name)


def kept(ruleset, kind: str, what: tuple, build, expect):
    """`build()`'s value for this ruleset and `what`, from the disk cache when it was built
    before from the same rule files by the same code (`cache.disk.kept`)."""
    from .disk import kept as keep

    return keep(ruleset, kind, what, build, expect)


def check_ruleset(path=None, text: str | None = None, name: str | None = None) -> tuple:
    """`check.check_ruleset`, reading the file and keeping what its game checks found through
    this cache: the check layer below knows no cache, the cache wraps it from above."""
    from .. import check

    return check.check_ruleset(path, text, name, reading=_CACHED)


def check_file(path) -> list:
    """`check.check_file` through this cache: every problem of a rule file, sorted. Never raises."""
    return check_ruleset(path)[1]


class _CACHED:
    """The reading `check.check_ruleset` is handed: this module's, with the disk cache."""

    read_ruleset = staticmethod(lambda path, text=None: read_ruleset(path, text))
    read_text = staticmethod(lambda text, name: read_text(text, name))
    kept = staticmethod(lambda *args: kept(*args))
