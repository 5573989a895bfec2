"""The `hazard-dsl` command: argument parsing over the application layer (hazard_dsl.commands),
and rendering of what it returns. One module per command (check, listing, show, run, play,
replay, analyse, compare, graph, rules, simulate, schema, serve, lsp), the parser in `parser.py`, what they share in
writing output in `output.py`; the flags' texts read into each command's request in
`requests.py`, and an argument named as its flag in `wording.py`.

Every failure a user can cause ends in a message and a non-zero exit, never a traceback:
rule-file problems as ``file:line:col: error: …`` (exit 1), bad arguments as
``hazard-dsl: error: …`` (exit 2), the core's typed `ArgumentError` said with its flag
(``--bet pass=x: …``).
"""

from __future__ import annotations

import os
import sys
from contextlib import nullcontext

from ..cache import reading_once, sharing
from ..commands.errors import CommandError, SettingError
from ..diagnostics import RulesetError
from ..errors import ArgumentError
from ..render.diagnostics import print_diagnostics
from .output import say_error, silence_stdout
from .parser import UsageError, build_parser, command_named
from .wording import FLAGS, worded

# Each command's module is imported when that command runs, not before: a short command pays
# for its own imports only (`analyse` never loads the session player, `check` never rich).
MODULES = {"check": "check", "list": "listing", "show": "show", "run": "run", "play": "play", "replay": "replay",
           "analyse": "analyse", "compare": "compare", "graph": "graph", "rules": "rules", "simulate": "simulate",
           "schema": "schema", "serve": "serve", "lsp": "lsp"}


class _Command:
    """A command's function, imported from its module when called."""

    def __init__(self, module: str):
        self.module = module

    def __call__(self, args):
        from importlib import import_module

        return import_module(f"{__name__}.{self.module}").command(args)


HANDLERS = {name: _Command(module) for name, module in MODULES.items()}
LONG_RUNNING = ("serve", "lsp")  # commands that serve until stopped: rule files change under them


def _loaded(module: str, name: str) -> type:
    """An exception class of a module when it has been imported, else a class nothing raises:
    an error of a module that never ran cannot have been raised."""
    return getattr(sys.modules.get(f"hazard_dsl.{module}"), name, _NeverRaised)


class _NeverRaised(Exception):
    pass


def main(argv=None) -> int:
    from ..collector import for_a_program
    from ..render.terminal import ensure_encodable, printable

    for_a_program()  # (why: hazard_dsl/collector.py)
    if argv is None:  # the program itself (not a test calling main): its objects die with it
        # At exit Python walks every object it holds four times looking for cycles (4% of a
        # short command, measured); frozen last (atexit runs first registered last), after the
        # other exit work, nothing is left for those walks. Objects still die by their counts.
        import atexit
        import gc

        atexit.register(gc.freeze)
    ensure_encodable()
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(HANDLERS, only=command_named(argv))
    args = parser.parse_args(argv)
    try:
        # the run's own explorations and rule files read (hazard_dsl.cache): gone when it ends;
        # the server and the language server read their files again, as they change
        with sharing(), (reading_once() if args.command not in LONG_RUNNING else nullcontext()):
            code = args.func(args)
        sys.stdout.flush()  # a full disk is found here, not at exit
        return code
    except RulesetError as exc:
        print_diagnostics(exc.diagnostics)
        return 1
    except _loaded("play.log", "LogError") as exc:  # a session log that cannot be trusted: refused, naming the line
        say_error(printable(worded(exc)))
        # a file to write that a flag names (--log over a file, a folder): a bad argument, exit 2
        # as schema --output's and graph -o's refusals
        return 2 if isinstance(exc, _loaded("play.log_errors", "FileRefused")) else 1
    except _loaded("play.casting", "CastingError") as exc:  # scripted dice that cannot make the cast the rules want here
        sys.stdout.flush()
        say_error(printable(worded(exc)))
        # a tape given with --dice (TapeError) is a bad argument, found only once played: exit 2
        # as every other --dice error, said before anything is played
        return 2 if isinstance(exc, ArgumentError) else 1
    except ArgumentError as exc:  # the core's words for a bad argument, said with its flag (cli.wording)
        say_error(printable(exc.said(FLAGS)))
        return 2
    except SettingError as exc:  # under the flag that gives the setting: --purse, --no-log
        say_error(printable(exc.said_as(FLAGS.flag(exc.setting))))
        return 2
    except (UsageError, CommandError) as exc:
        say_error(printable(exc))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `hazard-dsl run … | head`
        silence_stdout()
        return 0
    except OSError as exc:
        if exc.filename is None and exc.errno is not None:  # writing the output failed (ENOSPC, EIO…)
            silence_stdout()
            say_error(f"cannot write the output: {exc.strerror or exc}")
            return 1
        say_error(printable(exc.strerror or exc) + (f": {printable(exc.filename)}" if exc.filename else ""))
        return 1
    except Exception as exc:  # the promise is "never a traceback"; HAZARD_DSL_DEBUG=1 shows it
        from ..solve.bets import BetError

        if isinstance(exc, BetError):  # a bet the ruleset makes impossible, found while solving
            say_error(str(exc))
            return 1
        if os.environ.get("HAZARD_DSL_DEBUG"):
            raise
        print(f"hazard-dsl: internal error: {type(exc).__name__}: {exc} "
              f"(please report it; HAZARD_DSL_DEBUG=1 shows details)", file=sys.stderr)
        return 70


__all__ = ["main"]
