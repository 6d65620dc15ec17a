"""Deciding about one source and preparing it: read, hash, skip or parse, chunk and enrich (private).

:class:`Preparer` holds what that decision needs and nothing else: the
parser, chunker and enricher, the configuration's fingerprint and the
document ids the collection held before the run. It has no store and no
embedder, so it pickles small and runs anywhere: in the ingest's own thread,
in a background thread, or in a worker process of a distributed executor.
Each source comes as a :class:`Job`, which carries its record; the
answer is one event: :class:`Ready` (chunks to embed and write),
:class:`Unchanged` or :class:`Failed`.

Whatever goes wrong while reading, parsing, chunking or enriching one source
(any exception, a plug-in's bug included) fails that source alone.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag.errors import SectionRagError
from sectionrag.ingest.sources import (
    FileState,
    check_regular,
    display_source,
    document_hash,
    read_file,
    stat_unchanged,
)
from sectionrag.parsers import AutoParser
from sectionrag.protocols import Chunker, Enricher, Parser, SourceRecord
from sectionrag.types import Chunk, Document, content_hash

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Failed", "Job", "Prepared", "Preparer", "Ready", "Unchanged", "expected_id", "text_key"]

logger = logging.getLogger("sectionrag.ingest")


@dataclass(frozen=True, slots=True)
class Job:
    """One source to decide about, with what the collection records of it.

    Attributes:
        name: The recorded source name.
        item: The file, or the Document given in memory.
        record: The source's record, if any.
        verified: Whether the collection holds exactly the chunks ``record`` names.
        legacy: An older name this source is recorded under (a relative path), if any.
        previous: The record of ``name``, else of ``legacy``: the configuration it had.
        existed: Whether the collection holds or records this source (under either name).
    """

    name: str
    item: Path | Document
    record: SourceRecord | None = None
    verified: bool = False
    legacy: str | None = None
    previous: SourceRecord | None = None
    existed: bool = False


@dataclass(slots=True)
class Ready:
    """A parsed, chunked source waiting to be embedded and written.

    ``vectors`` are filled when an executor embedded the chunks already (row
    ``i`` for ``chunks[i]``); ``fresh`` then says which rows the embedder
    computed (the others came from the cache), so that the writer caches them.
    """

    source: str
    chunks: list[Chunk]
    record: SourceRecord
    existed: bool
    replaces: tuple[str, ...] = ()  # sources recorded under an older name (a relative path) of this one
    natural_id: str = ""  # the document's own id, before it was made unique (identical files)
    old_config: str | None = None  # the configuration (JSON) it was indexed with, if another
    vectors: npt.NDArray[np.float32] | None = None
    fresh: list[bool] | None = None
    times: dict[str, float] = field(default_factory=dict)


@dataclass(slots=True)
class Unchanged:
    """A source whose content and configuration are those recorded: nothing to do."""

    source: str
    refresh: SourceRecord | None = None
    empty: bool = False  # indexed with no chunk
    times: dict[str, float] = field(default_factory=dict)


@dataclass(slots=True)
class Failed:
    """A source that could not be read, parsed, chunked or enriched, with the reason."""

    source: str
    error: str
    times: dict[str, float] = field(default_factory=dict)


Prepared = Ready | Unchanged | Failed


def text_key(text: str) -> str:
    """Return the embedding-cache key of a text: 32 hex digits of its sha256."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _reason(e: BaseException) -> str:
    return " ".join((str(e) or type(e).__name__).split())


def _bug(e: BaseException, stage: str) -> str:
    """One line for an exception that is not one of the package's own: its type, the stage, the message."""
    text = " ".join(str(e).split())
    line = f"{type(e).__name__} while {stage}" + (f": {text}" if text else "")
    return line if len(line) <= 500 else line[:499] + "…"


def check_chunks(chunks: Any, stage: str) -> None:
    """Raise TypeError unless a chunker's or enricher's answer is a list of Chunks."""
    if not isinstance(chunks, list):
        raise TypeError(f"the {stage} returned {type(chunks).__name__}, not a list of Chunk")
    bad = next((c for c in chunks if not isinstance(c, Chunk)), None)
    if bad is not None:
        raise TypeError(f"the {stage} returned a {type(bad).__name__} among its chunks, not a Chunk")


def expected_id(natural: str, name: str, legacy: str | None, owners: dict[str, str]) -> str:
    """Return the id a document of id ``natural`` gets as source ``name``: its own, or a unique one.

    A document with the same content as another source (not this one's older
    name) gets ``content_hash(natural, name)``, so both keep their chunks.
    """
    owner = owners.get(natural)
    return natural if owner is None or owner in (name, legacy) else content_hash(natural, name)


class Preparer:
    """Decides about sources and prepares those to index (see the module docstring).

    Args:
        parser: Turns a file into a Document.
        chunker: Splits a Document into chunks.
        enricher: Adds metadata to chunks, or ``None``.
        fingerprint: The fingerprint of this run's configuration.
        config_json: That configuration as JSON (what a record stores).
        verify: Hash every file, even one whose size and modification time match its record.
        owners: Document id -> the source holding it. Each prepared document
            claims its id here; an executor preparing in this process shares the
            map with the writer, a remote one works on a copy.
    """

    def __init__(
        self,
        *,
        parser: Parser,
        chunker: Chunker,
        enricher: Enricher | None,
        fingerprint: str,
        config_json: str,
        verify: bool,
        owners: dict[str, str],
    ) -> None:
        self.parser = parser
        self.chunker = chunker
        self.enricher = enricher
        self.fingerprint = fingerprint
        self.config_json = config_json
        self.verify = verify
        self.owners = owners

    def same_config(self, rec: SourceRecord) -> bool:
        """Whether ``rec`` was indexed with this run's configuration ("" = a store that keeps none)."""
        return rec.config in ("", self.fingerprint)

    def _skip(self, job: Job, content: str) -> bool:
        rec = job.record
        return (
            rec is not None
            and rec.content_hash != ""
            and rec.content_hash == content
            and self.same_config(rec)
            and job.verified
        )

    def _parse(self, path: Path, name: str, data: bytes) -> Document:
        parser = self.parser
        if isinstance(parser, AutoParser):  # it picks by the bytes already read: no second read
            return parser.parse(data, name=name)
        return parser.parse(path)

    def settled(self, job: Job) -> Unchanged | None:
        """Return the source's :class:`Unchanged` event if its size and mtime alone prove it, else ``None``.

        Only a stat: nothing is read. A distributed executor decides these in
        the driver and sends only the others to its workers.
        """
        rec, item = job.record, job.item
        if rec is None or self.verify or isinstance(item, Document):
            return None
        try:
            st = check_regular(item)
        except OSError:
            return None
        if stat_unchanged(st, rec) and self._skip(job, rec.content_hash):
            return Unchanged(job.name, empty=rec.chunks == 0)
        return None

    def prepare(self, job: Job) -> Prepared:
        """Decide about one source; parse and chunk it if it must be (re-)indexed.

        Any exception raised on the way fails this source alone (the traceback
        is logged at debug level). The event's ``times`` holds the seconds spent
        per stage (``scan``, ``parse``, ``chunk``, ``enrich``).
        """
        stage = ["reading"]
        times: dict[str, float] = {}
        try:
            event = self._prepare(job, times, stage)
        except Exception as e:
            logger.debug("%s failed while %s", display_source(job.name), stage[0], exc_info=True)
            reason = _reason(e) if isinstance(e, SectionRagError) else _bug(e, stage[0])
            event = Failed(job.name, reason)
        event.times = times
        return event

    def _prepare(self, job: Job, times: dict[str, float], stage: list[str]) -> Prepared:
        t = time.perf_counter()

        def tick(done: str, doing: str = "") -> None:
            nonlocal t
            now = time.perf_counter()
            times[done] = times.get(done, 0.0) + now - t
            t = now
            stage[0] = doing or stage[0]

        name, item, rec, legacy = job.name, job.item, job.record, job.legacy
        if isinstance(item, Document):
            state = FileState(-1, -1, time.time_ns(), document_hash(item))
            tick("scan", "chunking")
            if self._skip(job, state.content_hash):
                return Unchanged(name, empty=rec is not None and rec.chunks == 0)
            doc = item
        else:
            try:
                st = check_regular(item)
                trusted = not self.verify and stat_unchanged(st, rec)
                if trusted and rec is not None and self._skip(job, rec.content_hash):
                    tick("scan")
                    return Unchanged(name, empty=rec.chunks == 0)
                state = read_file(item, st)
            except OSError as e:
                tick("scan")
                return Failed(name, f"{display_source(name)}: {_reason(e)}")
            tick("scan", "parsing")
            if rec is not None and self._skip(job, state.content_hash):
                if stat_unchanged(st, rec):
                    return Unchanged(name, empty=rec.chunks == 0)
                # same bytes, new mtime (or a racy record): remember the new stat for the fast path
                fresh = dataclasses.replace(
                    rec, size=state.size, mtime_ns=state.mtime_ns, checked_ns=state.checked_ns
                )
                return Unchanged(name, fresh, empty=rec.chunks == 0)
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
            and self.same_config(rec)
            and job.verified
        ):
            return Unchanged(name, empty=rec.chunks == 0)
        natural = doc.id
        unique = expected_id(natural, name, legacy, self.owners)
        if unique != natural:  # same content as another source: keep the ids apart
            doc = dataclasses.replace(doc, id=unique)
        self.owners[doc.id] = name
        chunks = self.chunker.chunk(doc)
        check_chunks(chunks, "chunker")
        tick("chunk", "enriching")
        if self.enricher is not None and chunks:
            chunks = self.enricher.enrich(chunks, doc)
            check_chunks(chunks, "enricher")
            tick("enrich")
        stray = next((c for c in chunks if c.source != name), None)
        if stray is not None:
            chunks = [dataclasses.replace(c, source=name) for c in chunks]
        old = job.previous
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
        return Ready(
            name,
            chunks,
            record,
            existed=job.existed,
            replaces=() if legacy is None else (legacy,),
            natural_id=natural,
            old_config=old.config_json if old is not None and not self.same_config(old) else None,
        )
