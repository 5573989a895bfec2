"""The syntax of a narration template: ``{name}`` or ``{name:word}``.

Read here, where a rule file is read (`parse.reader` checks that a template names only what is
known), and filled by `render.words`: the pattern lives in the earlier stage so that parse never
reaches forward into render.
"""

from __future__ import annotations

import re

FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::(word|Word))?\}")


def template_names(template: str) -> set[str]:
    """The names a template's fields ask for."""
    return {m.group(1) for m in FIELD.finditer(template)}
