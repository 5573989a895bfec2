"""A simulation run: where its chunks are played (here, in worker processes, or on a Dask
cluster). What a chunk is, its seed and how results merge are in `chunks`; the same seed gives
the same numbers wherever the chunks are played.
"""

from __future__ import annotations

import os
import signal
from itertools import islice

from .chunks import ChunkResult, Interrupted, Plan, Totals, play_chunk

_PLAN: Plan | None = None


def _start_worker(plan: Plan) -> None:
    global _PLAN
    _PLAN = plan
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def _in_worker(index: int, count: int) -> ChunkResult:
    return play_chunk(_PLAN, index, count)


def available_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def play(plan: Plan, workers: int = 1, scheduler: str | None = None, done=None) -> Totals:
    """Every chunk of the plan, merged. `done(result)` is called as each finishes. Ctrl-C raises
    `Interrupted` with the chunks finished so far."""
    chunks = plan.chunks()
    results = Totals()

    def finished(result: ChunkResult) -> None:
        results.add(result)
        if done is not None:
            done(result)

    if scheduler is not None:
        from .cluster import on_cluster

        return on_cluster(plan, chunks, scheduler, finished, results)
    if workers <= 1 or plan.chunk_count() == 1:
        try:
            for index, count in chunks:
                finished(play_chunk(plan, index, count))
        except KeyboardInterrupt:
            raise Interrupted(results) from None
        return results
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = ProcessPoolExecutor(max_workers=min(workers, plan.chunk_count()),
                               mp_context=multiprocessing.get_context(method),
                               initializer=_start_worker, initargs=(plan,))
    try:
        pending = set()
        # a few chunks ahead of each worker, not all at once: memory stays flat for any N
        while True:
            for index, count in islice(chunks, max(0, 2 * workers - len(pending))):
                pending.add(pool.submit(_in_worker, index, count))
            if not pending:
                break
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in ready:
                finished(future.result())
    except KeyboardInterrupt:
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise Interrupted(results) from None
    pool.shutdown()
    return results
