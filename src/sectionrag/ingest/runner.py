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

Whatever goes wrong while reading, parsing, chunking or enriching one source
(any exception, a plug-in's bug included) fails that source alone: it is
reported in ``IngestReport.failed`` and the run goes on. Before anything is
written, a run refuses to re-chunk sources indexed with other settings unless
``rechunk=True``, and a sync that would delete every document of the
collection unless ``allow_empty=True``.
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
from sectionrag.errors import ConfigError, SectionRagError
from sectionrag.ingest.adapter import incremental
from sectionrag.ingest.fingerprint import (
    config_changes,
    embedder_key,
    fingerprint,
    pipeline_config,
)
from sectionrag.ingest.report import FailedSource, IngestReport, SourceWarning
from sectionrag.ingest.sources import (
    ESCAPED_PREFIX,
    FileState,
    Scan,
    check_regular,
    display_source,
    document_hash,
    escape_source,
    read_file,
    source_name,
    source_os_name,
    stat_unchanged,
    within,
)
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
    replaces: tuple[str, ...] = ()  # sources recorded under an older name (a relative path) of this one


@dataclass(slots=True)
class _Unchanged:
    source: str
    refresh: SourceRecord | None = None
    empty: bool = False  # indexed with no chunk


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


def _bug(e: BaseException, stage: str) -> str:
    """One line for an exception that is not one of the package's own: its type, the stage, the message."""
    text = " ".join(str(e).split())
    line = f"{type(e).__name__} while {stage}" + (f": {text}" if text else "")
    return line if len(line) <= 500 else line[:499] + "…"


#: what a source with no chunk is reported with
NO_CHUNK = "indexed with no chunk: nothing of it is searchable (no text the chunker keeps)"


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
        self.aliases: dict[str, str] = {}  # source -> the older (relative) name it was recorded under
        self._stop = threading.Event()

    # -- before anything is written ------------------------------------------
    def find_aliases(self, names: set[str]) -> None:
        """Find sources recorded under a relative path (older versions) that this run names absolutely.

        Such a source is re-indexed under its absolute name and its old name is
        deleted in the same commit; its vectors come from the cache.
        """
        for old in sorted(set(self.records) | set(self.held)):
            if old in names or old.startswith(ESCAPED_PREFIX) or os.path.isabs(old):
                continue
            new = source_name(os.path.realpath(old))
            if new in names and new not in self.records and new not in self.held:
                self.aliases.setdefault(new, old)

    def existing(self) -> set[str]:
        """Every source the collection holds or records."""
        return set(self.records) | set(self.held)

    def check_rechunk(self, names: set[str], *, sync: bool) -> None:
        """Refuse to re-index sources recorded with another configuration (see ``rechunk``).

        The sources that count are those the collection keeps after this run:
        with ``sync``, the ones named; without, all of them.

        Raises:
            ConfigError: some kept source was indexed with other settings.
        """
        legacy = set(self.aliases.values())
        differ = [
            rec
            for rec in self.records.values()
            if not self._same_config(rec) and (not sync or rec.source in names or rec.source in legacy)
        ]
        if not differ:
            return
        changes: list[str] = []
        for old in sorted({rec.config_json for rec in differ}):
            changes.extend(line for line in config_changes(old, self.config) if line not in changes)
        collection = getattr(self.stages.store, "collection", None)
        where = f"collection {collection!r}" if isinstance(collection, str) else "the collection"
        raise ConfigError(
            f"{len(differ)} source(s) of {where} were indexed with other settings than this run's "
            f"({'; '.join(changes)}); indexing with these would re-chunk and re-embed them. Pass "
            "rechunk=True (command line: --rechunk) to do so, or index with the collection's settings "
            "(Pipeline.open builds them again; on the command line, the options not given keep them)"
        )

    def check_sync(self, names: set[str], unread: list[str], *, allow_empty: bool) -> list[str]:
        """Return the sources a sync deletes: those neither named, nor renamed, nor under an unread folder.

        Raises:
            ConfigError: the sync would delete every document of the collection and
                ``allow_empty`` is false.
        """
        existing = self.existing()
        keep = names | set(self.aliases.values())
        roots = [source_os_name(u) for u in unread]
        gone = sorted(
            s for s in existing - keep if not any(within(source_os_name(s), root) for root in roots)
        )
        if gone and len(gone) == len(existing) and not allow_empty:
            collection = getattr(self.stages.store, "collection", None)
            where = f"collection {collection!r}" if isinstance(collection, str) else "the collection"
            raise ConfigError(
                f"sync would delete all {len(existing)} document(s) of {where}: none of them is among "
                f"the {len(names)} source(s) given. Nothing was deleted; check the paths, or pass "
                "allow_empty=True (command line: --allow-empty) to delete them"
            )
        return gone

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

    def _parse(self, path: Path, name: str, data: bytes) -> Document:
        parser = self.stages.parser
        if isinstance(parser, AutoParser):  # it picks by the bytes already read: no second read
            return parser.parse(data, name=name)
        return parser.parse(path)

    def prepare(self, name: str, item: Path | Document, times: dict[str, float]) -> _Prepared:
        """Decide about one source; parse and chunk it if it must be (re-)indexed.

        Any exception raised on the way fails this source alone (the traceback
        is logged at debug level).
        """
        stage = ["reading"]
        try:
            return self._prepare(name, item, times, stage)
        except Exception as e:
            logger.debug("%s failed while %s", display_source(name), stage[0], exc_info=True)
            reason = _reason(e) if isinstance(e, SectionRagError) else _bug(e, stage[0])
            return _Failed(name, reason)

    def _prepare(
        self, name: str, item: Path | Document, times: dict[str, float], stage: list[str]
    ) -> _Prepared:
        t = time.perf_counter()

        def tick(done: str, doing: str = "") -> None:
            nonlocal t
            now = time.perf_counter()
            times[done] = times.get(done, 0.0) + now - t
            t = now
            stage[0] = doing or stage[0]

        rec = self.records.get(name)
        legacy = self.aliases.get(name)
        if isinstance(item, Document):
            state = FileState(-1, -1, time.time_ns(), document_hash(item))
            tick("scan", "chunking")
            if self._skip(rec, state.content_hash):
                return _Unchanged(name, empty=rec is not None and rec.chunks == 0)
            doc = item
        else:
            try:
                st = check_regular(item)
                trusted = not self.verify and stat_unchanged(st, rec)
                if trusted and rec is not None and self._skip(rec, rec.content_hash):
                    tick("scan")
                    return _Unchanged(name, empty=rec.chunks == 0)
                state = read_file(item, st)
            except OSError as e:
                tick("scan")
                return _Failed(name, f"{display_source(name)}: {_reason(e)}")
            tick("scan", "parsing")
            if rec is not None and self._skip(rec, state.content_hash):
                if stat_unchanged(st, rec):
                    return _Unchanged(name, empty=rec.chunks == 0)
                # same bytes, new mtime (or a racy record): remember the new stat for the fast path
                fresh = dataclasses.replace(
                    rec, size=state.size, mtime_ns=state.mtime_ns, checked_ns=state.checked_ns
                )
                return _Unchanged(name, fresh, empty=rec.chunks == 0)
            assert state.data is not None
            doc = self._parse(item, name, state.data)
            tick("parse", "chunking")
            state = dataclasses.replace(state, data=None)
            if not isinstance(doc, Document):
                raise TypeError(f"the parser returned {type(doc).__name__}, not a Document")
        if (
            rec is not None
            and rec.content_hash == ""  # a store without records: compare document ids
            and rec.doc_id in (doc.id, content_hash(doc.id, name))  # (the second: a duplicate's id)
            and self._same_config(rec)
            and self._verified(rec)
        ):
            return _Unchanged(name, empty=rec.chunks == 0)
        owner = self.owners.get(doc.id)
        # same content as another source (not this one's older name): keep the ids apart
        if owner is not None and owner not in (name, legacy):
            doc = dataclasses.replace(doc, id=content_hash(doc.id, name))
        self.owners[doc.id] = name
        chunks = self.stages.chunker.chunk(doc)
        _check_chunks(chunks, "chunker")
        tick("chunk", "enriching")
        if self.stages.enricher is not None and chunks:
            chunks = self.stages.enricher.enrich(chunks, doc)
            _check_chunks(chunks, "enricher")
            tick("enrich")
        stray = next((c for c in chunks if c.source != name), None)
        if stray is not None:
            chunks = [dataclasses.replace(c, source=name) for c in chunks]
        old = rec if rec is not None else (self.records.get(legacy) if legacy is not None else None)
        if old is not None and not self._same_config(old):
            self.old_configs.add(old.config_json)
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
        existed = rec is not None or name in self.held or legacy is not None
        return _Ready(name, chunks, record, existed=existed, replaces=() if legacy is None else (legacy,))

    def produce(self, items: Sequence[tuple[str, Path | Document]], out: queue.Queue[_Event | None]) -> None:
        """Background thread: prepare every item, in order, into ``out`` (``None`` ends)."""
        times: dict[str, float] = {}
        try:
            for name, item in items:
                if self._stop.is_set():
                    return
                event = self.prepare(name, item, times)
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
        renamed = [old for r in batch for old in r.replaces]
        self.store.replace_sources([*(r.source for r in batch), *renamed], chunks, vectors)
        t = self.report._tick("store", t)
        self.store.write_records([r.record for r in batch], delete=renamed)
        self.report._tick("records", t)
        for r in batch:
            (self.report.updated if r.existed else self.report.added).append(r.source)
            if not r.chunks:
                self.report.warnings.append(SourceWarning(r.source, NO_CHUNK))
            old = self.records.get(r.replaces[0] if r.replaces else r.source)
            if r.existed and old is not None and not self._same_config(old):
                self.report.reconfigured.append(r.source)
        self.report.chunks += len(chunks)
        self.bars.update("chunks", len(chunks))

    def _inline(self, items: Sequence[tuple[str, Path | Document]]) -> Iterator[_Prepared]:
        """Prepare every item in this thread (no parse-ahead)."""
        times: dict[str, float] = {}
        try:
            for name, item in items:
                yield self.prepare(name, item, times)
                self.bars.update("documents")
        finally:
            for stage, seconds in times.items():
                self.report._add_time(stage, seconds)

    def _ahead(self, items: Sequence[tuple[str, Path | Document]]) -> Iterator[_Prepared]:
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

    def consume(self, items: Sequence[tuple[str, Path | Document]]) -> list[SourceRecord]:
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
                    if event.empty:
                        self.report.warnings.append(SourceWarning(event.source, NO_CHUNK))
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


def _check_chunks(chunks: Any, stage: str) -> None:
    """Raise TypeError unless a chunker's or enricher's answer is a list of Chunks."""
    if not isinstance(chunks, list):
        raise TypeError(f"the {stage} returned {type(chunks).__name__}, not a list of Chunk")
    bad = next((c for c in chunks if not isinstance(c, Chunk)), None)
    if bad is not None:
        raise TypeError(f"the {stage} returned a {type(bad).__name__} among its chunks, not a Chunk")


def _sources(
    items: Sequence[Path | Document],
) -> tuple[list[tuple[str, Path | Document]], list[FailedSource]]:
    """Name each item as recorded; drop a second item of the same name (it would overwrite the first)."""
    names: set[str] = set()
    kept: list[tuple[str, Path | Document]] = []
    dropped: list[FailedSource] = []
    for item in items:
        if isinstance(item, Document):
            name = escape_source(item.source)
        elif isinstance(item, (str, os.PathLike)):
            item = Path(item)
            name = source_name(item)
        else:
            raise TypeError(f"items must be paths or Documents, not {type(item).__name__}")
        if name in names:
            dropped.append(
                FailedSource(name, f"{display_source(name)}: the same source was given twice in one ingest")
            )
            continue
        names.add(name)
        kept.append((name, item))
    return kept, dropped


def run_ingest(
    stages: Stages,
    items: Sequence[Path | Document],
    *,
    sync: bool = False,
    allow_empty: bool = False,
    rechunk: bool = False,
    progress: bool = False,
    lock_timeout: float = 0.0,
    verify: bool = False,
    parse_ahead: bool | None = None,
    scan: Scan | None = None,
) -> IngestReport:
    """Ingest ``items`` (files and Documents) with ``stages``, in this process.

    The arguments mean what they mean for :meth:`~sectionrag.pipeline.Pipeline.ingest`,
    which expands directories into ``items`` and calls this; ``scan`` is what
    that expansion skipped or could not read (reported, and kept by a sync).
    """
    started = time.perf_counter()
    report = IngestReport()
    if scan is not None:
        report.failed.extend(scan.failed)
        report.warnings.extend(scan.skipped)
    store = incremental(stages.store)
    named, duplicates = _sources(items)
    report.failed.extend(duplicates)
    names = {name for name, _ in named}
    with store.write_lock(lock_timeout):
        stages.store.ensure_collection(stages.embedder.name, stages.embedder.dimension)
        t = time.perf_counter()
        ahead = parse_ahead_default(stages.embedder) if parse_ahead is None else parse_ahead
        bars = _Bars(progress, len(named))
        try:
            run = _Run(stages, store, report, verify=verify, bars=bars, parse_ahead=ahead)
            run.find_aliases(names)
            if not rechunk:
                run.check_rechunk(names, sync=sync)
            unread = [] if scan is None else scan.unread
            gone = run.check_sync(names, unread, allow_empty=allow_empty) if sync else []
            report._tick("records", t)
            refresh = run.consume(named)
        finally:
            bars.close()
        t = time.perf_counter()
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
