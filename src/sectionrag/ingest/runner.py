"""One ingest run: scan, parse and chunk in a background thread; embed and write in the caller's (private).

Order of writes for each group of finished documents (``flush``), so that a
process killed at any moment loses at most the group in flight:

1. new vectors go to the embedding cache (a crash after this re-embeds nothing);
2. the group's chunks replace those of its sources in one commit
   (:meth:`~sectionrag.protocols.IncrementalStore.replace_sources`);
3. the group's records are upserted.

A record is trusted only if the collection holds exactly the chunks it
names (document id and count), so a crash between 2 and 3, or chunks
deleted behind the pipeline's back, make the next run re-index that source
(from the cache: no embedding).
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import queue
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag._describe import canonical_json
from sectionrag.errors import SectionRagError
from sectionrag.ingest.adapter import incremental
from sectionrag.ingest.fingerprint import (
    config_changes,
    embedder_key,
    fingerprint,
    pipeline_config,
)
from sectionrag.ingest.report import FailedSource, IngestReport
from sectionrag.ingest.sources import FileState, check_regular, document_hash, read_file, stat_unchanged
from sectionrag.ingest.stages import Stages
from sectionrag.parsers import AutoParser
from sectionrag.protocols import IncrementalStore, SourceRecord
from sectionrag.types import Chunk, Document, content_hash

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["run_ingest", "text_key"]

logger = logging.getLogger("sectionrag.ingest")

#: documents parsed ahead of the embedder at most
_QUEUE_DOCS = 32
#: finished chunks gathered before they are embedded and written together (one commit)
_FLUSH_MIN = 512
#: CPUs from which parsing ahead pays off with an embedder on the CPU
_AHEAD_CPUS = 4


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


def text_key(text: str) -> str:
    """Return the embedding-cache key of a text: 32 hex digits of its sha256."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass(slots=True)
class _Ready:
    """A parsed, chunked source waiting to be embedded and written."""

    source: str
    chunks: list[Chunk]
    record: SourceRecord
    existed: bool


@dataclass(slots=True)
class _Unchanged:
    source: str
    refresh: SourceRecord | None = None


@dataclass(slots=True)
class _Failed:
    source: str
    error: str


@dataclass(slots=True)
class _Crashed:
    error: BaseException


_Prepared = _Ready | _Unchanged | _Failed
_Event = _Prepared | _Crashed


def _reason(e: BaseException) -> str:
    return " ".join((str(e) or type(e).__name__).split())


class _Bars:
    """Progress bars on stderr: documents, embedded chunks, stored chunks (no-ops when disabled)."""

    def __init__(self, enabled: bool, documents: int) -> None:
        self._bars: dict[str, Any] = {}
        if not enabled:
            return
        try:
            from tqdm.auto import tqdm
        except ImportError:  # pragma: no cover - tqdm comes with sentence-transformers
            return
        self._bars = {
            "documents": tqdm(total=documents, desc="documents", unit="doc", position=0, leave=False),
            "embedding": tqdm(desc="embedding", unit="chunk", position=1, leave=False),
            "chunks": tqdm(desc="chunks stored", unit="chunk", position=2, leave=False),
        }

    def update(self, bar: str, n: int = 1) -> None:
        if bar in self._bars and n:
            self._bars[bar].update(n)

    def close(self) -> None:
        for bar in self._bars.values():
            bar.close()


class _Run:
    """State of one ingest (see the module docstring)."""

    def __init__(
        self,
        stages: Stages,
        store: IncrementalStore,
        report: IngestReport,
        *,
        verify: bool,
        bars: _Bars,
        parse_ahead: bool,
    ) -> None:
        self.stages = stages
        self.parse_ahead = parse_ahead
        self.store = store
        self.report = report
        self.verify = verify
        self.bars = bars
        self.config = pipeline_config(stages.parser, stages.chunker, stages.enricher, stages.embedder)
        self.config_json = canonical_json(self.config)
        self.fingerprint = fingerprint(self.config)
        self.embedder_key = embedder_key(stages.embedder)
        self.records: dict[str, SourceRecord] = {r.source: r for r in store.read_records()}
        self.held: dict[str, set[tuple[str, int]]] = {}
        for info in stages.store.documents():
            self.held.setdefault(info.source, set()).add((info.doc_id, info.chunks))
        self.owners: dict[str, str] = {}  # doc id -> the source that holds it
        for source, docs in self.held.items():
            for doc_id, _ in docs:
                self.owners.setdefault(doc_id, source)
        self.old_configs: set[str] = set()
        self._stop = threading.Event()

    # -- deciding what changed (background thread) ---------------------------
    def _verified(self, rec: SourceRecord) -> bool:
        """Whether the collection holds exactly the chunks the record names."""
        held = self.held.get(rec.source, set())
        return held == {(rec.doc_id, rec.chunks)} if rec.chunks else not held

    def _same_config(self, rec: SourceRecord) -> bool:
        return rec.config in ("", self.fingerprint)  # "" = a store that keeps no configuration

    def _skip(self, rec: SourceRecord | None, content: str) -> bool:
        return (
            rec is not None
            and rec.content_hash != ""
            and rec.content_hash == content
            and self._same_config(rec)
            and self._verified(rec)
        )

    def _parse(self, path: Path, data: bytes) -> Document:
        parser = self.stages.parser
        if isinstance(parser, AutoParser):  # it picks by the bytes already read: no second read
            return parser.parse(data, name=str(path))
        return parser.parse(path)

    def prepare(self, item: Path | Document, times: dict[str, float]) -> _Prepared:
        """Decide about one source; parse and chunk it if it must be (re-)indexed."""
        t = time.perf_counter()

        def tick(stage: str) -> None:
            nonlocal t
            now = time.perf_counter()
            times[stage] = times.get(stage, 0.0) + now - t
            t = now

        if isinstance(item, Document):
            name = item.source
            rec = self.records.get(name)
            state = FileState(-1, -1, time.time_ns(), document_hash(item))
            tick("scan")
            if self._skip(rec, state.content_hash):
                return _Unchanged(name)
            doc = item
        else:
            name = str(item)
            rec = self.records.get(name)
            try:
                st = check_regular(item)
                trusted = not self.verify and stat_unchanged(st, rec)
                if trusted and rec is not None and self._skip(rec, rec.content_hash):
                    tick("scan")
                    return _Unchanged(name)
                state = read_file(item, st)
            except OSError as e:
                tick("scan")
                return _Failed(name, f"{name}: {_reason(e)}")
            tick("scan")
            if rec is not None and self._skip(rec, state.content_hash):
                if stat_unchanged(st, rec):
                    return _Unchanged(name)
                # same bytes, new mtime (or a racy record): remember the new stat for the fast path
                fresh = dataclasses.replace(
                    rec, size=state.size, mtime_ns=state.mtime_ns, checked_ns=state.checked_ns
                )
                return _Unchanged(name, fresh)
            try:
                assert state.data is not None
                doc = self._parse(item, state.data)
            except (SectionRagError, OSError) as e:
                tick("parse")
                return _Failed(name, _reason(e))
            tick("parse")
            state = dataclasses.replace(state, data=None)
        if (
            rec is not None
            and rec.content_hash == ""  # a store without records: compare document ids
            and rec.doc_id in (doc.id, content_hash(doc.id, name))  # (the second: a duplicate's id)
            and self._same_config(rec)
            and self._verified(rec)
        ):
            return _Unchanged(name)
        owner = self.owners.get(doc.id)
        if owner is not None and owner != name:  # same content as another source: keep ids apart
            doc = dataclasses.replace(doc, id=content_hash(doc.id, name))
        self.owners[doc.id] = name
        try:
            chunks = self.stages.chunker.chunk(doc)
            tick("chunk")
            if self.stages.enricher is not None and chunks:
                chunks = self.stages.enricher.enrich(chunks, doc)
                tick("enrich")
        except SectionRagError as e:
            tick("chunk")
            return _Failed(name, _reason(e))
        stray = next((c for c in chunks if c.source != name), None)
        if stray is not None:
            chunks = [dataclasses.replace(c, source=name) for c in chunks]
        if rec is not None and not self._same_config(rec):
            self.old_configs.add(rec.config_json)
        record = SourceRecord(
            source=name,
            doc_id=doc.id,
            content_hash=state.content_hash,
            size=state.size,
            mtime_ns=state.mtime_ns,
            checked_ns=state.checked_ns,
            config=self.fingerprint,
            config_json=self.config_json,
            chunks=len(chunks),
        )
        return _Ready(name, chunks, record, existed=rec is not None or name in self.held)

    def produce(self, items: Sequence[Path | Document], out: queue.Queue[_Event | None]) -> None:
        """Background thread: prepare every item, in order, into ``out`` (``None`` ends)."""
        times: dict[str, float] = {}
        try:
            for item in items:
                if self._stop.is_set():
                    return
                event = self.prepare(item, times)
                self.bars.update("documents")
                while not self._stop.is_set():
                    try:
                        out.put(event, timeout=0.1)
                        break
                    except queue.Full:
                        continue
        except BaseException as e:  # handed to the caller's thread, re-raised there
            out.put(_Crashed(e))
        finally:
            for stage, seconds in times.items():
                self.report._add_time(stage, seconds)
            out.put(None)

    # -- embedding and writing (caller's thread) ------------------------------
    def _embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed ``texts`` in batches of similar length (less padding); rows in the given order."""
        import numpy as np

        emb = self.stages.embedder
        out = np.zeros((len(texts), emb.dimension), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        size = self.stages.batch_size
        for i in range(0, len(order), size):
            idx = order[i : i + size]
            out[idx] = np.asarray(emb.embed_documents([texts[j] for j in idx]), dtype=np.float32)
            self.bars.update("embedding", len(idx))
        return out

    def flush(self, batch: list[_Ready]) -> None:
        """Embed (through the cache) and write a group of finished sources."""
        import numpy as np

        if not batch:
            return
        emb = self.stages.embedder
        chunks = [c for r in batch for c in r.chunks]
        keys = [text_key(c.embed_text) for c in chunks]
        t = time.perf_counter()
        found = self.store.cached_vectors(self.embedder_key, emb.dimension, keys)
        t = self.report._tick("cache", t)
        missing: dict[str, str] = {}
        for key, chunk in zip(keys, chunks, strict=True):
            if key not in found and key not in missing:
                missing[key] = chunk.embed_text
        if missing:
            fresh = self._embed(list(missing.values()))
            t = self.report._tick("embed", t)
            self.store.cache_vectors(self.embedder_key, emb.dimension, list(missing), fresh)
            found.update(zip(missing, fresh, strict=True))
            t = self.report._tick("cache", t)
        self.report.embedded += len(missing)
        self.report.cached += sum(1 for k in keys if k not in missing)
        vectors = (
            np.stack([np.asarray(found[k], dtype=np.float32) for k in keys])
            if keys
            else np.zeros((0, emb.dimension), dtype=np.float32)
        )
        self.store.replace_sources([r.source for r in batch], chunks, vectors)
        t = self.report._tick("store", t)
        self.store.write_records([r.record for r in batch])
        self.report._tick("records", t)
        for r in batch:
            (self.report.updated if r.existed else self.report.added).append(r.source)
            if r.existed and r.source in self.records and not self._same_config(self.records[r.source]):
                self.report.reconfigured.append(r.source)
        self.report.chunks += len(chunks)
        self.bars.update("chunks", len(chunks))

    def _inline(self, items: Sequence[Path | Document]) -> Iterator[_Prepared]:
        """Prepare every item in this thread (no parse-ahead)."""
        times: dict[str, float] = {}
        try:
            for item in items:
                yield self.prepare(item, times)
                self.bars.update("documents")
        finally:
            for stage, seconds in times.items():
                self.report._add_time(stage, seconds)

    def _ahead(self, items: Sequence[Path | Document]) -> Iterator[_Prepared]:
        """Prepare items in a background thread, parsing ahead of the caller."""
        events: queue.Queue[_Event | None] = queue.Queue(maxsize=_QUEUE_DOCS)
        worker = threading.Thread(
            target=self.produce, args=(items, events), name="sectionrag-ingest", daemon=True
        )
        worker.start()
        try:
            while (event := events.get()) is not None:
                if isinstance(event, _Crashed):
                    raise event.error
                yield event
        finally:
            self._stop.set()
            while worker.is_alive():  # unblock a producer waiting on a full queue
                try:
                    events.get(timeout=0.1)
                except queue.Empty:
                    continue
            worker.join()

    def consume(self, items: Sequence[Path | Document]) -> list[SourceRecord]:
        """Prepare the items and write what they give, in groups; return records to refresh."""
        pending: list[_Ready] = []
        pending_chunks = 0
        refresh: list[SourceRecord] = []
        flush_at = max(_FLUSH_MIN, self.stages.batch_size)
        events = self._ahead(items) if self.parse_ahead else self._inline(items)
        try:
            for event in events:
                if isinstance(event, _Failed):
                    self.report.failed.append(FailedSource(event.source, event.error))
                elif isinstance(event, _Unchanged):
                    self.report.unchanged.append(event.source)
                    if event.refresh is not None:
                        refresh.append(event.refresh)
                else:
                    pending.append(event)
                    pending_chunks += len(event.chunks)
                    if pending_chunks >= flush_at:
                        self.flush(pending)
                        pending, pending_chunks = [], 0
            self.flush(pending)
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()
        return refresh


def _sources(items: Sequence[Path | Document]) -> tuple[list[Path | Document], list[FailedSource]]:
    """Drop a second item with the same source (it would overwrite the first); report it."""
    names: set[str] = set()
    kept: list[Path | Document] = []
    dropped: list[FailedSource] = []
    for item in items:
        name = item.source if isinstance(item, Document) else str(item)
        if name in names:
            dropped.append(FailedSource(name, f"{name}: the same source was given twice in one ingest"))
            continue
        names.add(name)
        kept.append(item)
    return kept, dropped


def run_ingest(
    stages: Stages,
    items: Sequence[Path | Document],
    *,
    sync: bool = False,
    progress: bool = False,
    lock_timeout: float = 0.0,
    verify: bool = False,
    parse_ahead: bool | None = None,
) -> IngestReport:
    """Ingest ``items`` (files and Documents) with ``stages``, in this process.

    The arguments mean what they mean for :meth:`~sectionrag.pipeline.Pipeline.ingest`,
    which expands directories into ``items`` and calls this.
    """
    started = time.perf_counter()
    report = IngestReport()
    store = incremental(stages.store)
    items, duplicates = _sources(items)
    report.failed.extend(duplicates)
    with store.write_lock(lock_timeout):
        stages.store.ensure_collection(stages.embedder.name, stages.embedder.dimension)
        bars = _Bars(progress, len(items))
        try:
            t = time.perf_counter()
            ahead = parse_ahead_default(stages.embedder) if parse_ahead is None else parse_ahead
            run = _Run(stages, store, report, verify=verify, bars=bars, parse_ahead=ahead)
            report._tick("records", t)
            refresh = run.consume(items)
        finally:
            bars.close()
        names = {it.source if isinstance(it, Document) else str(it) for it in items}
        t = time.perf_counter()
        gone: list[str] = []
        if sync:
            gone = sorted((set(run.records) | set(run.held)) - names - {f.source for f in duplicates})
            if gone:
                store.replace_sources(gone, [], _empty(stages.embedder.dimension))
        if gone or refresh:
            store.write_records(refresh, delete=gone)
        report.deleted.extend(gone)
        report._tick("sync", t)
    for old in sorted(run.old_configs):
        for line in config_changes(old, run.config):
            if line not in report.config_changes:
                report.config_changes.append(line)
    if report.reconfigured:
        logger.info(
            "re-indexed %d source(s) for a new configuration: %s",
            len(report.reconfigured),
            "; ".join(report.config_changes),
        )
    report.seconds["total"] = time.perf_counter() - started
    return report


def _empty(dimension: int) -> npt.NDArray[np.float32]:
    import numpy as np

    return np.zeros((0, dimension), dtype=np.float32)
