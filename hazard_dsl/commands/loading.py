"""A ruleset by name or path, and its machine compiled with the options' values (`machine_for`;
`build_machine` for options still held as NAME=VALUE texts)."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from .errors import CommandError

# The folder a rule file's `extends:` may not leave while a server's work runs (`confined`): the
# commands take a ruleset by name, as the command line gives it, and the server that calls them
# serves a folder whose files anyone it serves may write.
_FOLDER: ContextVar[Path | None] = ContextVar("hazard_dsl_folder", default=None)


@contextmanager
def confined(folder: Path):
    """While inside, a rule file read by `load` extends only the built-in rulesets and the files
    whose real path lies in `folder` (a real path); anything else is refused as a ruleset error."""
    token = _FOLDER.set(folder)
    try:
        yield
    finally:
        _FOLDER.reset(token)


def load(name: str, text: str | None = None):
    """The ruleset of a rule file (a path) or a built-in ruleset (a name), read and checked;
    an unknown name is refused with "did you mean" and the built-ins' names. With `text`, the
    rule file held in that string, shown as `name` (an editor's unsaved buffer; it extends only
    built-in rulesets)."""
    from ..cache import read_ruleset, read_text
    from ..parse.files import builtin_names, resolve

    if text is not None:
        return read_text(text, name)
    path = resolve(name)
    if path is None:
        from ..diagnostics import did_you_mean
        from ..parse.files import not_a_file

        there = not_a_file(Path(name))
        if there is not None:  # a folder, a device, a pipe: there, but no rule file
            raise CommandError(f"{name!r} is {there}, not a rule file")
        raise CommandError(f"no ruleset file or built-in ruleset named {name!r}{did_you_mean(name, builtin_names())} "
                           f"(built-ins: {', '.join(builtin_names())})")
    return read_ruleset(path, within=_FOLDER.get())


def show_request(request):
    """The ruleset a `ShowRequest` (commands.requests) names, read and checked (`load`)."""
    return load(request.ruleset, request.text)


def option_values(ruleset, option_texts) -> dict:
    """The option values of `NAME=VALUE` texts, typed by the ruleset's options and checked.
    For the callers that still hold texts (`build_machine`); the command line reads its own
    (`cli.requests`), the web API its JSON (`serve.requests`)."""
    from ..compile.compiler import OptionError, parse_option_assignments

    try:
        return parse_option_assignments(ruleset, option_texts)
    except OptionError as exc:
        from ..errors import ArgumentError

        if isinstance(exc, ArgumentError):  # naming its argument: each front end words it
            raise
        raise CommandError(str(exc)) from None


def build_machine(ruleset, option_texts, bets=None):
    """The compiled machine, with the options given as `NAME=VALUE` texts (`option_values`) and
    the named bets (None: all) compiled too."""
    from ..cache import compile_ruleset

    return compile_ruleset(ruleset, option_values(ruleset, option_texts), bets)


def machine_for(ruleset, options, bets=None):
    """The compiled machine with the option values of a request ({name: value}), checked, and
    the named bets (None: all) compiled too."""
    from ..cache import compile_ruleset
    from ..compile.options import OptionError, resolve_options

    try:
        resolved = resolve_options(ruleset, dict(options))
    except OptionError as exc:
        from ..errors import ArgumentError

        if isinstance(exc, ArgumentError):
            raise
        raise CommandError(str(exc)) from None
    return compile_ruleset(ruleset, resolved, bets)


def split_variant(text: str) -> tuple[str, list[str]]:
    """`cotton:main=called,first_throw=lose` → ("cotton", ["main=called", "first_throw=lose"]);
    a path that exists is a path, colon or not."""
    from ..parse.files import resolve

    if resolve(text) is not None or ":" not in text:
        return text, []
    name, _, options = text.rpartition(":")
    if "=" not in options:
        return text, []
    return name, [o for o in options.split(",") if o.strip()]

