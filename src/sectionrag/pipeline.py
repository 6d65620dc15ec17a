"""The Pipeline: parser -> chunker -> (enricher) -> embedder -> store, and search.

Every stage is an instance of a protocol from :mod:`sectionrag.protocols`;
the pipeline only wires them in this fixed order::

    pipe = Pipeline(chunker=sectionrag.chunker("section"), embedder=get_embedder("minilm"),
                    store=LanceDBStore("./db"))
    report = pipe.ingest(["reports/"])
    hits = pipe.search("What was total revenue in 2025?", k=5)

Wiring gives the chunker the embedder's tokenizer when it was built without
one, so chunk sizes are counted in the tokens the model reads.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from sectionrag import registry
from sectionrag._checks import (
    check_bool,
    check_int,
    check_number,
    check_optional_bool,
    check_path,
    check_str,
    check_where,
)
from sectionrag._rerank import POOL, sentence_rerank
from sectionrag.defaults import (
    DEFAULT_BATCH_SIZE,
    DEFAULT_COLLECTION,
    DEFAULT_EMBEDDER,
    DEFAULT_K,
    DEFAULT_RERANK,
    DEFAULT_SEARCH_MODE,
    DEFAULT_STORE,
    DEFAULT_STRATEGY,
    MAX_CHARS_RESULTS,
)
from sectionrag.errors import ConfigError
from sectionrag.ingest.executors import EXECUTORS, Executor, LocalExecutor
from sectionrag.ingest.report import FailedSource, IngestReport, SourceWarning
from sectionrag.ingest.runner import run_ingest
from sectionrag.ingest.sources import discover_files, scan_paths
from sectionrag.ingest.stages import Stages
from sectionrag.parsers import AutoParser
from sectionrag.protocols import (
    Chunker,
    Embedder,
    Enricher,
    Parser,
    SearchMode,
    TokenizerDefault,
    VectorStore,
    Where,
)
from sectionrag.types import Document, SearchResult

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "OVERLAP_FETCH",
    "FailedSource",
    "IngestReport",
    "Pipeline",
    "SourceWarning",
    "check_query",
    "check_search_options",
    "discover_files",
    "search_store",
    "within_chars",
    "without_overlaps",
]

logger = logging.getLogger(__name__)

_MODES = ("vector", "text", "hybrid")
#: results asked of the store per result wanted, when overlapping results are dropped
OVERLAP_FETCH = 4
_S = TypeVar("_S")


def _with_embedder_tokenizer(stage: _S, role: type, embedder: Embedder) -> _S:
    """Give ``stage`` the embedder's tokenizer, unless it was built with one of its own."""
    if not isinstance(stage, TokenizerDefault):
        return stage
    bound: _S = stage.with_default_tokenizer(embedder)
    if not isinstance(bound, role):
        raise TypeError(
            f"{type(stage).__name__}.with_default_tokenizer() must return a {role.__name__}, "
            f"not {type(bound).__name__}"
        )
    return bound


class Pipeline:
    """Wires a parser, a chunker, an optional enricher, an embedder and a store.

    Args:
        parser: Turns paths into Documents (default: an
            :class:`~sectionrag.parsers.AutoParser`, which picks by file type).
        chunker: The chunking strategy (default: ``DEFAULT_STRATEGY``, ``section``).
            A chunker built without a tokenizer counts tokens with the embedder's:
            ``pipe.chunker`` is then a copy of it that does (the one given is not changed).
        embedder: Embeds chunks and queries.
        store: Where chunks and vectors live.
        enricher: Optional per-chunk enrichment run before embedding; like the
            chunker, it counts with the embedder's tokenizer unless given one.
        batch_size: Chunk texts per embedding call, across documents.

    Raises:
        TypeError: a stage does not implement its protocol.
        ConfigError: ``batch_size`` is not an integer of at least 1.
    """

    def __init__(
        self,
        *,
        parser: Parser | None = None,
        chunker: Chunker | None = None,
        embedder: Embedder,
        store: VectorStore,
        enricher: Enricher | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
    ) -> None:
        if not isinstance(embedder, Embedder):
            raise TypeError(f"embedder must implement sectionrag.Embedder, got {type(embedder).__name__}")
        check_int("batch_size", batch_size, minimum=1)
        if chunker is None:
            chunker = registry.create("chunker", DEFAULT_STRATEGY)
        elif not isinstance(chunker, Chunker):
            raise TypeError(f"chunker must implement sectionrag.Chunker, got {type(chunker).__name__}")
        self.parser: Parser = AutoParser() if parser is None else parser
        self.chunker: Chunker = _with_embedder_tokenizer(chunker, Chunker, embedder)
        self.embedder = embedder
        self.store = store
        self.enricher = None if enricher is None else _with_embedder_tokenizer(enricher, Enricher, embedder)
        self.batch_size = batch_size
        self.stages()  # checks every stage now rather than at the first ingest

    @classmethod
    def default(
        cls,
        db: str | Path,
        *,
        collection: str = DEFAULT_COLLECTION,
        embedder: str | Embedder = DEFAULT_EMBEDDER,
        strategy: str = DEFAULT_STRATEGY,
        **chunker_params: Any,
    ) -> Pipeline:
        """Build the recommended pipeline: section-aware chunks, BGE-M3, LanceDB (the defaults).

        Args:
            db: Directory of the LanceDB database (created if missing).
            collection: Collection (table) name.
            embedder: A registered name (``bge-m3``, ``minilm``), model id, path or Embedder.
            strategy: Chunking strategy name.
            **chunker_params: Passed to the chunker (``size``, ``threshold`` ...).
        """
        from sectionrag.embedders import get_embedder

        check_path("db", db)
        check_str("collection", collection)
        check_str("strategy", strategy)
        return cls(
            chunker=registry.create("chunker", strategy, **chunker_params),
            embedder=get_embedder(embedder),
            store=registry.create("store", DEFAULT_STORE, db, collection=collection),
        )

    @classmethod
    def open(
        cls,
        db: str | Path,
        collection: str = DEFAULT_COLLECTION,
        *,
        store: str = DEFAULT_STORE,
        embedder: str | Embedder | None = None,
        backend: str | None = None,
        chunker: Chunker | None = None,
        enricher: Enricher | Literal[False] | None = None,
        parser: Parser | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        check: bool = True,
        storage_options: Mapping[str, str] | None = None,
    ) -> Pipeline:
        """Reopen an existing collection with the stages it was built with.

        The collection records, with every indexed source, how its chunks and
        vectors were made; the embedder, chunker, enricher and parser of the
        latest run are built again from that record (through the registry), so
        searching needs no embedder name and indexing more files chunks them
        as before. Nothing heavy happens here: the model is loaded on the
        first embedding. A recorded stage that cannot be built here (an LLM
        enricher, whose client and key are never recorded) searches fine and
        raises :class:`ConfigError` only when a changed file must go through it.

        Args:
            db: Directory (or URI) of the database.
            collection: Collection name.
            store: Registered store name.
            embedder: Use this embedder (a name or an Embedder) instead of the recorded one;
                it must be the model the collection was built with.
            backend: Run the model on this backend (``torch``, ``onnx``, ``onnx-int8``,
                ``openvino``) instead of the recorded one (the recorded name carries it:
                ``model@openvino``). Its query vectors search the collection; the store
                refuses its vectors when indexing, as they are not the recorded ones.
            chunker: Use this chunker for new and changed files instead of the recorded one.
            enricher: Use this enricher instead of the recorded one; ``False``: none.
            parser: Use this parser instead of the recorded one.
            batch_size: Chunk texts per embedding call.
            check: Make sure now that the recorded model can be loaded here and gives
                vectors of the recorded length (reading its configuration, not its
                weights). Without it, a missing model is reported on the first embedding.
            storage_options: Options of a database on object storage (``s3://``, ``gs://``,
                ``az://``), passed to the store; never recorded.

        Raises:
            CollectionNotFoundError: the collection does not exist.
            ModelNotAvailableError: the recorded embedder cannot be built or loaded here;
                its ``model`` attribute names it.
            EmbedderMismatchError: ``embedder`` is not the model the collection was built with.
            ConfigError: an unknown ``backend``.
        """
        from sectionrag.embedders import get_embedder
        from sectionrag.errors import CollectionNotFoundError, EmbedderMismatchError
        from sectionrag.ingest.fingerprint import config_changes, pipeline_config
        from sectionrag.ingest.reopen import recorded_settings, restore_embedder, restore_stage, same_model

        remote = {"storage_options": dict(storage_options)} if storage_options else {}
        opened = registry.create("store", store, db, collection=collection, **remote)
        settings = recorded_settings(opened)
        if settings is None:
            listing = getattr(opened, "collections", None)
            existing = ", ".join(listing()) if callable(listing) else ""
            raise CollectionNotFoundError(
                f"collection {collection!r} does not exist in {db} "
                f"(existing collections: {existing or 'none'}); index documents into it first"
            )
        if embedder is None:
            emb = restore_embedder(settings, backend=backend, check=check)
        else:
            emb = get_embedder(embedder) if backend is None else get_embedder(embedder, backend=backend)
            if check and (not same_model(emb.name, settings.embedder) or emb.dimension != settings.dimension):
                raise EmbedderMismatchError(
                    f"collection {collection!r} was built with the embedder {settings.embedder!r} "
                    f"({settings.dimension} dims), not {emb.name!r}; open it without embedder= "
                    "to use the recorded one"
                )
        recorded = settings.config or {}
        recorded_emb = recorded.get("embedder")
        if chunker is None:
            chunker = restore_stage("chunker", recorded.get("chunker"), emb, recorded_emb)
        if enricher is None:
            enricher = restore_stage("enricher", recorded.get("enricher"), emb, recorded_emb)
        if parser is None:
            parser = restore_stage("parser", recorded.get("parser", "auto"), emb, recorded_emb)
        pipe = cls(
            parser=parser,
            chunker=chunker,  # None (nothing recorded): the default strategy
            embedder=emb,
            store=opened,
            enricher=enricher or None,
            batch_size=batch_size,
        )
        if settings.config is not None and logger.isEnabledFor(logging.INFO):
            now = pipeline_config(pipe.parser, pipe.chunker, pipe.enricher, pipe.embedder)
            changes = config_changes(json.dumps(settings.config), now)
            if changes:
                logger.info(
                    "reopened %r with other settings than recorded: %s", collection, "; ".join(changes)
                )
        return pipe

    def stages(self) -> Stages:
        """Return the stages as one value, what an ingest runner receives.

        Raises:
            TypeError: a stage does not implement its protocol.
            ConfigError: ``batch_size`` below 1.
        """
        return Stages(
            parser=self.parser,
            chunker=self.chunker,
            embedder=self.embedder,
            store=self.store,
            enricher=self.enricher,
            batch_size=self.batch_size,
        )

    # -- ingestion -----------------------------------------------------------------

    def ingest(
        self,
        sources: Iterable[str | os.PathLike[str] | Document] | str | os.PathLike[str] | Document,
        *,
        sync: bool = False,
        allow_empty: bool = False,
        rechunk: bool = False,
        include: Sequence[str] | str = (),
        exclude: Sequence[str] | str = (),
        follow_symlinks: bool = False,
        progress: bool = False,
        lock_timeout: float = 0.0,
        verify: bool = False,
        parse_ahead: bool | None = None,
        executor: str | Executor | None = None,
    ) -> IngestReport:
        """Parse, chunk, enrich, embed and store ``sources``, incrementally.

        Files and directories are expanded with :func:`discover_files`; each
        file is recorded by its absolute path with links resolved, so one file
        named two ways is one source. Each source's content hash and the
        pipeline configuration are recorded in the store: an unchanged source
        is skipped without parsing or embedding (size and modification time
        are checked first, then a hash of the bytes); a changed one replaces
        its old chunks atomically. Vectors are cached by (embedder, text hash),
        so re-chunking re-embeds only new texts. A source that cannot be read,
        parsed, chunked or enriched (whatever the exception) is reported in
        ``IngestReport.failed`` (keeping its old chunks, if any) and the rest
        is still indexed. One ingest writes to a collection at a time.

        Args:
            sources: Paths (files or directories) and/or Documents; one path or
                Document alone is taken as a list of one.
            sync: Also delete indexed sources not among ``sources`` (the
                collection then mirrors exactly what was given).
            allow_empty: Let ``sync`` delete every document of the collection
                (refused otherwise: an empty or mistyped folder would wipe it).
            rechunk: Re-index sources the collection holds with other chunker,
                parser, enricher or embedder settings. Without it such a run is
                refused before anything is written.
            include: Glob patterns a file in a directory must match.
            exclude: Glob patterns that skip files in a directory.
            follow_symlinks: Follow symbolic links that leave the directories given
                (by default they are skipped with a warning).
            progress: Show progress bars on stderr (documents, embedding, storing).
            lock_timeout: Seconds to wait for another ingest into the same collection
                (``float("inf")``: as long as it takes).
            verify: Hash every file, even one whose size and modification time match its record.
            parse_ahead: Parse and chunk the next documents in a background thread while
                embedding. ``None`` (default) turns it on when the embedder runs on an
                accelerator or at least 4 CPUs exist (on 2 CPUs it slowed CPU embedding).
                Local executor only.
            executor: Where the per-source work runs: ``"local"`` (default: this
                process), ``"ray"`` (parsing and chunking as Ray tasks, embedding in
                an actor pool; ``sectionrag[ray]``), or an executor object such as
                :class:`~sectionrag.ingest.ray_executor.RayExecutor` with options. The
                decisions, records, guards and writes are the same for every executor.

        Raises:
            TypeError: an argument of the wrong type (a str for a flag, a number for a path).
            ConfigError: a path does not exist, a bad ``lock_timeout``; sources indexed with
                other settings (without ``rechunk``); a sync deleting every document
                (without ``allow_empty``).
            IngestError: another ingest holds the collection's lock after ``lock_timeout`` s.
            MissingDependencyError: ``executor="ray"`` without Ray installed.
            EmbedderMismatchError: the collection was built with another embedder.
            StoreError: the store failed; what was written before stays consistent.
        """
        sync = check_bool("sync", sync)
        allow_empty = check_bool("allow_empty", allow_empty)
        rechunk = check_bool("rechunk", rechunk)
        progress = check_bool("progress", progress)
        # infinity waits as long as the platform's locks can (every store gets a finite number)
        lock_timeout = min(check_number("lock_timeout", lock_timeout, minimum=0), threading.TIMEOUT_MAX)
        verify = check_bool("verify", verify)
        parse_ahead = check_optional_bool("parse_ahead", parse_ahead)
        runner = get_executor(executor, parse_ahead=parse_ahead)
        if isinstance(sources, (bytes, bytearray)):
            raise TypeError("sources must be str paths (os.fsdecode() turns bytes into one), not bytes")
        if isinstance(sources, (str, os.PathLike, Document)):
            sources = [sources]
        elif not isinstance(sources, Iterable):
            raise TypeError(f"sources must be a list of paths or Documents, not {type(sources).__name__}")
        items: list[Path | Document] = []
        paths: list[str | os.PathLike[str]] = []
        for s in sources:
            if isinstance(s, Document):
                items.append(s)
            elif isinstance(s, (str, os.PathLike)):
                paths.append(s)
            else:
                raise TypeError(f"sources must be paths or Documents, not {type(s).__name__} ({s!r})")
        scan = scan_paths(paths, include=include, exclude=exclude, follow_symlinks=follow_symlinks)
        items.extend(scan.files)
        return run_ingest(
            self.stages(),
            items,
            sync=sync,
            allow_empty=allow_empty,
            rechunk=rechunk,
            progress=progress,
            lock_timeout=lock_timeout,
            verify=verify,
            scan=scan,
            executor=runner,
        )

    # -- search ----------------------------------------------------------------------

    def search(
        self,
        query: str,
        k: int | None = None,
        where: Where | None = None,
        mode: SearchMode = DEFAULT_SEARCH_MODE,
        *,
        fusion: str | None = None,
        weights: tuple[float, float] | None = None,
        query_vector: npt.NDArray[np.float32] | None = None,
        rerank: bool = DEFAULT_RERANK,
        allow_overlap: bool = False,
        max_chars: int | None = None,
    ) -> list[SearchResult]:
        """Return the ``k`` best chunks for ``query`` (best first); see :func:`search_store`.

        ``k`` defaults to 5; with ``max_chars``, the best results whose text fits in
        that many characters are returned instead (at most ``k``, by default 50).
        """
        return search_store(
            self.store,
            query,
            embedder=self.embedder,
            k=k,
            where=where,
            mode=mode,
            fusion=fusion,
            weights=weights,
            query_vector=query_vector,
            rerank=rerank,
            allow_overlap=allow_overlap,
            max_chars=max_chars,
        )


def get_executor(executor: str | Executor | None, *, parse_ahead: bool | None = None) -> Executor:
    """Return the executor ``executor`` names (``"local"``, ``"ray"``), or ``executor`` itself.

    ``None`` is the local executor; ``parse_ahead`` applies to it only.

    Raises:
        ConfigError: an unknown name, or ``parse_ahead`` given with another executor.
        TypeError: neither a name nor an :class:`~sectionrag.ingest.executors.Executor`.
        MissingDependencyError: ``"ray"`` without Ray installed (at the first run).
    """
    if executor is None or executor == "local":
        return LocalExecutor(parse_ahead)
    if parse_ahead is not None:
        raise ConfigError("parse_ahead applies to the local executor only")
    if executor == "ray":
        from sectionrag.ingest.ray_executor import RayExecutor

        return RayExecutor()
    if isinstance(executor, str):
        raise ConfigError(f"unknown executor {executor!r}; choose one of: {', '.join(EXECUTORS)}")
    if not isinstance(executor, Executor):
        raise TypeError(
            f"executor must be 'local', 'ray' or an object with a run(work) method, "
            f"not {type(executor).__name__}"
        )
    return executor


def check_query(query: Any, *, mode: str = DEFAULT_SEARCH_MODE, vector_given: bool = False) -> str:
    """Return ``query`` if it is a str with words in it, else raise.

    A blank query has nothing to match: it would return arbitrary chunks. It is
    accepted only with the query's vector given in ``vector`` mode, where the
    text is not used.

    Raises:
        TypeError: ``query`` is not a str.
        ConfigError: ``query`` is empty or only whitespace.
    """
    if not isinstance(query, str):
        raise TypeError(f"query must be str, not {type(query).__name__}")
    if not query.strip() and not (vector_given and mode == "vector"):
        raise ConfigError("the query is empty: give the question or keywords to search for")
    return query


def check_search_options(
    k: int, mode: str, fusion: str | None, weights: tuple[float, float] | None
) -> dict[str, Any]:
    """Check the options of a search; return the fusion options to pass to the store.

    Raises:
        ConfigError: ``k`` below 1, an unknown mode, weights that are not a pair, or
            fusion options outside ``hybrid``.
    """
    if weights is not None and (isinstance(weights, (str, bytes)) or not isinstance(weights, Sequence)):
        raise ConfigError(f"weights must be a (vector, text) pair of numbers, not {weights!r}")
    if mode not in _MODES:
        raise ConfigError(f"unknown search mode {mode!r}; choose one of: {', '.join(sorted(_MODES))}")
    check_int("k", k, minimum=1)
    options: dict[str, Any] = {}
    if fusion is not None:
        options["fusion"] = fusion
    if weights is not None:
        options["weights"] = tuple(weights)
    if options and mode != "hybrid":
        raise ConfigError("fusion and weights apply to hybrid only (mode 'hybrid')")
    return options


def search_store(
    store: VectorStore,
    query: str,
    *,
    embedder: Embedder | None = None,
    k: int | None = None,
    where: Where | None = None,
    mode: SearchMode = DEFAULT_SEARCH_MODE,
    fusion: str | None = None,
    weights: tuple[float, float] | None = None,
    query_vector: npt.NDArray[np.float32] | None = None,
    rerank: bool = DEFAULT_RERANK,
    allow_overlap: bool = False,
    max_chars: int | None = None,
) -> list[SearchResult]:
    """Search ``store`` for ``query``: embed the query (unless ``mode="text"``), then ask the store.

    This is the one search path: :meth:`Pipeline.search`, the command line
    and retrieval evaluation all call it.

    Args:
        store: The collection to search.
        query: The question or keywords.
        embedder: Embeds the query (its ``embed_query``); not needed for ``text``
            or with ``query_vector``.
        k: How many results (default :data:`~sectionrag.defaults.DEFAULT_K`); with
            ``max_chars``, the most results (default
            :data:`~sectionrag.defaults.MAX_CHARS_RESULTS`).
        where: A structured filter (``{"source": "report.pdf"}``) or raw expression.
        mode: ``vector`` (cosine), ``text`` (full-text) or ``hybrid`` (both, fused).
        fusion: Hybrid fusion, ``linear``, ``zscore`` or ``rrf`` (default: the store's).
        weights: Hybrid ``(vector, text)`` weights (default: the store's).
        query_vector: The query embedded beforehand (say, a batch of queries at once).
        rerank: In ``hybrid`` mode with an embedder, re-rank the best 10 results (those
            that overlap no better one, unless ``allow_overlap``) by
            their best window of two sentences (each result's score gains up to 0.3;
            spans unchanged; docs/search.md).
        allow_overlap: Keep a result whose span overlaps a better result of the same
            document. By default it is dropped and the next one taken (the store is
            asked for :data:`OVERLAP_FETCH` times ``k``), so fine chunks
            (:attr:`~sectionrag.types.Chunk.fine`) and overlapping windows never
            return the same passage twice.
        max_chars: A budget of characters, as for the context of a language
            model: the best results are returned while their text (the
            chunks' ``text``, headers not counted) adds up to at most this
            many characters, and the first one that would pass it ends the
            list. The best result is returned even when it alone is longer.
            A larger budget returns the results of a smaller one, then more.

    Raises:
        TypeError: ``query`` is not a str, ``where`` neither a mapping nor a str.
        ConfigError: an empty query, bad ``k``, ``max_chars`` or ``mode``, fusion
            options outside hybrid, or no embedder where one is needed.
    """
    check_query(query, mode=mode, vector_given=query_vector is not None)
    if max_chars is not None:
        check_int("max_chars", max_chars, minimum=1)
    if k is None:
        k = DEFAULT_K if max_chars is None else MAX_CHARS_RESULTS
    options = check_search_options(k, mode, fusion, weights)
    check_where("where", where)
    vector = None
    if mode != "text":
        if query_vector is not None:
            vector = query_vector
        elif embedder is None:
            raise ConfigError(
                f"mode {mode!r} needs the collection's embedder (or the query's vector); "
                "pass one, or use mode='text'"
            )
        else:
            vector = embedder.embed_query(query)
    for name, flag in (("rerank", rerank), ("allow_overlap", allow_overlap)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, not {type(flag).__name__}")
    rerank_by = embedder if rerank and mode == "hybrid" and vector is not None else None
    wanted = k if rerank_by is None else max(k, POOL)  # re-ranking looks at the best POOL
    fetch = wanted if allow_overlap else wanted * OVERLAP_FETCH
    hits = store.search(query_vector=vector, query_text=query, k=fetch, where=where, mode=mode, **options)
    hits = hits[:wanted] if allow_overlap else without_overlaps(hits, wanted)
    if rerank_by is not None and vector is not None:
        hits = sentence_rerank(hits, vector, rerank_by, k)
    return hits if max_chars is None else within_chars(hits, max_chars)


def within_chars(results: Sequence[SearchResult], max_chars: int) -> list[SearchResult]:
    """Return the leading ``results`` whose text adds up to at most ``max_chars`` characters.

    The first result that would pass the budget ends the list; the first
    result is kept even when it alone is longer. Ranks and scores are kept.
    """
    kept: list[SearchResult] = []
    used = 0
    for r in results:
        used += len(r.text)
        if kept and used > max_chars:
            break
        kept.append(r)
    return kept


def without_overlaps(results: Sequence[SearchResult], k: int) -> list[SearchResult]:
    """Return the first ``k`` of ``results`` (best first) that overlap no better result of their document.

    Ranks are numbered again from 1; scores are kept.
    """
    kept: list[SearchResult] = []
    for r in results:
        if any(o.doc_id == r.doc_id and o.start < r.end and r.start < o.end for o in kept):
            continue
        kept.append(r if r.rank == len(kept) + 1 else dataclasses.replace(r, rank=len(kept) + 1))
        if len(kept) == k:
            break
    return kept
