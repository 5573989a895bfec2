"""The workbench's kept processes (issue 39): what they keep between requests never changes an
answer, and a request given up, timed out or failed leaves the process in a known state.

- `serve.language.Held` answers each version of a text exactly as a fresh language service
  does (`check_text`, `figures`): the kept answer is compared with the fresh one, version by
  version, through a comment's edit, a description's, an error made and fixed.
- `serve.jobs.Remembered` answers a text whose ruleset equals the last one's with the last
  analysis (or drawing), and any other afresh: each answer is compared with `jobs.analyse`
  (`jobs.graph`) of the text.
- `serve.work.Kept` keeps its state from one request to the next, lets a given-up one finish
  within its grace, and past that (or past the time limit) starts again with nothing kept.
"""

from __future__ import annotations

import os
import time

import anyio
import pytest

from hazard_dsl.diagnostics import RulesetError
from hazard_dsl.parse.files import builtin_dir
from hazard_dsl.serve import jobs
from hazard_dsl.serve.language import (
    Held,
    check_text,
    completion,
    figures,
    held_check,
    held_completion,
    held_figures,
    held_hover,
    hover,
)
from hazard_dsl.serve.work import Failed, Kept, TimeLimit, Worker

COTTON = (builtin_dir() / "cotton.yaml").read_text(encoding="utf-8")
FIRST = "  The caster throws until a main of 5 to 9 comes up"  # the description's first line begins so


def versions() -> list[str]:
    """Cotton's text as one types: a comment, the description, an unknown key (an error, on
    line 5 below `year:`), the error undone, and the text as it was."""
    assert FIRST in COTTON
    commented = COTTON + "# typed: e"
    described = commented.replace(FIRST, FIRST.replace("comes up", "comes upe"))
    wrong = described.replace("year: 1674", "year: 1674\nyeer: 1674", 1)
    return [COTTON, commented, commented + "t", described, wrong, described, COTTON]


def test_a_held_text_is_answered_as_a_fresh_service_answers_it():
    held = Held()
    for n, text in enumerate(versions()):
        name = "b.yaml" if n == 5 else "a.yaml"  # another page's text between two of this one's
        kept = held_check(held, text, name)
        assert kept == check_text(text, name), n
        assert held_figures(held, text, name) == figures(text, name), n
        if n == 4:  # the unknown key: an error on its line (`year:` is line 4 of cotton.yaml)
            assert [d["line"] for d in kept if d["severity"] == "error"] == [5], kept
        else:
            assert not [d for d in kept if d["severity"] == "error"], (n, kept)


def test_a_held_texts_hover_and_completion_are_a_fresh_services():
    # as the page asks them: after the check of each version, a hover over `main` in a condition
    # and a completion at the end of the last line (a comment's, or a rule's). Version 4 has an
    # error: the held service would say what `main` was in the last version that read (as the
    # language server does); the workbench says what a fresh service says of the text itself.
    held = Held()
    for n, text in enumerate(versions()):
        lines = text.splitlines()
        line = next(i for i, t in enumerate(lines, 1) if "when: total == main or" in t)
        column = lines[line - 1].index("== main") + 4
        end = (len(lines), len(lines[-1]) + 1)
        held_check(held, text, "a.yaml")
        kept = held_hover(held, text, "a.yaml", line, column)
        assert kept == hover(text, "a.yaml", line, column) and "main" in kept["text"], n
        assert held_completion(held, text, "a.yaml", *end) == completion(text, "a.yaml", *end), n
    # a completion after `goto ` offers the phases, from the held text changed to it
    text = COTTON.replace("goto chance_throw\n", "goto \n", 1)
    at = next(i for i, t in enumerate(text.splitlines(), 1) if t.endswith("goto "))
    offered = held_completion(held, text, "a.yaml", at, len("goto ") + text.splitlines()[at - 1].index("goto ") + 1)
    assert {"set_main", "chance_throw"} <= {c["label"] for c in offered}
    assert offered == completion(text, "a.yaml", at, len(text.splitlines()[at - 1]) + 1)


def test_the_workbench_forks_nothing_for_a_hover_or_a_completion(tmp_path):
    # The page asks a completion at every key typed (the editor's), and a hover wherever the
    # pointer rests: each was a process forked for it that checked the text afresh, a core
    # taken from the key's analysis (bench_workbench --trace). Both are now the kept language
    # service's (issue 39): with forking refused, they are answered, by the check's process.
    from starlette.testclient import TestClient

    from hazard_dsl.serve.app import create_app

    app = create_app(tmp_path)
    worker = app.state.api.worker
    if worker.inline:
        pytest.skip("no forkserver here: the work runs inline")
    header = {"X-Hazard-DSL": "1"}
    with TestClient(app, base_url="http://127.0.0.1") as client:
        body = {"text": COTTON, "name": "c.yaml"}
        assert client.post("/api/check", json=body, headers=header).json() == {"diagnostics": []}
        checker = worker._kept[jobs.held].process.pid

        def refused(*args):
            raise AssertionError("a process was forked for a hover or a completion")

        worker._start = refused
        lines = COTTON.splitlines()
        line = next(i for i, t in enumerate(lines, 1) if "when: total == main or" in t)
        got = client.post("/api/hover", json={**body, "line": line, "column": lines[line - 1].index("== main") + 4},
                          headers=header)
        assert got.status_code == 200 and "main" in got.json()["text"], got.text
        got = client.post("/api/completion", json={**body, "line": len(lines), "column": len(lines[-1]) + 1},
                          headers=header)
        assert got.status_code == 200 and got.json() == {"items": completion(COTTON, "c.yaml", len(lines),
                                                                              len(lines[-1]) + 1)}, got.text
        assert worker._kept[jobs.held].process.pid == checker and list(worker._kept) == [jobs.held]
        worker.stop()


def test_at_most_max_texts_are_held_the_oldest_forgotten():
    held = Held()
    for k in range(Held.MAX + 3):
        held.document(f"name: t{k}\n", f"t{k}.yaml")
    assert list(held._uris) == [f"untitled:t{k}.yaml" for k in range(3, Held.MAX + 3)]
    # a forgotten one is opened afresh when asked again, and answered as before
    assert held_check(held, "name: t0\n", "t0.yaml") == check_text("name: t0\n", "t0.yaml")
    assert list(held._uris)[-1] == "untitled:t0.yaml" and len(held._uris) == Held.MAX


def test_the_kept_analysis_is_the_analysis_of_the_text():
    state = jobs.analysed()
    commented = COTTON + "# typed: e"
    first = jobs.held_analyse(state, "a.yaml", {}, COTTON)
    assert first == jobs.analyse("a.yaml", {}, COTTON)
    # a comment: the same ruleset, field by field, so the same analysis (the object kept)
    again = jobs.held_analyse(state, "a.yaml", {}, commented)
    assert again is first and again == jobs.analyse("a.yaml", {}, commented)
    # the description: another ruleset, worked out afresh, and the text's own
    described = commented.replace(FIRST, FIRST.replace("comes up", "comes upe"))
    fresh = jobs.held_analyse(state, "a.yaml", {}, described)
    assert fresh is not first and fresh == jobs.analyse("a.yaml", {}, described)
    # another name, or other options: afresh too
    other = jobs.held_analyse(state, "b.yaml", {}, described)
    assert other is not fresh and other["file"] == "b.yaml"
    called = jobs.held_analyse(state, "b.yaml", {"main": "called"}, described)
    assert called is not other and called == jobs.analyse("b.yaml", {"main": "called"}, described)
    # an error: refused as the analysis of the text refuses it; the last analysis stays kept
    with pytest.raises(RulesetError):
        wrong = described.replace("year: 1674", "year: 1674\nyeer: 1674", 1)
        jobs.held_analyse(state, "b.yaml", {"main": "called"}, wrong)
    assert jobs.held_analyse(state, "b.yaml", {"main": "called"}, described + "# again") is called


def test_the_kept_drawing_is_the_drawing_of_the_text():
    state = jobs.drawn()
    commented = COTTON + "# typed: e"
    first = jobs.held_graph(state, "a.yaml", {}, "json", COTTON)
    assert first == jobs.graph("a.yaml", {}, "json", COTTON)
    again = jobs.held_graph(state, "a.yaml", {}, "json", commented)
    assert again is first and again == jobs.graph("a.yaml", {}, "json", commented)
    # another format, other options: afresh, and each the text's own
    mermaid = jobs.held_graph(state, "a.yaml", {}, "mermaid", commented)
    assert mermaid == jobs.graph("a.yaml", {}, "mermaid", commented) and mermaid != first
    called = jobs.held_graph(state, "a.yaml", {"main": "called"}, "mermaid", commented)
    assert called is not mermaid and called == jobs.graph("a.yaml", {"main": "called"}, "mermaid", commented)


# -- the kept process (serve.work.Kept), with states and work of this module


class Tally:
    """A state: how many requests it answered."""

    def __init__(self):
        self.count = 0


def tally() -> Tally:
    return Tally()


def count(state: Tally, nap: float = 0.0):
    """One more answered, after `nap` seconds: (the count, the process)."""
    time.sleep(nap)
    state.count += 1
    return state.count, os.getpid()


def fail(state: Tally):
    raise ValueError("not a rule file")


@pytest.mark.slow  # seconds: processes forked, one waited out past its grace and one past its limit
def test_a_kept_process_keeps_its_state_and_starts_again_past_its_grace_or_limit(tmp_path):
    async def scenario():
        worker = Worker(time_limit=30, jobs=1, folder=tmp_path, ask_limit=3)
        if worker.inline:
            pytest.skip("no forkserver here: the work runs inline")
        (one, pid), (two, same) = [await worker.keep(tally, count) for _ in range(2)]
        assert (one, two) == (1, 2) and pid == same

        # given up while it runs, within the grace: it finishes, and its count is kept
        with anyio.move_on_after(0.2):
            await worker.keep(tally, count, 0.5)
        assert await worker.keep(tally, count) == (4, pid)

        # a failure is the request's; the state stays
        with pytest.raises(Failed) as failed:
            await worker.keep(tally, fail)
        assert failed.value.kind == "internal" and "not a rule file" in failed.value.payload
        assert await worker.keep(tally, count) == (5, pid)

        # given up, and still at work past the grace: killed, and the next starts afresh
        start = time.monotonic()
        with anyio.move_on_after(0.2):
            await worker.keep(tally, count, 20)
        assert time.monotonic() - start < 0.2 + Kept.GRACE + 1.0
        restarted, new = await worker.keep(tally, count)
        assert restarted == 1 and new != pid

        # past the time limit (the language's lane: 3 s): stopped, and the next starts afresh
        with pytest.raises(TimeLimit):
            await worker.keep(tally, count, 20)
        after, newer = await worker.keep(tally, count)
        assert after == 1 and newer != new

        # killed while idle (for memory, say): the next request is answered by another
        import signal

        os.kill(newer, signal.SIGKILL)
        while _alive(newer):
            await anyio.sleep(0.05)
        replaced, other = await worker.keep(tally, count)
        assert replaced == 1 and other != newer

        # an analysis (`slow`) while the kept process is at another: a process of its own, with a
        # state made for it alone, rather than a wait
        answers = []

        async def analysis(nap):
            answers.append(await worker.keep(tally, count, nap, slow=True))

        async with anyio.create_task_group() as group:
            group.start_soon(analysis, 1.0)
            await anyio.sleep(0.3)
            group.start_soon(analysis, 0.0)
        analyst = worker._kept[tally].process.pid
        # the kept one counts on from its last (1), the other from nothing
        assert [a for a in answers if a[1] == analyst] == [(2, analyst)]
        assert [a[0] for a in answers if a[1] != analyst] == [1]

        # the server stops: the kept processes, idle, are killed too
        worker.stop()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and _alive(analyst):
            await anyio.sleep(0.05)
        assert not _alive(analyst)

    anyio.run(scenario)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (killed, not yet reaped by the forkserver) counts as gone
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(")")[-1].split()[0] != "Z"


def threshold(state=None) -> tuple:
    import gc

    return gc.get_threshold()


def test_the_servers_processes_set_the_collector_as_the_programs_do(tmp_path):
    # The forkserver is a fresh interpreter (Python's own setting, 700 allocations); the command
    # line's main sets every program of hazard-dsl's to collector.YOUNG (200,000). A kept process
    # and a forked piece of work are such programs too (issue 39): each reports its own setting.
    from hazard_dsl import collector

    async def scenario():
        worker = Worker(time_limit=30, jobs=1, folder=tmp_path)
        if worker.inline:
            pytest.skip("no forkserver here: the work runs inline")
        try:
            kept = await worker.keep(tally, threshold)
            forked = await worker.run(threshold)
        finally:
            worker.stop()
        return kept, forked

    kept, forked = anyio.run(scenario)
    assert kept == forked == (collector.YOUNG, collector.OLDER, collector.OLDER) == (200_000, 30, 30)


@pytest.mark.slow  # seconds: a kept process held at work, and one forked beside it
def test_a_hover_during_a_long_check_is_answered_beside_it(tmp_path):
    # Issue 39: a request is answered while a long check runs. The workbench's hover and
    # completion are the kept service's (no fork at each key), but a check that holds the kept
    # process past their patience (a large game's takes seconds) leaves them to a process of
    # their own, with a state made for them alone: they wait for no check longer than that.
    async def scenario():
        worker = Worker(time_limit=30, jobs=1, folder=tmp_path, ask_limit=10)
        if worker.inline:
            pytest.skip("no forkserver here: the work runs inline")
        assert (await worker.keep(tally, count))[0] == 1
        kept = worker._kept[tally].process.pid
        answers: dict = {}

        async def long_check():
            answers["check"] = await worker.keep(tally, count, 4.0)

        async def hover():
            start = time.monotonic()
            answers["hover"] = await worker.keep(tally, count, patience=0.2)
            answers["waited"] = time.monotonic() - start

        async with anyio.create_task_group() as group:
            group.start_soon(long_check)
            await anyio.sleep(0.3)  # the check has the process
            group.start_soon(hover)
        assert answers["check"] == (2, kept)
        # answered beside the check (a fresh state: its first answer), well before the check ended
        assert answers["hover"][0] == 1 and answers["hover"][1] != kept and answers["waited"] < 3.0
        # with the process free, the patience is not needed: the kept state answers
        assert await worker.keep(tally, count, patience=0.2) == (3, kept)
        worker.stop()

    anyio.run(scenario)


def test_two_analyses_arriving_together_run_side_by_side(tmp_path):
    # CI found this race: two pages' analyses arrive in the same instant, both see the kept
    # process free (neither has taken its turn yet, each awaiting its slot), and the second
    # queues behind the first for the kept process, one slot idle. The first claims the process
    # before any await; the second is forked beside it. Read from the processes that answered,
    # not from a clock: the same pid twice is the race.
    async def scenario():
        worker = Worker(time_limit=30, jobs=2, folder=tmp_path)
        if worker.inline:
            pytest.skip("no forkserver here: the work runs inline")
        answers = []

        async def analysis():
            answers.append(await worker.keep(tally, count, 0.3, slow=True))

        try:
            async with anyio.create_task_group() as group:
                group.start_soon(analysis)
                group.start_soon(analysis)
        finally:
            worker.stop()
        return answers

    answers = anyio.run(scenario)
    assert sorted(a[0] for a in answers) == [1, 1], answers  # each its own state's first answer
    assert answers[0][1] != answers[1][1]
