"""The Pipeline: parser -> chunker -> (enricher) -> embedder -> store, and search.

Every stage is an instance of a protocol from :mod:`sectionrag.protocols`;
the pipeline only wires them in this fixed order::

    pipe = Pipeline(parser=None, chunker=sectionrag.chunker("section"),
                    embedder=get_embedder("minilm"), store=LanceDBStore("./db"))
    report = pipe.ingest(["reports/"])
    hits = pipe.search("What was total revenue in 2025?", k=5)
"""

from __future__ import annotations

import fnmatch
import logging
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag.errors import ConfigError, SectionRagError
from sectionrag.protocols import Chunker, Embedder, Enricher, Parser, SearchMode, VectorStore, Where
from sectionrag.types import Chunk, Document, SearchResult

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["FailedSource", "IngestReport", "Pipeline", "discover_files"]

logger = logging.getLogger(__name__)

#: file types ingested from a directory when the parsers do not say otherwise
_DEFAULT_EXTENSIONS = (".txt", ".md", ".markdown", ".pdf", ".html", ".htm")


@dataclass(frozen=True, slots=True)
class FailedSource:
    """A source that could not be ingested, with the reason."""

    source: str
    error: str


@dataclass(slots=True)
class IngestReport:
    """What one :meth:`Pipeline.ingest` call did.

    Attributes:
        added: Sources indexed for the first time.
        updated: Sources whose content changed and were re-indexed.
        unchanged: Sources already indexed with the same content (skipped).
        deleted: Sources removed because they disappeared (``sync=True``).
        failed: Sources that could not be ingested, with their reasons.
        chunks: Chunks written by this call.
        seconds: Time spent per stage (``parse``, ``chunk``, ``enrich``, ``embed``, ``store``).
    """

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    failed: list[FailedSource] = field(default_factory=list)
    chunks: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when nothing failed."""
        return not self.failed

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON shape of ``sectionrag index --json`` (DESIGN.md)."""
        return {
            "added": len(self.added),
            "updated": len(self.updated),
            "unchanged": len(self.unchanged),
            "deleted": len(self.deleted),
            "failed": [{"source": f.source, "error": f.error} for f in self.failed],
            "chunks": self.chunks,
        }

    def _tick(self, stage: str, since: float) -> float:
        now = time.perf_counter()
        self.seconds[stage] = self.seconds.get(stage, 0.0) + (now - since)
        return now


def discover_files(
    paths: Iterable[str | Path],
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
) -> list[Path]:
    """Expand files and directories into a sorted list of files to ingest.

    Directories are walked recursively for supported file types. ``include``
    and ``exclude`` are glob patterns matched against the path relative to
    the directory given (and against the file name). Explicit files are kept
    whatever their extension, so the parser can say why it refuses one.

    Raises:
        ConfigError: a path does not exist.
    """
    try:
        from sectionrag.parsers import SUPPORTED_EXTENSIONS as exts
    except ImportError:  # pragma: no cover - parsers always present in a release
        exts = _DEFAULT_EXTENSIONS
    found: dict[Path, None] = {}
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for file in sorted(path.rglob("*")):
                if not file.is_file() or file.suffix.lower() not in exts:
                    continue
                rel = file.relative_to(path).as_posix()
                if include and not _matches(rel, file.name, include):
                    continue
                if exclude and _matches(rel, file.name, exclude):
                    continue
                found[file] = None
        elif path.exists():
            found[path] = None
        else:
            raise ConfigError(f"no such file or directory: {path}")
    return list(found)


def _matches(rel: str, name: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(name, p) for p in patterns)


class Pipeline:
    """Wires a parser, a chunker, an optional enricher, an embedder and a store.

    Args:
        parser: Turns paths into Documents; ``None`` picks a parser by file type.
        chunker: The chunking strategy.
        embedder: Embeds chunks and queries.
        store: Where chunks and vectors live.
        enricher: Optional per-chunk enrichment run before embedding.
        batch_size: Chunks embedded per call, across documents.
    """

    def __init__(
        self,
        *,
        parser: Parser | None = None,
        chunker: Chunker,
        embedder: Embedder,
        store: VectorStore,
        enricher: Enricher | None = None,
        batch_size: int = 64,
    ) -> None:
        for arg, proto, label in (
            (chunker, Chunker, "chunker"),
            (embedder, Embedder, "embedder"),
            (store, VectorStore, "store"),
        ):
            if not isinstance(arg, proto):
                raise TypeError(
                    f"{label} must implement sectionrag.{proto.__name__}, got {type(arg).__name__}"
                )
        if parser is not None and not isinstance(parser, Parser):
            raise TypeError(f"parser must implement sectionrag.Parser, got {type(parser).__name__}")
        if enricher is not None and not isinstance(enricher, Enricher):
            raise TypeError(f"enricher must implement sectionrag.Enricher, got {type(enricher).__name__}")
        if batch_size < 1:
            raise ConfigError(f"batch_size must be >= 1, got {batch_size}")
        self.parser = parser
        self.chunker = chunker
        self.embedder = embedder
        self.store = store
        self.enricher = enricher
        self.batch_size = batch_size

    @classmethod
    def default(
        cls,
        db: str | Path,
        *,
        collection: str = "default",
        embedder: str | Embedder = "bge-m3",
        strategy: str = "section",
        **chunker_params: Any,
    ) -> Pipeline:
        """Build the recommended pipeline: section-aware semantic chunks, BGE-M3, LanceDB.

        Args:
            db: Directory of the LanceDB database (created if missing).
            collection: Collection (table) name.
            embedder: A preset (``bge-m3``, ``minilm``), model id, path or Embedder.
            strategy: Chunking strategy name.
            **chunker_params: Passed to the chunker (``size``, ``threshold`` ...).
        """
        import sectionrag
        from sectionrag.embedders import get_embedder
        from sectionrag.stores import LanceDBStore

        emb = get_embedder(embedder)
        chunker_params.setdefault("tokenizer", emb)
        return cls(
            chunker=sectionrag.chunker(strategy, **chunker_params),
            embedder=emb,
            store=LanceDBStore(db, collection=collection),
        )

    # -- ingestion -----------------------------------------------------------------

    def ingest(
        self,
        sources: Iterable[str | Path | Document],
        *,
        sync: bool = False,
        include: Sequence[str] = (),
        exclude: Sequence[str] = (),
        progress: bool = False,
    ) -> IngestReport:
        """Parse, chunk, enrich, embed and store ``sources``.

        Files and directories are expanded with :func:`discover_files`.
        A document whose source is already indexed with the same content is
        skipped; one whose content changed replaces its old chunks. A source
        that fails to parse is reported in ``IngestReport.failed`` and the
        rest is still indexed.

        Args:
            sources: Paths (files or directories) and/or Documents.
            sync: Delete indexed documents whose source is not among ``sources``.
            include: Glob patterns a file in a directory must match.
            exclude: Glob patterns that skip files in a directory.
            progress: Show progress bars on stderr.
        """
        report = IngestReport()
        items: list[Path | Document] = []
        paths: list[str | Path] = []
        for s in sources:
            if isinstance(s, Document):
                items.append(s)
            else:
                paths.append(s)
        items.extend(discover_files(paths, include=include, exclude=exclude))

        self.store.ensure_collection(self.embedder.name, self.embedder.dimension)
        indexed = {info.source: info for info in self.store.documents()}
        seen: set[str] = set()
        pending: list[tuple[Document, list[Chunk], str | None]] = []

        t = time.perf_counter()
        for item in _progress(items, "documents", progress):
            name = item.source if isinstance(item, Document) else str(item)
            try:
                doc = item if isinstance(item, Document) else self._parse(item)
            except (SectionRagError, OSError) as e:
                report.failed.append(FailedSource(name, _reason(e)))
                seen.add(name)
                continue
            t = report._tick("parse", t)
            seen.add(doc.source)
            old = indexed.get(doc.source)
            if old is not None and old.doc_id == doc.id:
                report.unchanged.append(doc.source)
                continue
            try:
                chunks = self.chunker.chunk(doc)
                t = report._tick("chunk", t)
                if self.enricher is not None and chunks:
                    chunks = self.enricher.enrich(chunks, doc)
                    t = report._tick("enrich", t)
            except SectionRagError as e:
                report.failed.append(FailedSource(doc.source, _reason(e)))
                continue
            pending.append((doc, chunks, old.doc_id if old is not None else None))

        all_chunks = [c for _, chunks, _ in pending for c in chunks]
        vectors = self._embed(all_chunks, report, progress)

        t = time.perf_counter()
        offset = 0
        for doc, chunks, old_id in pending:
            vecs = vectors[offset : offset + len(chunks)]
            offset += len(chunks)
            if old_id is not None:
                self.store.delete(old_id)
                report.updated.append(doc.source)
            else:
                report.added.append(doc.source)
            if chunks:
                self.store.add(chunks, vecs)
            report.chunks += len(chunks)
        if sync:
            for source, info in indexed.items():
                if source not in seen:
                    self.store.delete(info.doc_id)
                    report.deleted.append(source)
        report._tick("store", t)
        return report

    def _parse(self, path: Path) -> Document:
        if self.parser is not None:
            return self.parser.parse(path)
        import sectionrag

        return sectionrag.parse(path)

    def _embed(
        self, chunks: Sequence[Chunk], report: IngestReport, progress: bool
    ) -> npt.NDArray[np.float32]:
        import numpy as np

        t = time.perf_counter()
        parts = []
        batches = range(0, len(chunks), self.batch_size)
        for i in _progress(batches, "embedding batches", progress):
            texts = [c.embed_text for c in chunks[i : i + self.batch_size]]
            parts.append(np.asarray(self.embedder.embed_documents(texts), dtype=np.float32))
        report._tick("embed", t)
        if not parts:
            return np.zeros((0, self.embedder.dimension), dtype=np.float32)
        return np.concatenate(parts, axis=0)

    # -- search ----------------------------------------------------------------------

    def search(
        self,
        query: str,
        k: int = 5,
        where: Where | None = None,
        mode: SearchMode = "vector",
    ) -> list[SearchResult]:
        """Return the ``k`` best chunks for ``query`` (best first).

        Args:
            query: The question or keywords.
            k: How many results.
            where: A structured filter (``{"source": "report.pdf"}``) or raw expression.
            mode: ``vector`` (cosine), ``text`` (full-text) or ``hybrid`` (both, fused).
        """
        if not isinstance(query, str):
            raise TypeError(f"query must be str, not {type(query).__name__}")
        if mode not in ("vector", "text", "hybrid"):
            raise ConfigError(f"unknown search mode {mode!r}; choose one of: hybrid, text, vector")
        vector = self.embedder.embed_query(query) if mode != "text" else None
        return self.store.search(query_vector=vector, query_text=query, k=k, where=where, mode=mode)


def _reason(e: BaseException) -> str:
    return " ".join((str(e) or type(e).__name__).split())


def _progress(items: Sequence[Any] | range, desc: str, enabled: bool) -> Iterator[Any]:
    if not enabled or len(items) < 2:
        yield from items
        return
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm comes with sentence-transformers
        yield from items
        return
    yield from tqdm(items, desc=desc, unit="", leave=False)
