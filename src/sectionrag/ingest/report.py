"""What one ingest did: :class:`IngestReport`, :class:`FailedSource` and :class:`SourceWarning`."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["STAGES", "FailedSource", "IngestReport", "SourceWarning"]

#: the stages timed in ``IngestReport.seconds``, in pipeline order
STAGES = ("scan", "parse", "chunk", "enrich", "embed", "cache", "store", "records", "sync")


@dataclass(frozen=True, slots=True)
class FailedSource:
    """A source that could not be ingested, with the reason."""

    source: str
    error: str


@dataclass(frozen=True, slots=True)
class SourceWarning:
    """Something a user should know about a source that did not fail the run.

    A document indexed with no chunk (nothing of it is searchable), or an entry
    of a directory that was skipped without being opened (a FIFO, a socket, a
    device, a symbolic link leaving the folders named).
    """

    source: str
    message: str


@dataclass(slots=True)
class IngestReport:
    """What one :meth:`~sectionrag.pipeline.Pipeline.ingest` call did.

    Attributes:
        added: Sources indexed for the first time.
        updated: Sources re-indexed (content or configuration changed, or the
            collection did not hold what the record said).
        unchanged: Sources already indexed with the same content and configuration (skipped).
        deleted: Sources removed because they are gone (``sync=True``).
        failed: Sources that could not be ingested, with their reasons; a source
            indexed before keeps its old chunks.
        warnings: Sources that did not fail but need a look: documents indexed with
            no chunk, directory entries skipped without being read.
        chunks: Chunks written by this call.
        reconfigured: Sources among ``updated`` re-indexed because the pipeline
            configuration changed (chunker, embedder, parser or enricher settings).
        config_changes: What changed in the configuration, e.g. ``chunker.size: 64 -> 128``.
        embedded: Chunk texts sent to the embedder.
        cached: Chunk vectors taken from the embedding cache instead.
        seconds: Time per stage (``scan``, ``parse``, ``chunk``, ``enrich``,
            ``embed``, ``cache``, ``store``, ``records``, ``sync``) and ``total``
            (wall clock). Parsing runs alongside embedding, so stages can add up
            to more than ``total``.
    """

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    failed: list[FailedSource] = field(default_factory=list)
    warnings: list[SourceWarning] = field(default_factory=list)
    chunks: int = 0
    reconfigured: list[str] = field(default_factory=list)
    config_changes: list[str] = field(default_factory=list)
    embedded: int = 0
    cached: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        """True when nothing failed."""
        return not self.failed

    def to_dict(self, show: Callable[[str], str] = str) -> dict[str, Any]:
        """Return the JSON document ``sectionrag index --json`` prints.

        Args:
            show: How a source is written (the command line shows it relative to
                the working directory); the sources as recorded by default.
        """
        return {
            "added": len(self.added),
            "updated": len(self.updated),
            "unchanged": len(self.unchanged),
            "deleted": len(self.deleted),
            "failed": [{"source": show(f.source), "error": f.error} for f in self.failed],
            "warnings": [{"source": show(w.source), "message": w.message} for w in self.warnings],
            "chunks": self.chunks,
        }

    def summary(self) -> str:
        """One line: what was added, updated, unchanged, deleted and failed."""
        line = (
            f"{len(self.added)} added, {len(self.updated)} updated, {len(self.unchanged)} unchanged, "
            f"{len(self.deleted)} deleted, {len(self.failed)} failed; {self.chunks} chunks written"
        )
        if self.warnings:
            line += f", {len(self.warnings)} warning(s)"
        if self.reconfigured:
            line += f" ({len(self.reconfigured)} re-indexed for a new configuration)"
        return line

    def timings(self) -> str:
        """Seconds per stage, in pipeline order, as one line."""
        parts = [f"{s} {self.seconds[s]:.2f}" for s in STAGES if s in self.seconds]
        total = self.seconds.get("total")
        return ", ".join(parts) + (f"; total {total:.2f} s" if total is not None else "")

    def _add_time(self, stage: str, seconds: float) -> None:
        with self._lock:
            self.seconds[stage] = self.seconds.get(stage, 0.0) + seconds

    def _tick(self, stage: str, since: float) -> float:
        now = time.perf_counter()
        self._add_time(stage, now - since)
        return now
