"""One ingest run: decide what changed, have an executor prepare the sources, embed and write (private).

The run is the same whichever :class:`~sectionrag.ingest.executors.Executor`
does the per-source work (parsing and chunking here, in a background thread,
or on a Ray cluster): this module decides what changed, guards the run,
holds the collection's lock and is the only writer. Order of writes for each
group of finished documents (``flush``), so that a process killed at any
moment loses at most the group in flight:

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

import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag._describe import canonical_json
from sectionrag.errors import ConfigError
from sectionrag.ingest.adapter import incremental
from sectionrag.ingest.executors import Executor, LocalExecutor, Work, parse_ahead_default
from sectionrag.ingest.fingerprint import (
    config_changes,
    embedder_key,
    fingerprint,
    pipeline_config,
)
from sectionrag.ingest.prepare import Failed, Job, Preparer, Ready, Unchanged, expected_id, text_key
from sectionrag.ingest.report import FailedSource, IngestReport, SourceWarning
from sectionrag.ingest.sources import (
    ESCAPED_PREFIX,
    Scan,
    display_source,
    escape_source,
    source_name,
    source_os_name,
    within,
)
from sectionrag.ingest.stages import Stages
from sectionrag.protocols import IncrementalStore, SourceRecord
from sectionrag.types import Document

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["NO_CHUNK", "parse_ahead_default", "run_ingest", "text_key"]

logger = logging.getLogger("sectionrag.ingest")

#: finished chunks gathered before they are embedded and written together (one commit)
_FLUSH_MIN = 512


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
        self, stages: Stages, store: IncrementalStore, report: IngestReport, *, verify: bool, bars: _Bars
    ) -> None:
        self.stages = stages
        self.verify = verify
        self.store = store
        self.report = report
        self.bars = bars
        self.config = pipeline_config(stages.parser, stages.chunker, stages.enricher, stages.embedder)
        self.config_json = canonical_json(self.config)
        self.fingerprint = fingerprint(self.config)
        self.embedder_key = embedder_key(stages.embedder)
        self.records: dict[str, SourceRecord] = {r.source: r for r in store.read_records()}
        self.held: dict[str, set[tuple[str, int]]] = {}
        for info in stages.store.documents():
            self.held.setdefault(info.source, set()).add((info.doc_id, info.chunks))
        self.owners: dict[str, str] = {}  # doc id -> the source that holds it (claimed anew in the run)
        for source, docs in self.held.items():
            for doc_id, _ in docs:
                self.owners.setdefault(doc_id, source)
        self.old_configs: set[str] = set()
        self.aliases: dict[str, str] = {}  # source -> the older (relative) name it was recorded under

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

    # -- what an executor is given --------------------------------------------
    def _verified(self, rec: SourceRecord) -> bool:
        """Whether the collection holds exactly the chunks the record names."""
        held = self.held.get(rec.source, set())
        return held == {(rec.doc_id, rec.chunks)} if rec.chunks else not held

    def _same_config(self, rec: SourceRecord) -> bool:
        return rec.config in ("", self.fingerprint)  # "" = a store that keeps no configuration

    def job(self, name: str, item: Path | Document) -> Job:
        """Describe one source with what the collection records of it."""
        rec = self.records.get(name)
        legacy = self.aliases.get(name)
        return Job(
            name=name,
            item=item,
            record=rec,
            verified=rec is not None and self._verified(rec),
            legacy=legacy,
            previous=rec if rec is not None else (self.records.get(legacy) if legacy is not None else None),
            existed=rec is not None or name in self.held or legacy is not None,
        )

    def preparer(self) -> Preparer:
        """Return this run's preparer; it shares ``owners`` with the run (a remote copy does not)."""
        return Preparer(
            parser=self.stages.parser,
            chunker=self.stages.chunker,
            enricher=self.stages.enricher,
            fingerprint=self.fingerprint,
            config_json=self.config_json,
            verify=self.verify,
            owners=self.owners,
        )

    # -- embedding and writing ---------------------------------------------------
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

    def flush(self, batch: list[Ready]) -> None:
        """Embed (through the cache) what the executor did not, and write a group of finished sources."""
        import numpy as np

        if not batch:
            return
        emb = self.stages.embedder
        chunks = [c for r in batch for c in r.chunks]
        keys = [text_key(c.embed_text) for c in chunks]
        given: dict[str, Any] = {}  # vectors the executor brought, by key
        computed: dict[str, Any] = {}  # those of them it embedded (the cache lacks them)
        for r in batch:
            if r.vectors is None:
                continue
            fresh = r.fresh or [False] * len(r.chunks)
            for chunk, vec, new in zip(r.chunks, r.vectors, fresh, strict=True):
                key = text_key(chunk.embed_text)
                given.setdefault(key, vec)
                if new:
                    computed.setdefault(key, vec)
        t = time.perf_counter()
        wanted = [k for k in keys if k not in given]
        found = self.store.cached_vectors(self.embedder_key, emb.dimension, wanted) if wanted else {}
        t = self.report._tick("cache", t)
        missing: dict[str, str] = {}
        for key, chunk in zip(keys, chunks, strict=True):
            if key not in given and key not in found and key not in missing:
                missing[key] = chunk.embed_text
        if missing:
            fresh_vectors = self._embed(list(missing.values()))
            t = self.report._tick("embed", t)
            computed.update(zip(missing, fresh_vectors, strict=True))
        if computed:
            self.store.cache_vectors(
                self.embedder_key,
                emb.dimension,
                list(computed),
                np.stack([np.asarray(v, dtype=np.float32) for v in computed.values()]),
            )
            t = self.report._tick("cache", t)
        found.update(given)
        found.update(computed)
        self.report.embedded += len(computed)
        self.report.cached += sum(1 for k in set(keys) if k not in computed)
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

    def _claim(self, event: Ready, job: Job) -> Ready:
        """Check the document id ``event`` got against the ids claimed before it in this run.

        A document with the same content as a source before it in the run gets
        a unique id. An executor preparing elsewhere did not see those claims:
        such a source is prepared again here, as a local run would have.
        """
        if event.natural_id and event.record.doc_id != expected_id(
            event.natural_id, job.name, job.legacy, self.owners
        ):
            again = self.preparer().prepare(job)
            if not isinstance(again, Ready):  # pragma: no cover - it was ready a moment ago
                raise RuntimeError(f"{display_source(job.name)} changed while it was being indexed")
            event = again
        self.owners[event.record.doc_id] = job.name
        return event

    def consume(self, executor: Executor, jobs: Sequence[Job]) -> list[SourceRecord]:
        """Have ``executor`` prepare the jobs, write what they give in groups; return records to refresh."""
        pending: list[Ready] = []
        pending_chunks = 0
        refresh: list[SourceRecord] = []
        flush_at = max(_FLUSH_MIN, self.stages.batch_size)
        work = Work(
            preparer=self.preparer(),
            jobs=jobs,
            embedder=self.stages.embedder,
            batch_size=self.stages.batch_size,
            store=self.store,
            embedder_key=self.embedder_key,
            progress=self.bars.update,
        )
        events = executor.run(work)
        try:
            for job, event in zip(jobs, events, strict=True):
                if event.source != job.name:
                    raise RuntimeError(
                        f"{type(executor).__name__} returned {event.source!r} where {job.name!r} was due"
                    )
                for stage, seconds in event.times.items():
                    self.report._add_time(stage, seconds)
                if isinstance(event, Failed):
                    self.report.failed.append(FailedSource(event.source, event.error))
                elif isinstance(event, Unchanged):
                    self.report.unchanged.append(event.source)
                    if event.empty:
                        self.report.warnings.append(SourceWarning(event.source, NO_CHUNK))
                    if event.refresh is not None:
                        refresh.append(event.refresh)
                else:
                    event = self._claim(event, job)
                    if event.old_config is not None:
                        self.old_configs.add(event.old_config)
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
    executor: Executor | None = None,
) -> IngestReport:
    """Ingest ``items`` (files and Documents) with ``stages``.

    The arguments mean what they mean for :meth:`~sectionrag.pipeline.Pipeline.ingest`,
    which expands directories into ``items`` and calls this; ``scan`` is what
    that expansion skipped or could not read (reported, and kept by a sync).
    ``executor`` runs the per-source work (default: a
    :class:`~sectionrag.ingest.executors.LocalExecutor` with ``parse_ahead``).
    """
    started = time.perf_counter()
    if executor is None:
        executor = LocalExecutor(parse_ahead)
    elif parse_ahead is not None:
        raise ConfigError("parse_ahead applies to the local executor only")
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
        bars = _Bars(progress, len(named))
        try:
            run = _Run(stages, store, report, verify=verify, bars=bars)
            run.find_aliases(names)
            if not rechunk:
                run.check_rechunk(names, sync=sync)
            unread = [] if scan is None else scan.unread
            gone = run.check_sync(names, unread, allow_empty=allow_empty) if sync else []
            jobs = [run.job(name, item) for name, item in named]
            report._tick("records", t)
            refresh = run.consume(executor, jobs)
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
