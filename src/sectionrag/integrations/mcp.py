"""An MCP server over one sectionrag collection: index, search, outline, read_section, list_documents.

Built on the official ``mcp`` Python SDK (``pip install "sectionrag[mcp]"``)
and started by ``sectionrag mcp --db DIR [--collection NAME]``, which speaks
MCP over stdio. The collection is opened once (:meth:`Pipeline.open`: its
recorded embedder, chunker and enricher) and its model is loaded once, in the
background as the server starts, then kept for every call.

Tools (input schemas come from the type hints below; each argument is
described for the assistant):

- ``index(paths, include)``: index files and folders incrementally (unchanged
  files are skipped without parsing);
- ``search(query, k, mode, sources, section)``: the best chunks, each with
  its text, source, section path, pages, character span and score (and its
  enrichment, when the collection has some);
- ``outline(source)``: a document's section tree with pages and spans;
- ``read_section(source, section, max_chars)``: a section's full text, found
  by its path (``"Part II > Item 7"``) or its title;
- ``list_documents()``: what the collection holds.

A failing call (a bad argument, a file that cannot be read) is answered with
an MCP tool error (``isError``) whose text says what went wrong; the server
keeps serving. :class:`SectionragTools` holds the tools as plain methods, so
they can be used (and tested) without MCP.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path, PurePath
from typing import Annotated, Any, Literal, ParamSpec, TypeVar

from sectionrag.defaults import (
    DEFAULT_COLLECTION,
    DEFAULT_EMBEDDER,
    DEFAULT_K,
    DEFAULT_SEARCH_MODE,
    DEFAULT_STORE,
    MAX_CHARS_RESULTS,
)
from sectionrag.errors import CollectionNotFoundError, ConfigError, MissingDependencyError, SectionRagError
from sectionrag.pipeline import Pipeline
from sectionrag.protocols import IncrementalStore
from sectionrag.types import Document, SearchResult

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import ToolAnnotations
    from pydantic import Field

    from sectionrag.integrations._mcp_results import (
        DocumentEntry,
        DocumentList,
        FailedFile,
        Hit,
        IndexResult,
        IndexWarning,
        Outline,
        SearchResponse,
        SectionNode,
        SectionText,
    )
    from sectionrag.integrations._mcp_sections import find_section, is_ancestor, section_node
except ImportError as e:  # pragma: no cover - exercised without the extra installed
    raise MissingDependencyError(
        'sectionrag.integrations.mcp needs the MCP Python SDK (mcp>=2): pip install "sectionrag[mcp]"'
    ) from e

__all__ = [
    "DocumentEntry",
    "DocumentList",
    "FailedFile",
    "Hit",
    "IndexResult",
    "IndexWarning",
    "Outline",
    "SearchResponse",
    "SectionNode",
    "SectionText",
    "SectionragTools",
    "create_server",
    "open_pipeline",
    "serve",
]

logger = logging.getLogger("sectionrag.mcp")

#: most results one search returns
MAX_K = MAX_CHARS_RESULTS
#: default and largest size of a section's text returned at once
DEFAULT_SECTION_CHARS = 20_000
MAX_SECTION_CHARS = 200_000
#: parsed documents kept for outline / read_section
_PARSED_CACHE = 8

INSTRUCTIONS = (
    "sectionrag indexes documents (PDF, Markdown, HTML, text) by their sections and searches them. "
    "Use `search` to find passages; cite each result by its source, section path and pages. "
    "Use `outline` to see how a document is organised and `read_section` to read a whole section "
    "when a search hit is not enough. `list_documents` shows what is indexed; `index` adds or "
    "refreshes files (unchanged files are skipped)."
)


# -- the tools ---------------------------------------------------------------------------

P = ParamSpec("P")
R = TypeVar("R")


def _tool_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn an error the caller can act on into a tool error with its message (others stay crashes)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except ToolError:
            raise
        except (SectionRagError, OSError, ValueError, TypeError) as e:
            raise ToolError(" ".join((str(e) or type(e).__name__).split())) from e

    return wrapper


class SectionragTools:
    """The MCP tools of one collection, as plain methods (no MCP needed to call them).

    Args:
        pipeline: The collection's pipeline, opened once (:func:`open_pipeline`).
        root: Directory relative paths given to ``index`` are taken from (default: the
            current directory).
    """

    def __init__(self, pipeline: Pipeline, *, root: str | Path | None = None) -> None:
        self.pipeline = pipeline
        self.root = Path(root or Path.cwd())
        self._parsed: OrderedDict[tuple[str, str], Document] = OrderedDict()
        self._lock = threading.Lock()

    # -- helpers ---------------------------------------------------------------
    def _collection(self) -> str:
        return str(getattr(self.pipeline.store, "collection", DEFAULT_COLLECTION))

    def _sources(self) -> list[str]:
        return sorted({d.source for d in self.pipeline.store.documents()})

    def _match(self, name: str) -> list[str]:
        """Return the sources ``name`` names: as recorded, by the end of the path, or a path from the root."""
        from sectionrag.ingest.sources import source_matches_name

        indexed = self._sources()
        exact = [s for s in indexed if s == name]
        if exact:
            return exact
        return [s for s in indexed if source_matches_name(s, name, cwd=str(self.root))]

    def _one_source(self, name: str) -> str:
        if not isinstance(name, str) or not name.strip():
            raise ConfigError("source must name an indexed document (see list_documents)")
        found = self._match(name.strip())
        if not found:
            shown = ", ".join(PurePath(s).name for s in self._sources()[:20]) or "none"
            raise ConfigError(f"no indexed document matches {name!r}; indexed: {shown}")
        if len(found) > 1:
            raise ConfigError(f"{name!r} matches several documents; give one of: {', '.join(found)}")
        return found[0]

    def _document(self, source: str) -> Document:
        """Parse the indexed file again (cached), after checking it still holds what was indexed."""
        from sectionrag.ingest.sources import check_regular, read_file, source_os_name

        path = Path(source_os_name(source))
        try:
            state = read_file(path, check_regular(path))
        except OSError as e:
            raise ConfigError(
                f"{source} cannot be read any more ({e.strerror or e}); outline and read_section "
                "parse the indexed file, so restore it or index its new location"
            ) from e
        store = self.pipeline.store
        if isinstance(store, IncrementalStore):
            record = next((r for r in store.read_records() if r.source == source), None)
            if record is not None and record.content_hash and record.content_hash != state.content_hash:
                raise ConfigError(f"{source} changed since it was indexed; call index on it first")
        key = (source, state.content_hash)
        with self._lock:
            cached = self._parsed.get(key)
            if cached is not None:
                self._parsed.move_to_end(key)
                return cached
        assert state.data is not None
        parser = self.pipeline.parser
        doc = parser.parse(state.data, name=source)
        with self._lock:
            self._parsed[key] = doc
            while len(self._parsed) > _PARSED_CACHE:
                self._parsed.popitem(last=False)
        return doc

    @staticmethod
    def _hit(r: SearchResult) -> Hit:
        return Hit(
            rank=r.rank,
            score=r.score,
            text=r.text,
            source=r.source,
            section_path=list(r.section_path),
            page_start=r.page_start,
            page_end=r.page_end,
            start=r.start,
            end=r.end,
            doc_id=r.doc_id,
            enrichment=r.enrichment or None,
        )

    # -- tools -------------------------------------------------------------------
    @_tool_errors
    def index(
        self,
        paths: Annotated[
            list[str],
            Field(
                min_length=1,
                description="files or folders to index (absolute, or relative to the server's directory); "
                "folders are searched recursively for PDF, Markdown, HTML and text files",
            ),
        ],
        include: Annotated[
            list[str] | None,
            Field(
                description="only files in the folders whose name matches one of these globs, e.g. ['*.pdf']"
            ),
        ] = None,
    ) -> IndexResult:
        """Index files and folders into the collection, incrementally.

        Files already indexed and unchanged are skipped without being read
        again; changed files replace their old chunks. Returns what was added,
        updated, skipped and what failed (with the reason). Indexing many new
        pages takes a while (the text of every chunk is embedded).
        """
        resolved = [p if Path(p).is_absolute() else str(self.root / p) for p in paths]
        report = self.pipeline.ingest(resolved, include=include or ())
        return IndexResult(
            added=report.added,
            updated=report.updated,
            unchanged=len(report.unchanged),
            failed=[FailedFile(source=f.source, error=f.error) for f in report.failed],
            warnings=[IndexWarning(source=w.source, message=w.message) for w in report.warnings],
            chunks=report.chunks,
            seconds=round(report.seconds.get("total", 0.0), 3),
        )

    @_tool_errors
    def search(
        self,
        query: Annotated[str, Field(min_length=1, description="a question or keywords, in plain words")],
        k: Annotated[
            int | None,
            Field(
                ge=1,
                le=MAX_K,
                description=f"how many results to return (default {DEFAULT_K}; with max_chars, at most "
                f"{MAX_K})",
            ),
        ] = None,
        mode: Annotated[
            Literal["vector", "text", "hybrid"] | None,
            Field(
                description="'vector' finds passages by meaning, 'text' by shared words (names, numbers, "
                "exact terms), 'hybrid' both; leave empty for the collection's default"
            ),
        ] = None,
        sources: Annotated[
            list[str] | None,
            Field(description="only these documents (their path or file name, as list_documents shows)"),
        ] = None,
        section: Annotated[
            str | None,
            Field(description="only chunks under a section with exactly this title, e.g. 'Risk Factors'"),
        ] = None,
        max_chars: Annotated[
            int | None,
            Field(
                ge=1,
                description="a budget of characters: the best results while their text adds up to at "
                "most this many (the best one always); use it to fill a context of a known size",
            ),
        ] = None,
    ) -> SearchResponse:
        """Search the indexed documents; returns the best chunks, best first.

        Each result has the chunk's text, its source, its section path (the
        section titles down to it), its pages and its character span, and a
        score. Cite results by source, section and pages. Use
        ``read_section`` for a whole section around a result.
        """
        where: dict[str, Any] = {}
        if sources:
            matched: list[str] = []
            for name in sources:
                matched.extend(self._match(name))
            if not matched:
                shown = ", ".join(PurePath(s).name for s in self._sources()[:20]) or "none"
                raise ConfigError(f"no indexed document matches {sources!r}; indexed: {shown}")
            where["source"] = sorted(set(matched))
        if section:
            where["section"] = section
        options: dict[str, Any] = {} if mode is None else {"mode": mode}
        if max_chars is not None:
            options["max_chars"] = max_chars
        results = self.pipeline.search(query, k=k, where=where or None, **options)
        return SearchResponse(
            query=query, mode=mode or DEFAULT_SEARCH_MODE, results=[self._hit(r) for r in results]
        )

    @_tool_errors
    def outline(
        self,
        source: Annotated[
            str,
            Field(
                min_length=1, description="an indexed document: its path or file name (see list_documents)"
            ),
        ],
    ) -> Outline:
        """Show a document's section tree: titles, levels, pages and character spans.

        Sections are nested under their parents. A document without headings
        has no sections. Use a section's title or path with ``read_section``.
        """
        doc = self._document(self._one_source(source))
        roots: list[SectionNode] = []
        stack: list[SectionNode] = []
        for s in doc.sections:  # in document order: a section's parent is the nearest open ancestor
            node = section_node(s)
            while stack and not is_ancestor(stack[-1].path, s.path):
                stack.pop()
            (stack[-1].children if stack else roots).append(node)
            stack.append(node)
        return Outline(
            source=doc.source, doc_id=doc.id, chars=len(doc.text), pages=len(doc.pages), sections=roots
        )

    @_tool_errors
    def read_section(
        self,
        source: Annotated[
            str,
            Field(
                min_length=1, description="an indexed document: its path or file name (see list_documents)"
            ),
        ],
        section: Annotated[
            str,
            Field(
                min_length=1,
                description="the section's path, titles joined by ' > ' (as outline and search show it), "
                "or just its title when that is unique in the document",
            ),
        ],
        max_chars: Annotated[
            int,
            Field(ge=100, le=MAX_SECTION_CHARS, description="return at most this many characters"),
        ] = DEFAULT_SECTION_CHARS,
    ) -> SectionText:
        """Return the full text of one section of a document, its subsections included.

        Find the section by its path (``"Part II > Item 7"``) or its title.
        Long sections are cut at ``max_chars`` (``truncated`` says so); read
        their subsections one by one instead.
        """
        doc = self._document(self._one_source(source))
        found = find_section(doc.sections, section)
        text = doc.text[found.start : found.end]
        return SectionText(
            source=doc.source,
            path=list(found.path),
            title=found.title,
            page_start=found.page_start,
            page_end=found.page_end,
            start=found.start,
            end=found.end,
            text=text[:max_chars],
            truncated=len(text) > max_chars,
        )

    @_tool_errors
    def list_documents(self) -> DocumentList:
        """List the indexed documents (their source paths) and how many chunks each has."""
        info = self.pipeline.store.info()
        docs = [
            DocumentEntry(source=d.source, doc_id=d.doc_id, chunks=d.chunks)
            for d in self.pipeline.store.documents()
        ]
        return DocumentList(
            collection=self._collection(),
            embedder=None if info is None else info.embedder,
            chunks=0 if info is None else info.chunks,
            documents=docs,
        )


# -- the server ---------------------------------------------------------------------------


def open_pipeline(
    db: str | Path,
    collection: str = DEFAULT_COLLECTION,
    *,
    store: str = DEFAULT_STORE,
    embedder: str | None = None,
    backend: str | None = None,
    storage_options: Mapping[str, str] | None = None,
) -> Pipeline:
    """Open the collection (:meth:`Pipeline.open`), or prepare a new one built with ``embedder``.

    ``backend`` runs the model on that runtime (``torch``, ``onnx``, ``onnx-int8``,
    ``openvino``) instead of the recorded one (a new collection: the preset's default).
    ``storage_options`` are those of a database on object storage.

    A recorded model that cannot be loaded here does not stop the server: the
    calls that need it (vector and hybrid search, indexing changed files)
    answer with a tool error naming it, the others work.

    Raises:
        ModelNotAvailableError: the collection's embedder cannot even be built here.
    """
    from sectionrag import registry
    from sectionrag.embedders import get_embedder

    try:
        return Pipeline.open(
            db,
            collection,
            store=store,
            embedder=embedder,
            backend=backend,
            check=False,
            storage_options=storage_options,
        )
    except CollectionNotFoundError:
        options = {} if backend is None else {"backend": backend}
        remote = {"storage_options": dict(storage_options)} if storage_options else {}
        return Pipeline(
            embedder=get_embedder(embedder or DEFAULT_EMBEDDER, **options),
            store=registry.create("store", store, db, collection=collection, **remote),
        )


def create_server(
    pipeline: Pipeline, *, name: str = "sectionrag", root: str | Path | None = None
) -> MCPServer[Any]:
    """Build the MCP server with the five tools over ``pipeline``.

    Returns:
        An ``mcp.server.mcpserver.MCPServer``; ``server.run("stdio")`` serves it.
    """
    tools = SectionragTools(pipeline, root=root)
    server: MCPServer[Any] = MCPServer(name=name, instructions=INSTRUCTIONS)
    read_only = ToolAnnotations(
        read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
    )
    server.add_tool(
        tools.index,
        title="Index files",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
        ),
    )
    server.add_tool(tools.search, title="Search the documents", annotations=read_only)
    server.add_tool(tools.outline, title="Outline of a document", annotations=read_only)
    server.add_tool(tools.read_section, title="Read a section", annotations=read_only)
    server.add_tool(tools.list_documents, title="List the indexed documents", annotations=read_only)
    return server


def _warm_up(pipeline: Pipeline) -> None:
    """Load the model now (in the background), so the first search does not wait for it."""
    try:
        pipeline.embedder.embed_query("warm up")
    except Exception as e:  # reported again, as a tool error, by the first call that needs the model
        logger.warning("could not load the embedding model yet: %s", " ".join(str(e).split()))


def serve(
    db: str | Path,
    collection: str = DEFAULT_COLLECTION,
    *,
    store: str = DEFAULT_STORE,
    embedder: str | None = None,
    backend: str | None = None,
    preload: bool = True,
    storage_options: Mapping[str, str] | None = None,
) -> None:
    """Serve one collection over stdio until the client closes the connection.

    Args:
        db: Database directory (created on the first ``index`` call if missing).
        collection: Collection name.
        store: Registered store name.
        embedder: Embedder of a new collection (an existing one keeps its own).
        backend: Embedding runtime (default: the collection's; for a new one, the preset's).
        preload: Load the embedding model in the background right away.
        storage_options: Options of a database on object storage (``s3://`` ...).
    """
    pipeline = open_pipeline(
        db, collection, store=store, embedder=embedder, backend=backend, storage_options=storage_options
    )
    server = create_server(pipeline)
    if preload:
        threading.Thread(target=_warm_up, args=(pipeline,), name="sectionrag-warm-up", daemon=True).start()
    server.run("stdio")
