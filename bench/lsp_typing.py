"""Does `hazard-dsl lsp` keep up with typing? Issue 39's three measures of the language server,
taken as an editor takes them: a plain client of its own (JSON-RPC over the server's standard
input and output, no editor, no library), each figure printed beside its target.

1. One character typed into craps (about 600 lines) → that version's diagnostics: the median
   and the 95th percentile over `--edits` keystrokes, each a new text (a word typed at the end
   of a description, so that every version checks clean and the whole game is explored; never
   found in the reading cache), each waited for before the next. Targets 25 and 50 ms.
2. A hover sent behind 40 keystrokes sent at once (nothing waits between them): from the hover
   sent to its answer, over `--rounds` rounds. Target 50 ms.
3. `--keystrokes` keystrokes (1,000) typed at 20 a second into craps: from the last one sent to
   its diagnostics. Target 200 ms. With it, how many versions were checked and published.

    python bench/lsp_typing.py [--edits 50] [--rounds 10] [--keystrokes 1000] [--before DIR]
                               [--write-docs [FILE]]

With `--before DIR` (a folder holding an older copy of the `hazard_dsl` package, e.g. from
`git archive REF hazard_dsl | tar -x -C DIR`), each measure is taken of that copy's server too,
the two in turn, in the same run: the ratio holds when the machine's load drifts.

A reading cache of its own (empty at the start) keeps the user's out of it. Every time is from
a message written to the server's pipe to the message read back (time.perf_counter); the load
average of the machine is printed with them, since two busy cores make every figure longer.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import _docs  # (bench/ is on the path when a benchmark runs)

HERE = Path(__file__).resolve().parent.parent
CRAPS = HERE / "rulesets" / "craps.yaml"
TIMEOUT = 60.0  # seconds for any one answer: a server that hangs stops the run, saying so
TARGETS = {"edit_median": 25.0, "edit_p95": 50.0, "hover": 50.0, "burst": 200.0}
BEFORE = {  # the "now", measured before the language server's worker (issue 39)
    "edit": "34-56 / 57-75 ms quiet, 63 / 143 ms loaded",  # median / p95
    "hover": "2.6 s",
    "burst": "minutes (10,000: about 13 min)",
}


class Client:
    """`hazard-dsl lsp` in a subprocess, spoken to as an editor speaks: Content-Length frames of
    JSON-RPC. A thread reads every message as it comes, stamping when; the caller waits for a
    response by id or for a publication of a version."""

    def __init__(self, env: dict, cwd: Path):
        # run outside the checkout: `python -m` would import the checkout's package first
        self.process = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
        self.lock = threading.Condition()
        self.responses: dict = {}  # id -> (when, message)
        self.published: list = []  # (when, uri, version, diagnostics)
        self.ended = False
        self.ids = iter(range(1, 1 << 30))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    with self.lock:
                        self.ended = True
                        self.lock.notify_all()
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            when = time.perf_counter()
            if "method" in message and "id" in message:  # the server asks (configuration): no answer of ours
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                continue
            with self.lock:
                if message.get("method") == "textDocument/publishDiagnostics":
                    p = message["params"]
                    self.published.append((when, p["uri"], p.get("version"), p["diagnostics"]))
                elif "id" in message:
                    self.responses[message["id"]] = (when, message)
                self.lock.notify_all()

    def send(self, message: dict) -> float:
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()
        return time.perf_counter()

    def notify(self, method: str, params: dict) -> float:
        return self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict) -> tuple[int, float]:
        ident = next(self.ids)
        return ident, self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})

    def _wait(self, found):
        deadline = time.monotonic() + TIMEOUT
        with self.lock:
            while True:
                answer = found()
                if answer is not None:
                    return answer
                if self.ended:
                    raise SystemExit("error: the language server stopped")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SystemExit(f"error: no answer from the language server within {TIMEOUT:.0f} s")
                self.lock.wait(left)

    def response(self, ident: int) -> tuple[float, dict]:
        return self._wait(lambda: self.responses.pop(ident, None))

    def publication(self, uri: str, version: int) -> tuple:
        """The first publication of `uri` at `version` or later."""
        return self._wait(lambda: next((p for p in self.published if p[1] == uri and p[2] is not None
                                        and p[2] >= version), None))

    def versions(self, uri: str) -> list:
        with self.lock:
            return [p[2] for p in self.published if p[1] == uri]

    def close(self) -> None:
        try:
            ident, _ = self.request("shutdown", None)
            self.response(ident)
            self.notify("exit", None)
            self.process.wait(10)
        except (OSError, SystemExit, subprocess.TimeoutExpired):
            self.process.kill()


class Typist:
    """Keystrokes into one open document: letters typed at the end of a line (a description of
    craps), each one version, sent as an editor sends it (an incremental change)."""

    def __init__(self, client: Client, uri: str, text: str, line: int):
        self.client, self.uri, self.line = client, uri, line
        self.column = len(text.split("\n")[line])
        self.version = 1
        self.typed = 0

    def key(self) -> float:
        self.version += 1
        # a letter, and a space every sixth: a word typed, each version a text never seen
        letter = " " if self.typed % 6 == 5 else "etaoinshrdlu"[self.typed % 12]
        self.typed += 1
        at = {"line": self.line, "character": self.column}
        self.column += 1
        return self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": self.version},
            "contentChanges": [{"range": {"start": at, "end": at}, "text": letter}]})


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def opened(client: Client, folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    uri = path.resolve().as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                            "text": text}})
    client.publication(uri, 1)
    return uri


def descriptions(text: str) -> list[int]:
    """The lines of craps' one-line descriptions (`description: words`), where typing keeps the
    file clean: a different one for each measure, so that no text repeats."""
    return [i for i, s in enumerate(text.split("\n")) if s.strip().startswith("description: ")
            and not s.rstrip().endswith((">", "|"))]


def started(env: dict, cwd: Path) -> Client:
    client = Client(env, cwd)
    ident, _ = client.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
    client.response(ident)
    client.notify("initialized", {})
    return client


def measure_edits(client: Client, folder: Path, text: str, line: int, edits: int) -> list[float]:
    uri = opened(client, folder, "edits.hazard.yaml", text)
    typist = Typist(client, uri, text, line)
    times = []
    for _ in range(edits):
        sent = typist.key()
        when, _, version, _ = client.publication(uri, typist.version)
        assert version == typist.version, (version, typist.version)
        times.append((when - sent) * 1000)
        time.sleep(0.05)  # a pause, as between an author's keystrokes
    return times


def measure_hover(client: Client, folder: Path, text: str, line: int, rounds: int) -> list[float]:
    uri = opened(client, folder, "hover.hazard.yaml", text)
    typist = Typist(client, uri, text, line)
    lines = text.split("\n")
    used = next(i for i, s in enumerate(lines) if s.strip() == "- when: total == point")
    place = {"line": used, "character": lines[used].index("point")}
    times = []
    for _ in range(rounds):
        for _ in range(40):
            typist.key()
        ident, sent = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": place})
        when, answer = client.response(ident)
        assert "point" in json.dumps(answer.get("result")), answer  # craps' variable, as last analysed
        times.append((when - sent) * 1000)
        client.publication(uri, typist.version)  # the burst checked before the next round
    return times


def measure_burst(client: Client, folder: Path, text: str, line: int, keystrokes: int) -> tuple:
    uri = opened(client, folder, "burst.hazard.yaml", text)
    typist = Typist(client, uri, text, line)
    start = time.perf_counter()
    for k in range(keystrokes):  # at 20 a second, on the clock: a late one is sent at once
        delay = start + k / 20 - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        last = typist.key()
    when = client.publication(uri, typist.version)[0]
    # versions published before the last one's: neither the open's nor the last keystroke's
    return (when - last) * 1000, len([v for v in client.versions(uri) if 1 < v < typist.version])


def verdict(figure: float, target: float) -> str:
    return "met" if figure <= target else "NOT MET"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=50, help="keystrokes each waited for (measure 1)")
    parser.add_argument("--rounds", type=int, default=10, help="hovers behind 40 keystrokes (measure 2)")
    parser.add_argument("--keystrokes", type=int, default=1000, help="keystrokes at 20 a second (measure 3)")
    parser.add_argument("--before", metavar="DIR", help="also measure the server of the hazard_dsl package in DIR")
    _docs.add_option(parser)
    args = parser.parse_args()
    with _docs.recording("lsp_typing", args.write_docs):
        cache = tempfile.mkdtemp(prefix="hazard-dsl-bench-")
        folder = Path(tempfile.mkdtemp(prefix="hazard-dsl-bench-files-"))
        text = CRAPS.read_text(encoding="utf-8")
        lines = descriptions(text)
        load = os.getloadavg()[0]
        sides = {"now": dict(os.environ, XDG_CACHE_HOME=cache)}
        if args.before:
            sides = {"before": dict(os.environ, XDG_CACHE_HOME=cache + "-before",
                                    PYTHONPATH=str(Path(args.before).resolve())), **sides}
        figures = {side: {} for side in sides}
        clients = {side: started(env, folder) for side, env in sides.items()}
        try:
            # each measure of each side in turn, a folder of its own each (no text shared)
            for side, client in clients.items():
                (folder / side).mkdir()
                figures[side]["edits"] = measure_edits(client, folder / side, text, lines[0], args.edits)
            for side, client in clients.items():
                figures[side]["hovers"] = measure_hover(client, folder / side, text, lines[1], args.rounds)
            for side, client in clients.items():
                figures[side]["burst"] = measure_burst(client, folder / side, text, lines[2], args.keystrokes)
        finally:
            for client in clients.values():
                client.close()
            for path in (cache, cache + "-before", folder):
                shutil.rmtree(path, ignore_errors=True)
        print(f"hazard-dsl lsp over a pipe, craps.yaml ({len(text.splitlines())} lines); load average")
        print(f"{load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end ({os.cpu_count()} cores)"
              + (f"; before: {args.before}" if args.before else ""))
        print()
        print(f"{'measure':<39} {'side':<6} {'figure':>13}  {'target':>9}  verdict")
        for side, found in figures.items():
            edits, hovers = found["edits"], found["hovers"]
            burst, checked = found["burst"]
            median, p95 = statistics.median(edits), percentile(edits, 0.95)
            hover = statistics.median(hovers)
            met = median <= TARGETS["edit_median"] and p95 <= TARGETS["edit_p95"]
            print(f"{'keystroke -> diagnostics, median / p95':<39} {side:<6} "
                  f"{f'{median:.0f} / {p95:.0f} ms':>13}  {'25/50 ms':>9}  {'met' if met else 'NOT MET'}")
            print(f"{'  (' + str(len(edits)) + ' keystrokes: min / max)':<39} {side:<6} "
                  f"{f'{min(edits):.0f} / {max(edits):.0f} ms':>13}")
            print(f"{'hover behind 40 keys, median (max)':<39} {side:<6} "
                  f"{f'{hover:.0f} ({max(hovers):.0f}) ms':>13}  {'50 ms':>9}  {verdict(hover, TARGETS['hover'])}")
            print(f"{f'{args.keystrokes:,} keys at 20/s, last -> diagnostics':<39} {side:<6} "
                  f"{f'{burst:.0f} ms':>13}  {'200 ms':>9}  {verdict(burst, TARGETS['burst'])}")
            print(f"{'  (versions published while typing)':<39} {side:<6} {checked:>13,}")
        print()
        print("the issue's figures, before the language server's worker:")
        print(f"  keystroke -> diagnostics {BEFORE['edit']};")
        print(f"  hover behind 40 keys {BEFORE['hover']}; 1,000 keys {BEFORE['burst']}")


if __name__ == "__main__":
    main()
