"""Reading a rule file whole: its sections read (`parse.reader.read_sections`), then the names
and types of every part checked (`check.names`), every problem raised together.

One bad rule does not hide the rest: where the reading found errors, the names check still runs
over what was read (unless a declaring section is itself unreadable), and its errors that only
follow from a part dropped for its own error are left out. The `RulesetError` then says what the
later checks may still judge (`names_checked`, `failed_sections`, `partial_ruleset`,
`game_ruleset`, `unmend`), which `check` reads.

`read_game` reads the game of a text alone, its bets and fees when first asked for: the
in-process P(win) of a new text (issue 39), and nothing else (every command reads whole).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from collections.abc import Mapping
from types import MappingProxyType

from ..diagnostics import SOURCES, Diagnostic, RulesetError
from ..model import Ruleset
from ..parse.chain import unmended
from ..parse.reader import read_sections
from ..parse.yaml_nodes import YMap
from ..records import replace
from .names import check_names
from .printed import read_printed


def read_ruleset(path: str | Path, files: list | None = None, text: str | None = None,
                 named: str | None = None, within: Path | None = None) -> Ruleset:
    """Load, merge and check a rule file. Raises RulesetError with every problem.
    (`hazard_dsl.cache.read_ruleset` is the same, remembered between runs for unchanged files.)
    `named` with `text`: a rule file held in a string, not a file; `within`: a folder `extends:`
    may not leave (`parse.chain.load_chain`)."""
    read = read_sections(path, files, text, named, within)
    diags, build, root, failed = read.diagnostics, read.build, read.root, read.failed
    # the figures the sources print (`printed:`), checked with the rest, kept with the ruleset
    before = len(diags.items)
    printed = read_printed(root, diags, read.variables, read.labels, read.own, read.options)
    # an error in the ledger leaves the game as written: it is explored in the same run
    printed_at = {d.position for d in diags.items[before:]}
    if printed:
        build = partial(_with_printed, read.build, printed)
    if any(d.is_error for d in diags.items):
        # One bad rule does not hide the rest: the names and types of every other part are
        # checked in the same run, unless a section they depend on (the variables, the options,
        # the dice, the labels) is itself in error and would make every use of it look wrong.
        names_checked = (read.has_phases and not failed & _NAMES_DEPEND_ON
                         and all(isinstance(root.get(s), YMap) for s in failed & _DECLARING))
        # a variable, option or label read with an error is left out: uses of its name are not errors of their own
        kept = {"variables": read.variables, "options": read.options, "labels": read.labels}
        dropped = {name for section in failed & _DECLARING for name in _declared(root.get(section))
                   if name not in (kept[section] or {})}
        unsaid = False
        if names_checked:
            try:
                check_names(build(), root)
            except RulesetError as exc:
                seen = set(diags.items)
                # warnings too: a label no `labels:` declares is a warning, and one run shows it
                diags.extend(d for d in exc.diagnostics
                             if d.position is not None and d not in seen
                             and not _follows_from(d, failed, dropped))
                # an error left unsaid as following from a section in error may be one of its own
                # (a bet without pays: beside a bet's mended rule): the game waits for it
                unsaid = any(d.is_error and _follows_from(d, failed, dropped) for d in exc.diagnostics)
            except Exception:  # noqa: BLE001 - a partial ruleset the names check cannot walk: the errors above stand
                names_checked = False
        edits = read.edits
        # the layout slips mended, told where the author wrote them; picked out before the
        # other problems are moved to the author's text, where one may land on the same place
        # (`paysé1` mended as a key: the payout's own error then stands where the slip does)
        mends = frozenset(d for d in diags.items if d.position in read.mended_at)
        if edits:  # positions in the mended text, as they stand in the author's
            diags.items[:] = [d if d in mends else unmended(d, read.own, edits) for d in diags.items]
        error = RulesetError(diags.items)
        error.names_checked = names_checked
        error.failed_sections = set(failed)  # the sections with errors of their own: what the game waits for
        if names_checked:
            try:  # what can be judged without the game, while it waits (`check.static`)
                error.partial_ruleset = build()
            except Exception:  # noqa: BLE001 - a partial ruleset that does not build: nothing more is said
                pass

        def leaves_the_game(d: Diagnostic) -> bool:
            # a rule after otherwise, a mended layout slip, an unknown key (read as the key it
            # stands for, or left out): the game as read is the one written
            return (d.position in read.dead_rules or d in mends or d.code == "unknown-key"
                    or d.position in printed_at)

        if names_checked and not unsaid and all(leaves_the_game(d) for d in diags.items if d.is_error):
            # the only errors leave the game as written (without the dead rules), so it is
            # explored in this run (a rule shadowed above is found too)
            error.game_ruleset = _without_dead_rules(build(), read.dead_rules)
        if edits:  # what is found later in the mended text, placed in the author's (a partial
            # of a module's function, not a lambda, so that the error pickles)
            error.unmend = partial(unmended, own=read.own, edits=edits)
        raise error
    try:
        return check_names(build(), root)
    except RulesetError as exc:
        exc.names_checked = True  # these are the names check's own errors: only the game waits
        raise


# The sections the game's reading leaves unread (`read_game`): the bets and fees until something
# asks for them; what the file says of the game (its sources, notes, description and the
# figures they print), which no figure of the game reads
UNREAD = ("bets", "fees", "printed", "sources", "notes", "description")


def read_game(path: str | Path, text: str, named: str | None = None,
              within: Path | None = None) -> Ruleset:
    """The game of a rule file held in `text`, read and checked without its bets and fees: the
    in-process question "what is P(win) of this text" (bench/bench_exact.py, after each edit)
    reads only what the game is made of (the dice, variables, options, labels, words, phases,
    money and passing). Its `bets` and `fees` are read when first asked for: the whole file is
    then read as `read_ruleset` reads it, and its bets given, or its RulesetError raised, with
    the same positioned errors `check` reports, every section's together. What the file says of
    the game is not read at all: its `sources`, `notes` and `printed` are empty and its
    `description` None (they are `read_ruleset`'s, for `check`, `show` and the rule sheet), and
    its `warnings` are the game's alone.

    So a file whose only error is in a bet answers P(win) here and raises that error at the
    first use of its bets; every command reads with `read_ruleset` (or the cache), and is stopped
    by it as before. A text the game's reading cannot cut safely (`parse.sections`), one that
    extends another, and one with any problem in the game are read whole by `read_ruleset`
    (which raises every problem, as `check` does)."""
    from ..parse.sections import game_cut, kept_as_cut

    whole = partial(read_ruleset, path, None, text, named, within)
    cut = game_cut(text, UNREAD)
    if cut is None:
        return whole()
    sections, cut_text, unread = cut
    files: list = []
    try:
        read = read_sections(path, files, cut_text, named, within)
    except RulesetError:
        return whole()
    if not kept_as_cut(read.root, sections, unread) or any(d.is_error for d in read.diagnostics.items):
        return whole()
    # what the file's own text reads as: its whole text, as a session log records it (`build()`
    # reads `files` when called) and as messages quote it
    files[:] = [entry[:3] + (text,) for entry in files]
    SOURCES.add(files[0][2], text)
    game = read.build()
    table = game.table
    try:  # the stake names a bet, which is checked with the bets (`_Unread`)
        checked = check_names(replace(game, table=replace(table, stake=None)) if table.stake else game,
                              read.root)
    except RulesetError:
        return whole()
    later = _Whole(whole)
    return replace(checked, table=table, **{name: _Unread(later, name) for name in unread
                                            if name in ("bets", "fees")})


class _Whole:
    """The whole reading of a file, made once when first asked for (or its error, raised again)."""

    __slots__ = ("_read", "_ruleset")

    def __init__(self, read) -> None:
        self._read, self._ruleset = read, None

    def __call__(self) -> Ruleset:
        if self._ruleset is None:
            self._ruleset = self._read()  # a RulesetError is raised at each asking
        return self._ruleset


class _Unread(Mapping):
    """The bets (or fees) of a file whose game alone was read: read with the whole file on first
    use (`read_game`)."""

    __slots__ = ("_whole", "_section")

    def __init__(self, whole: _Whole, section: str) -> None:
        self._whole, self._section = whole, section

    def _mapping(self) -> Mapping:
        return getattr(self._whole(), self._section)

    def __getitem__(self, name):
        return self._mapping()[name]

    def __iter__(self):
        return iter(self._mapping())

    def __len__(self) -> int:
        return len(self._mapping())

    def __repr__(self) -> str:
        return f"<{self._section} read on first use>"


def _with_printed(build, printed: tuple) -> Ruleset:
    return replace(build(), printed=printed)


def _without_dead_rules(ruleset: Ruleset, dead: set) -> Ruleset:
    phases = {name: replace(phase, rules=tuple(rule for rule in phase.rules if rule.position not in dead))
              for name, phase in ruleset.phases.items()}
    return replace(ruleset, phases=MappingProxyType(phases))


# The sections whose errors would make the names check wrong everywhere: none since the names
# check reads the dice, the words and the money only for what `_follows_from` drops when they
# are in error (a by_option, a stake), so it runs beside their errors.
_NAMES_DEPEND_ON: set = set()
_DECLARING = {"variables", "options", "labels"}


def _declared(node) -> set[str]:
    return set(node.entries) if isinstance(node, YMap) else set()


def _follows_from(d: Diagnostic, failed: set, dropped: set = frozenset()) -> bool:
    """Whether a names check's error may only follow from parts dropped for their own errors:
    a variable, option or label declared with an error (one of the names it is about,
    `Diagnostic.names`), or a section it was judged against that read with errors
    (`Diagnostic.reads`): `dice: by_option …` and `money: stake …` read from their own
    section; the labels a game ends with, read from the rules (a phase, a cocked: rule); a
    stake, a bet's pays or commission, from the bets and the fees. Decided from those facts,
    never from the message's words."""
    if dropped and not dropped.isdisjoint(d.names):
        return True
    return not failed.isdisjoint(d.reads)
