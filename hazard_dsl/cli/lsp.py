"""`hazard-dsl lsp`: the language server over stdin and stdout (`hazard_dsl.lsp.server`), which
needs pygls (the `[lsp]` extra); without it, a usage error that says how to install it."""

from __future__ import annotations

from .output import silence_stdout
from .parser import UsageError

NEEDS = "the language server needs pygls: pip install 'hazard-dsl[lsp]'"


def command(args) -> int:
    try:
        from ..lsp.server import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in ("pygls", "lsprotocol", "cattrs", "attrs"):
            raise UsageError(NEEDS) from None
        raise
    serve()
    # the server closes stdout when the editor says exit: nothing more may be written there
    silence_stdout()
    return 0
