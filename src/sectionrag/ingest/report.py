"""What one ingest did: :class:`IngestReport` and :class:`FailedSource`."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

__all__ = ["STAGES", "FailedSource", "IngestReport"]

#: the stages timed in ``IngestReport.seconds``, in pipeline order
STAGES = ("scan", "parse", "chunk", "enrich", "embed", "cache", "store", "records", "sync")


@dataclass(frozen=True, slots=True)
class FailedSource:
    """A source that could not be ingested, with the reason."""

    source: str
    error: str


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

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON document ``sectionrag index --json`` prints."""
        return {
            "added": len(self.added),
            "updated": len(self.updated),
            "unchanged": len(self.unchanged),
            "deleted": len(self.deleted),
            "failed": [{"source": f.source, "error": f.error} for f in self.failed],
            "chunks": self.chunks,
        }

    def summary(self) -> str:
        """One line: what was added, updated, unchanged, deleted and failed."""
        line = (
            f"{len(self.added)} added, {len(self.updated)} updated, {len(self.unchanged)} unchanged, "
            f"{len(self.deleted)} deleted, {len(self.failed)} failed; {self.chunks} chunks written"
        )
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
