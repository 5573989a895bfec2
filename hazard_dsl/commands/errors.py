"""The errors of a request the caller can correct: a bad setting, an unknown ruleset, a policy
the game has no choice for.

Both are `ValueError`s, so that a Python caller can treat them as any bad argument; the command
line reports them as ``hazard-dsl: error: …`` with exit 2, a `SettingError` under the flag of
its setting (``--rounds must be between 1 and 10000``).
"""

from __future__ import annotations


class CommandError(ValueError):
    """A request that cannot be carried out as asked; the message says why and, where it can,
    what to give instead."""


class SettingError(CommandError):
    """A setting that cannot be used: `setting` is its name as a Python caller passes it
    (players, purse, no_log…; the command line's flag is the same with -- and hyphens),
    `message` what is wrong with it, worded to follow the name. Other settings a message
    mentions are written as the command line spells them (--stake), as the lower layers'
    errors do."""

    def __init__(self, setting: str, message: str):
        self.setting = setting
        self.message = message
        super().__init__(self.said_as(setting))

    def said_as(self, name: str) -> str:
        """The message after `name`, the setting as the caller knows it (`purse`, `--purse`):
        `--players: at most 50 players`, `--rounds must be between 1 and 10000`."""
        return name + (self.message if self.message[:1] in (":", ",") else " " + self.message)
