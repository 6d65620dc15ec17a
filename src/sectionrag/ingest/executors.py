"""Where an ingest's work runs: :class:`Executor`, :class:`LocalExecutor` and :func:`get_executor`.

The runner (:func:`sectionrag.ingest.runner.run_ingest`) decides what
changed, guards the run (``rechunk``, ``allow_empty``), holds the lock and
writes: the embedding cache, the atomic per-source replacement, the records
and the sync deletions. An executor does the rest: it turns the runner's
:class:`~sectionrag.ingest.prepare.Job` values into events (parsed and chunked
sources, unchanged ones, failures), in the order of the jobs, and may embed
the chunks too. So a local ingest and a distributed one differ only in where
that work runs; what is written, and in which order, is the same.

- :class:`LocalExecutor`: in this process, parsing in turn or in a background
  thread (``parse_ahead``); the runner embeds.
- :class:`sectionrag.ingest.ray_executor.RayExecutor` (``executor="ray"``,
  extra ``sectionrag[ray]``): parsing and chunking as Ray tasks, embedding in
  an actor pool.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from sectionrag._checks import check_optional_bool
from sectionrag.ingest.prepare import Job, Prepared, Preparer
from sectionrag.protocols import Embedder, IncrementalStore

__all__ = ["EXECUTORS", "Executor", "LocalExecutor", "Work", "parse_ahead_default"]

#: documents parsed ahead of the embedder at most
_QUEUE_DOCS = 32
#: CPUs from which parsing ahead pays off with an embedder on the CPU
_AHEAD_CPUS = 4
#: the executors known by name
EXECUTORS = ("local", "ray")


@dataclass(frozen=True, slots=True)
class Work:
    """What an executor is given: the jobs, how to prepare them, and how to embed (if it does).

    Attributes:
        preparer: Decides about each job and parses, chunks and enriches it.
        jobs: The sources, in the order their events must come back.
        embedder: The run's embedder (an executor that embeds uses it).
        batch_size: Chunk texts per ``embed_documents`` call.
        store: The collection; an executor that embeds may read its embedding cache.
        embedder_key: The embedder's key in that cache.
        progress: Called with a bar's name (``"documents"``, ``"embedding"``) and a count.
    """

    preparer: Preparer
    jobs: Sequence[Job]
    embedder: Embedder
    batch_size: int
    store: IncrementalStore
    embedder_key: str
    progress: Callable[[str, int], None]


@runtime_checkable
class Executor(Protocol):
    """Runs the per-source work of an ingest (see the module docstring)."""

    def run(self, work: Work) -> Iterator[Prepared]:
        """Yield one event per job, in the jobs' order.

        A :class:`~sectionrag.ingest.prepare.Ready` event may carry its chunks'
        vectors (embedded, or found in the store's cache); the runner embeds
        those of events without.
        """
        ...


def parse_ahead_default(embedder: Any) -> bool:
    """Whether parsing in a background thread while embedding is likely to help.

    It does when the embedder runs elsewhere (an accelerator) or spare CPUs
    exist. On the 2-CPU machine this was measured on, a CPU embedder ran about
    6 % slower with a parser beside it than parsing in turn, so there it is off.
    """
    device = getattr(embedder, "device", None)
    if isinstance(device, str) and device and not device.startswith("cpu"):
        return True
    return (os.cpu_count() or 1) >= _AHEAD_CPUS


class LocalExecutor:
    """Prepare sources in this process; the runner embeds and writes them.

    Args:
        parse_ahead: Parse and chunk the next documents in a background thread
            while the runner embeds. ``None`` (default) turns it on when the
            embedder runs on an accelerator or at least 4 CPUs exist.
    """

    def __init__(self, parse_ahead: bool | None = None) -> None:
        self.parse_ahead = check_optional_bool("parse_ahead", parse_ahead)

    def __repr__(self) -> str:
        return f"LocalExecutor(parse_ahead={self.parse_ahead!r})"

    def run(self, work: Work) -> Iterator[Prepared]:
        """Yield the event of each job, prepared in turn or in a background thread."""
        ahead = parse_ahead_default(work.embedder) if self.parse_ahead is None else self.parse_ahead
        return _ahead(work) if ahead else _inline(work)


def _inline(work: Work) -> Iterator[Prepared]:
    """Prepare every job in this thread."""
    for job in work.jobs:
        yield work.preparer.prepare(job)
        work.progress("documents", 1)


@dataclass(slots=True)
class _Crashed:
    error: BaseException


def _ahead(work: Work) -> Iterator[Prepared]:
    """Prepare jobs in a background thread, parsing ahead of the caller."""
    events: queue.Queue[Prepared | _Crashed | None] = queue.Queue(maxsize=_QUEUE_DOCS)
    stop = threading.Event()

    def produce() -> None:
        try:
            for job in work.jobs:
                if stop.is_set():
                    return
                event = work.preparer.prepare(job)
                work.progress("documents", 1)
                while not stop.is_set():
                    try:
                        events.put(event, timeout=0.1)
                        break
                    except queue.Full:
                        continue
        except BaseException as e:  # handed to the caller's thread, re-raised there
            events.put(_Crashed(e))
        finally:
            events.put(None)

    worker = threading.Thread(target=produce, name="sectionrag-ingest", daemon=True)
    worker.start()
    try:
        while (event := events.get()) is not None:
            if isinstance(event, _Crashed):
                raise event.error
            yield event
    finally:
        stop.set()
        while worker.is_alive():  # unblock a producer waiting on a full queue
            try:
                events.get(timeout=0.1)
            except queue.Empty:
                continue
        worker.join()
