"""Load on the shared tables: many tables of several players each, over WebSockets on loopback.

    python bench/bench_tables.py                       # 50 tables x 4 players, 10,000 actions
    python bench/bench_tables.py --tables 10 --actions 1000
    python bench/bench_tables.py --write-docs       # and its figures into docs/performance.md

A real `hazard-dsl serve --db FILE` (a process of its own, a fresh database in a temporary
folder) is started on 127.0.0.1; each table (Cotton, seeded random dice, four players with deep
purses) has one WebSocket per player. At each table the player asked sends the first action his
page lists (the caster's "done" first at the bets), one action at a time; the tables run at once.
Every player's connection keeps its own rate within the server's (serve.tables.RATE, BURST), as a
page would; that wait is not counted. With `--think S` each table waits S seconds between its
actions (people are slower than the server): the latency at a load below the most it can take.

It reports actions a second and, at every player, the time from an action being sent to the
first event it caused (actions that cause events) and to the new state of the table (every
action), p50 and p99; and it checks, against each table's log (GET /api/tables/ID/log), that
every player received every event once, in order, as logged. Bounded in count (`--actions`) and
in time (`--time-limit`: stopped, and said so, past it). Loopback only: nothing leaves the machine.
Not a timed test: the goal on a two-core machine is p99 under 50 ms with nothing lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Player:
    """One player's WebSocket: what it received, in order, with the time each message came."""

    def __init__(self, name, socket):
        self.name, self.socket = name, socket
        self.events = []  # (n, event) in the order received
        self.states = 0
        self.state = None
        self.problems = []
        self.changed = asyncio.Event()
        self.first_event_at = None  # the arrival of the first event since the last action was sent
        self.state_at = None
        self.allowance, self.since = None, None
        self.closed = False

    async def read(self):
        """Read until the connection closes; closed before the run is over (cancelled), it is a problem."""
        try:
            await self._read()
        except Exception as exc:  # not CancelledError: the run over, its readers are cancelled
            self.problems.append(f"{self.name}: {exc!r}")
        self.problems.append(f"{self.name}: the connection closed ({self.socket.close_code} "
                             f"{self.socket.close_reason or ''})")
        self.closed = True
        self.changed.set()

    async def _read(self):
        async for text in self.socket:
            message = json.loads(text)
            now = time.perf_counter()
            if message["type"] == "event":
                expected = self.events[-1][0] + 1 if self.events else 1
                if message["n"] != expected:
                    self.problems.append(f"{self.name}: event {message['n']} where {expected} was due")
                self.events.append((message["n"], message["event"]))
                if self.first_event_at is None:
                    self.first_event_at = now
            elif message["type"] == "state":
                self.states += 1
                self.state = message
                self.state_at = now
            elif message["type"] == "reply" and message["status"] != 200:
                self.problems.append(f"{self.name}: refused: {message['error']}")
            self.changed.set()

    async def paced(self, rate, burst):
        """Wait until this connection may send one more message within the server's rate."""
        now = time.monotonic()
        if self.allowance is None:
            self.allowance, self.since = float(burst), now
        self.allowance = min(float(burst), self.allowance + (now - self.since) * rate)
        self.since = now
        # a message's worth of slack: the server counts at arrival, and arrivals bunch up under load
        if self.allowance < 2.5:
            await asyncio.sleep((2.5 - self.allowance) / rate)
            now = time.monotonic()
            self.allowance = min(float(burst), self.allowance + (now - self.since) * rate)
            self.since = now
        self.allowance -= 1


def call(address, path, body=None, token=None):
    headers = {"Content-Type": "application/json", "X-Hazard-DSL": "1"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(address + path, data=None if body is None else json.dumps(body).encode(),
                                     headers=headers, method="GET" if body is None else "POST")
    with urllib.request.urlopen(request, timeout=60) as answer:
        data = answer.read()
    return data if path.endswith("/log") else json.loads(data)


async def play_table(address, table_id, tokens, budget, latencies, deadline, rate, burst, think):
    from websockets.asyncio.client import connect

    ws_base = address.replace("http://", "ws://")
    players = {}
    for name, token in tokens.items():
        socket = await connect(f"{ws_base}/api/tables/{table_id}/ws?token={token}&after=0", max_size=2**20,
                               compression=None)
        players[name] = Player(name, socket)
    readers = [asyncio.ensure_future(p.read()) for p in players.values()]
    try:
        # the opening: every player has its first state
        while not all(p.states for p in players.values()):
            await asyncio.sleep(0.005)
        sent = 0
        while budget["left"] > 0 and time.monotonic() < deadline:
            state = next(iter(players.values())).state
            if state["finished"]:
                break
            who = state["waiting"]["who"]
            actor = players[who]
            action = actor.state["waiting"]["actions"][0]
            budget["left"] -= 1
            if think:
                await asyncio.sleep(think)
            await actor.paced(rate, burst)
            states = {name: p.states for name, p in players.items()}
            for p in players.values():
                p.first_event_at = None
                p.changed.clear()
            started = time.perf_counter()
            await actor.socket.send(json.dumps({"id": sent, "action": action}))
            sent += 1
            while not all(p.states > states[name] for name, p in players.items()):
                waiting = [asyncio.ensure_future(p.changed.wait()) for p in players.values()]
                await asyncio.wait(waiting, timeout=10, return_when=asyncio.FIRST_COMPLETED)
                for w in waiting:
                    w.cancel()
                for p in players.values():
                    p.changed.clear()
                if time.monotonic() > deadline + 30 or any(p.closed for p in players.values()):
                    raise TimeoutError(f"table {table_id}: no answer to an action: "
                                       f"{[q for p in players.values() for q in p.problems]}")
            for p in players.values():
                latencies["state"].append(p.state_at - started)
                if p.first_event_at is not None:
                    latencies["event"].append(p.first_event_at - started)
        return players, sent
    finally:
        for r in readers:
            r.cancel()
        for p in players.values():
            await p.socket.close()


async def run(address, tables, args, rate, burst):
    latencies = {"state": [], "event": []}
    budget = {"left": args.actions}
    deadline = time.monotonic() + args.time_limit
    started = time.perf_counter()
    results = await asyncio.gather(*(play_table(address, table_id, tokens, budget, latencies, deadline, rate, burst,
                                                args.think)
                                     for table_id, tokens in tables))
    elapsed = time.perf_counter() - started
    return results, latencies, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--actions", type=int, default=10_000, help="actions in all (default 10,000)")
    parser.add_argument("--time-limit", type=float, default=300.0, help="seconds at most (default 300)")
    parser.add_argument("--think", type=float, default=0.0, help="seconds each table waits between its actions "
                                                                 "(default 0: as fast as the server answers)")
    _docs.add_option(parser)
    args = parser.parse_args()
    if not (1 <= args.tables <= 100 and 2 <= args.players <= 12 and 1 <= args.actions <= 100_000):
        parser.error("1-100 tables, 2-12 players, at most 100,000 actions")
    with _docs.recording("bench_tables", args.write_docs) as record:
        from hazard_dsl.serve.tables import BURST, RATE

        folder = tempfile.mkdtemp(prefix="bench-tables-")
        server = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--host", "127.0.0.1", "--port", "0",
                                   "--db", os.path.join(folder, "tables.db")], stdout=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline()
            if " at http://" not in line:
                print(f"serve did not start: {line}", file=sys.stderr)
                record.cancel()  # no figures: the page keeps its last ones
                return 1
            address = line.split(" at ")[1].split()[0].rstrip("/")
            names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gil", "Hal", "Ivy", "Jon", "Kit", "Lem"][:args.players]
            made_at = time.perf_counter()
            tables = []
            for i in range(args.tables):
                made = call(address, "/api/tables", {"ruleset": "cotton", "players": names, "seed": 1000 + i,
                                                     "settings": {"purse": 100_000, "rounds": 10_000}})
                tables.append((made["id"], {n: s["token"] for n, s in made["seats"].items()}))
            print(f"{args.tables} tables of {args.players} players opened in {time.perf_counter() - made_at:.1f} s")
            results, latencies, elapsed = asyncio.run(run(address, tables, args, RATE, BURST))
            actions = sum(sent for _, sent in results)
            # every player received every event of its table's log, once, in order
            problems, events = [], 0
            for (table_id, tokens), (players, _) in zip(tables, results):
                log = call(address, f"/api/tables/{table_id}/log", token=next(iter(tokens.values())))
                logged = [json.loads(line) for line in log.decode().splitlines()]
                logged = [e for e in logged if "event" in e]
                events += len(logged)
                for p in players.values():
                    problems += p.problems
                    got = [e for _, e in p.events]
                    if len(got) != len(logged):
                        problems.append(f"table {table_id}, {p.name}: {len(got)} events received, {len(logged)} logged")
                    else:
                        for (n, e), want in zip(p.events, logged[:len(got)]):
                            alike = e == {k: v for k, v in want.items() if k in e}
                            if not alike or (n == 1) != (want["event"] == "session"):
                                problems.append(f"table {table_id}, {p.name}: event {n} differs from the log")
                                break
            state, event = latencies["state"], latencies["event"]
            print(f"{actions:,} actions at {len(tables)} tables in {elapsed:.1f} s: {actions / elapsed:,.0f} actions/s "
                  f"({events:,} events logged)")
            print(f"action -> its first event, at every player ({len(event):,} deliveries): "
                  f"p50 {percentile(event, 50) * 1e3:.1f} ms, p99 {percentile(event, 99) * 1e3:.1f} ms, "
                  f"max {max(event) * 1e3:.1f} ms" if event else "no events")
            print(f"action -> the table's new state, at every player ({len(state):,} deliveries): "
                  f"p50 {percentile(state, 50) * 1e3:.1f} ms, p99 {percentile(state, 99) * 1e3:.1f} ms, "
                  f"mean {statistics.fmean(state) * 1e3:.1f} ms")
            if actions < args.actions:
                print(f"stopped at {actions:,} actions of {args.actions:,} (the time limit, or sessions that ended)")
            if problems:
                print(f"PROBLEMS ({len(problems)}):", *problems[:20], sep="\n  ")
                return 1
            print("nothing lost, duplicated or reordered at any player")
            return 0
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=20)
            # the database, its write-ahead log and the server's files go with the run (after the
            # server: it holds them open until it stops)
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
