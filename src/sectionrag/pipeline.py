"""The Pipeline: parser -> chunker -> (enricher) -> embedder -> store, and search.

Every stage is an instance of a protocol from :mod:`sectionrag.protocols`;
the pipeline only wires them in this fixed order::

    pipe = Pipeline(parser=None, chunker=sectionrag.chunker("section"),
                    embedder=get_embedder("minilm"), store=LanceDBStore("./db"))
    report = pipe.ingest(["reports/"])
    hits = pipe.search("What was total revenue in 2025?", k=5)
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sectionrag.errors import ConfigError
from sectionrag.ingest.report import FailedSource, IngestReport
from sectionrag.ingest.sources import discover_files
from sectionrag.protocols import Chunker, Embedder, Enricher, Parser, SearchMode, VectorStore, Where
from sectionrag.types import Document, SearchResult

__all__ = ["DEFAULT_SEARCH_MODE", "FailedSource", "IngestReport", "Pipeline", "discover_files"]

logger = logging.getLogger(__name__)

#: what :meth:`Pipeline.search`, ``sectionrag search`` and ``sectionrag eval`` do with no
#: ``mode``: vector and full-text rankings fused (docs/search.md has the measurements)
DEFAULT_SEARCH_MODE: SearchMode = "hybrid"


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
        lock_timeout: float = 0.0,
        verify: bool = False,
        parse_ahead: bool | None = None,
    ) -> IngestReport:
        """Parse, chunk, enrich, embed and store ``sources``, incrementally.

        Files and directories are expanded with :func:`discover_files`. Each
        source's content hash and the pipeline configuration are recorded in
        the store: an unchanged source is skipped without parsing or embedding
        (size and modification time are checked first, then a hash of the
        bytes); a changed one, or one indexed with other chunker, embedder,
        parser or enricher settings, replaces its old chunks atomically.
        Vectors are cached by (embedder, text hash), so re-chunking re-embeds
        only new texts. A source that cannot be read or parsed is reported in
        ``IngestReport.failed`` (keeping its old chunks, if any) and the rest
        is still indexed. One ingest writes to a collection at a time.

        Args:
            sources: Paths (files or directories) and/or Documents.
            sync: Also delete indexed sources not among ``sources`` (the
                collection then mirrors exactly what was given).
            include: Glob patterns a file in a directory must match.
            exclude: Glob patterns that skip files in a directory.
            progress: Show progress bars on stderr (documents, embedding, storing).
            lock_timeout: Seconds to wait for another ingest into the same collection.
            verify: Hash every file, even one whose size and modification time match its record.
            parse_ahead: Parse and chunk the next documents in a background thread while
                embedding. ``None`` (default) turns it on when the embedder runs on an
                accelerator or at least 4 CPUs exist (on 2 CPUs it slowed CPU embedding).

        Raises:
            ConfigError: a path does not exist.
            IngestError: another ingest holds the collection's lock after ``lock_timeout`` s.
            EmbedderMismatchError: the collection was built with another embedder.
            StoreError: the store failed; what was written before stays consistent.
        """
        from sectionrag.ingest.runner import run_ingest

        if lock_timeout < 0:
            raise ConfigError(f"lock_timeout must be >= 0 seconds, got {lock_timeout}")
        items: list[Path | Document] = []
        paths: list[str | Path] = []
        for s in sources:
            if isinstance(s, Document):
                items.append(s)
            elif isinstance(s, (str, Path)):
                paths.append(s)
            else:
                raise TypeError(f"sources must be paths or Documents, not {type(s).__name__}")
        items.extend(discover_files(paths, include=include, exclude=exclude))
        return run_ingest(
            self,
            items,
            sync=sync,
            progress=progress,
            lock_timeout=lock_timeout,
            verify=verify,
            parse_ahead=parse_ahead,
        )

    # -- search ----------------------------------------------------------------------

    def search(
        self,
        query: str,
        k: int = 5,
        where: Where | None = None,
        mode: SearchMode = DEFAULT_SEARCH_MODE,
    ) -> list[SearchResult]:
        """Return the ``k`` best chunks for ``query`` (best first).

        Args:
            query: The question or keywords.
            k: How many results.
            where: A structured filter (``{"source": "report.pdf"}``) or raw expression.
            mode: ``hybrid`` (default: the vector and full-text rankings fused with
                the store's fusion), ``vector`` (cosine) or ``text`` (full-text).
        """
        if not isinstance(query, str):
            raise TypeError(f"query must be str, not {type(query).__name__}")
        if mode not in ("vector", "text", "hybrid"):
            raise ConfigError(f"unknown search mode {mode!r}; choose one of: hybrid, text, vector")
        vector = self.embedder.embed_query(query) if mode != "text" else None
        return self.store.search(query_vector=vector, query_text=query, k=k, where=where, mode=mode)
