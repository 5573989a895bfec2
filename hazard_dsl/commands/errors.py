"""The errors of a request the caller can correct: a bad setting, an unknown ruleset, a policy
the game has no choice for.

Both are `ValueError`s, so that a Python caller can treat them as any bad argument. A
`SettingError` is an `hazard_dsl.errors.ArgumentError` about one setting: each front end names
the setting its own way (the command line ``--rounds must be between 1 and 10,000``, the Python
API ``rounds must be …``), from the same error.
"""

from __future__ import annotations

from ..errors import PYTHON, Arg, ArgumentError

TYPE_CHECKING = False  # not typing's: importing typing costs every command's start 3 ms
if TYPE_CHECKING:
    from ..errors import Part, Wording


class CommandError(ValueError):
    """A request that cannot be carried out as asked; the message says why and, where it can,
    what to give instead."""


class SettingError(CommandError, ArgumentError):
    """A setting that cannot be used: `setting` is its name as a request and a Python caller
    give it (players, purse, no_log…; the command line's flag is the same with -- and hyphens),
    `problem` what is wrong with it, worded to follow the name; other settings it mentions are
    `Arg`s, so that each front end names them too. `message` is the problem in the API's words."""

    def __init__(self, setting: str, *problem: Part):
        self.setting = setting
        ArgumentError.__init__(self, Arg(setting), *problem)
        self.message = "".join(part if isinstance(part, str) else PYTHON.arg(part) for part in problem)

    def said(self, wording: Wording) -> str:
        # the problem follows the name as a sentence goes on ("--rounds must be …", "--bankroll,
        # --goal and --stake go together", "--games or both stops are needed"), or after ": "
        head = wording.arg(self.argument)
        body = "".join(part if isinstance(part, str) else wording.arg(part) for part in self.problem)
        return head + (body if body[:1] in (":", ",") else " " + body)

    def said_as(self, name: str) -> str:
        """The message after `name`, the setting as the caller knows it (`purse`, `--purse`):
        `--players: at most 50 players`, `--rounds must be between 1 and 10,000`."""
        return name + (self.message if self.message[:1] in (":", ",") else " " + self.message)
