"""Do diagnostics keep up with typing? An edit of the largest built-in, craps (about 600 lines),
and the language service's diagnostics after it, against a bar of 200 ms.

Each round changes one character of a name in a condition near the middle of the file (a different character
each time, so every edited text is new: never found in the reading cache) and asks for the
diagnostics (`LanguageService.change` then `.diagnostics`, which checks the whole text as `check`
does: YAML, expressions, names and types, the game explored); then it restores the text and asks
again (a text seen before: the reading cache's case, as after an undo). Side by side, the honest
"before" of an author without an editor's help: save the edited file and run
`hazard-dsl check FILE` (a whole command, the cache of the edited text necessarily cold), in the
same rounds, so the ratio holds when the machine's speed drifts. The median, min and max of each,
in milliseconds, and the median against the bar.

    python bench/lsp_edit.py [--rounds 40] [--write-docs [FILE]]

A cache folder of its own (empty at the start) keeps the user's out of it; run it on an idle
machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

HERE = Path(__file__).resolve().parent.parent
CRAPS = HERE / "rulesets" / "craps.yaml"
BAR_MS = 200.0


def hazard_dsl() -> list[str]:
    script = Path(sys.executable).parent / "hazard-dsl"
    if script.exists():
        return [str(script)]
    found = shutil.which("hazard-dsl")
    return [found] if found else [sys.executable, "-m", "hazard_dsl"]


def edits(text: str, rounds: int) -> list[tuple[str, bool]]:
    """`rounds` texts, each differing from `text` by one character in its middle half, with
    whether the change makes an error: by turns, a letter of a bet's description (the file still
    checks clean, so the whole game is explored) and a letter of the first name of a condition (a
    bet's `result`, `phase`…: a name the checker no longer knows)."""
    import re

    middle = len(text) // 2
    near = lambda m: abs(m.start() - middle) < middle // 2  # noqa: E731
    names = [m for m in re.finditer(r"when: ([a-z_]{4,})", text) if near(m)]
    words = [m for m in re.finditer(r"description: ([A-Za-z ,]{8,})", text) if near(m)]
    found = []
    for k in range(rounds):
        breaks = k % 2 == 1
        pool = names if breaks else words
        word = pool[(k // 2) % len(pool)]
        at = word.start(1) + 1 + (k // (2 * len(pool))) % (len(word.group(1)) - 2)
        letter = "qxzj"[k % 4] if text[at] not in "qxzj" else "k"
        found.append((text[:at] + letter + text[at + 1:], breaks))
    return found


def summary(name: str, times: list[float]) -> str:
    return (f"{name:<46} median {statistics.median(times):8.1f}  min {min(times):8.1f}  "
            f"max {max(times):8.1f}  (ms, {len(times)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    _docs.add_option(parser)
    args = parser.parse_args()
    with _docs.recording("lsp_edit", args.write_docs):

        cache = tempfile.mkdtemp(prefix="hazard-dsl-bench-")
        os.environ["XDG_CACHE_HOME"] = cache
        from hazard_dsl.language.service import LanguageService, uri_of

        text = CRAPS.read_text(encoding="utf-8")
        folder = Path(tempfile.mkdtemp(prefix="hazard-dsl-bench-files-"))
        path = folder / "craps.yaml"
        path.write_text(text, encoding="utf-8")
        uri = uri_of(path)
        service = LanguageService()
        start = time.perf_counter()
        service.open(uri, text)
        service.diagnostics(uri)
        opened = (time.perf_counter() - start) * 1000

        edited, restored, command = [], [], []
        by_kind: dict = {False: [], True: []}
        for version, (changed, breaks) in enumerate(edits(text, args.rounds), 2):
            start = time.perf_counter()
            service.change(uri, changed, version)
            problems = service.diagnostics(uri)
            edited.append((time.perf_counter() - start) * 1000)
            by_kind[breaks].append(edited[-1])
            assert any(p.severity == "error" for p in problems) == breaks
            start = time.perf_counter()
            service.change(uri, text, version)
            assert not [p for p in service.diagnostics(uri) if p.severity == "error"]
            restored.append((time.perf_counter() - start) * 1000)
            saved = folder / f"edit{version}.yaml"
            saved.write_text(changed, encoding="utf-8")
            start = time.perf_counter()
            subprocess.run([*hazard_dsl(), "check", str(saved)], capture_output=True)
            command.append((time.perf_counter() - start) * 1000)

        print(f"craps.yaml: {len(text.splitlines())} lines; {len(edited)} edits of one character")
        print(f"{'opening it (the first diagnostics)':<46} {opened:8.1f} ms")
        print(summary("diagnostics after an edit (a new text)", edited))
        print(summary("  of which: still clean (the game explored)", by_kind[False]))
        print(summary("  of which: an unknown name (an error)", by_kind[True]))
        print(summary("diagnostics after restoring it (seen before)", restored))
        print(summary("before: save, then `hazard-dsl check FILE`", command))
        median = statistics.median(edited)
        print(f"median after an edit: {median:.1f} ms against the bar of {BAR_MS:.0f} ms: "
              f"{'within it' if median <= BAR_MS else 'OVER IT'}; "
              f"{statistics.median(command) / median:.1f}x faster than saving and running check")
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
