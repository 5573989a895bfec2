"""`hazard-dsl replay FILE [RULESET]`: a logged session told again, every event checked against
the rules first (commands.sessions.replay)."""

from __future__ import annotations

import sys

from ..commands import sessions
from .output import fitted, output_format, tell
from .parser import UsageError
from .requests import replay_request


def command(args) -> int:
    from ..play.log import open_log
    from ..render.session import SessionNarrator
    from ..render.terminal import fit, printable

    fmt = output_format(args)
    if fmt not in ("text", "json"):
        raise UsageError(f"replay prints a narration (text) or the events as JSON lines (json), not {fmt}")
    request = replay_request(args)
    with open_log(request.log) as log:
        table, events = sessions.replay(log, request.rules)
        last = tell((event for _, event in events), SessionNarrator(table.machine), fmt)
        if log.reading.tail:
            print(fitted(f"hazard-dsl: note: {printable(log.path)}: its last line was cut off (the session "
                         f"stopped while writing it); replayed up to line {log.reading.lines}"), file=sys.stderr)
    if fmt != "json" and (last is None or last["event"] != "end"):
        from ..render.recap import resume_command, wagers_up

        # as play's stop line: the purses, then the wagers up, each on its own lines (fitted)
        print(fit(printable(f"\nThe log ends here, before the session ended. Purses: "
                            f"{sessions.purses(table.session)}.")))
        print(fit(printable(wagers_up(table.session))))
        print(fit(printable(f"{resume_command(log.path, request.rules)} goes on from here.")))
    return 0
