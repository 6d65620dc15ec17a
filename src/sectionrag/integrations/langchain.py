"""LangChain adapters: a retriever over a sectionrag collection, a text splitter backed by its chunkers.

Install with ``pip install "sectionrag[langchain]"`` (``langchain-core`` and
``langchain-text-splitters``)::

    from sectionrag import Pipeline
    from sectionrag.integrations.langchain import SectionragRetriever, SectionragTextSplitter

    retriever = SectionragRetriever(pipeline=Pipeline.open("./index"), k=5)
    docs = retriever.invoke("What was total revenue in 2025?")
    docs[0].metadata["section_path"], docs[0].metadata["page_start"], docs[0].metadata["score"]

    splitter = SectionragTextSplitter(chunker=sectionrag.chunker("section", size=256))
    chunks = splitter.split_documents(loaded_documents)  # start_index is exact, never searched for

Both put the same citation fields in ``Document.metadata``: ``start_index``
and ``end_index`` (the span in the source text), ``section_path`` (a list of
titles) and ``section`` (joined with ``" > "``), ``page_start`` and
``page_end``; the retriever adds ``source``, ``doc_id``, ``chunk_id``,
``score`` and ``rank`` and the chunk's enrichment (``summary``, ...).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from sectionrag.defaults import DEFAULT_STRATEGY
from sectionrag.errors import MissingDependencyError
from sectionrag.integrations._common import (
    Structure,
    build_chunker,
    chunk_metadata,
    chunk_text,
    result_metadata,
)
from sectionrag.pipeline import Pipeline
from sectionrag.protocols import Chunker, SearchMode, Where

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from langchain_text_splitters import TextSplitter
    from pydantic import ConfigDict
except ImportError as e:  # pragma: no cover - exercised without the extra installed
    raise MissingDependencyError(
        "sectionrag.integrations.langchain needs langchain-core and langchain-text-splitters: "
        'pip install "sectionrag[langchain]"'
    ) from e

__all__ = ["SectionragRetriever", "SectionragTextSplitter"]


class SectionragRetriever(BaseRetriever):
    """A LangChain retriever that searches a sectionrag :class:`~sectionrag.Pipeline`.

    Every query goes through :meth:`Pipeline.search`, so the results are the
    pipeline's own (same ranking, filters and post-processing). Each result
    becomes a ``Document`` whose ``page_content`` is the chunk text and whose
    metadata cites it: ``source``, ``section_path``, ``section``,
    ``page_start``, ``page_end``, ``start_index``, ``end_index``, ``score``,
    ``rank``, ``doc_id``, ``chunk_id`` and the chunk's own metadata
    (enrichment included). ``Document.id`` is the chunk id.

    Attributes:
        pipeline: The pipeline to search (``Pipeline.open(db)`` for an existing index).
        k: Results per query (default 5; with ``max_chars``, at most 50).
        max_chars: A budget of characters per query: the best results while their
            text adds up to at most this many (the best one always).
        mode: ``vector``, ``text`` or ``hybrid``; ``None``: the pipeline's default.
        where: A filter for every query (``{"source": "report.pdf"}``, ``{"section": "Risk"}``).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    pipeline: Pipeline
    k: int | None = None
    max_chars: int | None = None
    mode: SearchMode | None = None
    where: Where | None = None

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        options: dict[str, Any] = {} if self.mode is None else {"mode": self.mode}
        results = self.pipeline.search(query, k=self.k, where=self.where, max_chars=self.max_chars, **options)
        return [
            Document(page_content=r.text, metadata=result_metadata(r), id=r.chunk_id or None) for r in results
        ]


class SectionragTextSplitter(TextSplitter):
    """A LangChain ``TextSplitter`` that chunks with any sectionrag chunker.

    A text's sections come from its headings (see ``structure``), so the
    ``section`` strategy keeps chunks inside sections. Each chunk's span is
    recorded while splitting, never searched for: ``start_index`` and
    ``end_index`` in a split document's metadata satisfy
    ``text[start_index:end_index] == page_content`` even when passages repeat.

    Args:
        chunker: A sectionrag chunker, or a registered strategy name (default
            ``section``) built with ``**params``.
        structure: How to find sections: ``auto`` (Markdown headings for a ``.md``
            ``source`` in the metadata or a text that has them, plain-text headings
            otherwise; reStructuredText titles for a ``.rst`` one), ``markdown``, ``rst``,
            ``text`` or ``none``.
        **params: Strategy parameters when ``chunker`` is a name (``size``, ``tokenizer`` ...).
    """

    def __init__(
        self,
        chunker: Chunker | str = DEFAULT_STRATEGY,
        *,
        structure: Structure = "auto",
        **params: Any,
    ) -> None:
        self.chunker = build_chunker(chunker, params)
        size = getattr(self.chunker, "size", None)
        super().__init__(
            chunk_size=size if isinstance(size, int) and size > 0 else 4000,
            chunk_overlap=0,
            add_start_index=True,
            strip_whitespace=False,
        )
        self.structure: Structure = structure

    def split_text(self, text: str) -> list[str]:
        """Split ``text`` into chunk texts."""
        return [c.text for c in chunk_text(self.chunker, text, structure=self.structure)]

    def create_documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
    ) -> list[Document]:
        """Split each text into ``Document`` chunks carrying their span and section path.

        A text's ``source`` metadata, if any, names it (and tells ``auto`` a Markdown file).
        """
        metas = metadatas or [{} for _ in texts]
        out: list[Document] = []
        for text, meta in zip(texts, metas, strict=True):
            source = str(meta.get("source") or "<memory>")
            for chunk in chunk_text(self.chunker, text, source=source, structure=self.structure):
                out.append(
                    Document(
                        page_content=chunk.text, metadata={**copy.deepcopy(meta), **chunk_metadata(chunk)}
                    )
                )
        return out

    def split_documents(self, documents: Iterable[Document]) -> list[Document]:
        """Split ``documents`` (their metadata is copied to each chunk, then the chunk's fields)."""
        docs = list(documents)
        return self.create_documents([d.page_content for d in docs], [dict(d.metadata) for d in docs])
