"""The web API's words for an argument: the field of the JSON it was sent in.

The core raises an `ArgumentError` naming the argument as a request (and the Python API) does
(`hazard_dsl.errors`); the web API says the same error with the JSON's field names, through a
`JsonWording`, as the command line says it with flags (`cli/wording.py`):

    Arg('bets', 'pass', 'x')                  bets.pass
    Arg('bets', 'odds', 2, seat='Ben')        bets.Ben.odds
    Arg('policy', value='foo')                policy
    Arg('stake')  (a table's settings)        settings.stake

A field's path alone: the value is the one the client sent, in its own request. No message is
rewritten: the error is said anew from its parts.
"""

from __future__ import annotations

from ..errors import Arg, ArgumentError


class JsonWording:
    """An argument as the path of its JSON field; `within` maps a field to the object holding
    it in the request's body (a table's `stake` is `settings.stake`)."""

    def __init__(self, within: dict[str, str] | None = None):
        self.within = dict(within or {})

    def arg(self, arg: Arg) -> str:
        path = [self.within[arg.name]] if arg.name in self.within else []
        path.append(arg.name)
        if arg.seat is not None:
            path.append(str(arg.seat))
        if arg.key is not None:
            path.append(str(arg.key))
        return ".".join(path)


JSON = JsonWording()


def worded(error: BaseException, wording: JsonWording = JSON) -> str:
    """An error's message in a JSON answer: an `ArgumentError` with its fields' names, any other
    as it says itself."""
    return error.said(wording) if isinstance(error, ArgumentError) else str(error)


__all__ = ["JSON", "JsonWording", "worded"]
