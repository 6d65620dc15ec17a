"""LlamaIndex adapters: a retriever over a sectionrag collection, a node parser backed by its chunkers.

Install with ``pip install "sectionrag[llama-index]"`` (``llama-index-core``)::

    from sectionrag import Pipeline
    from sectionrag.integrations.llama_index import SectionragNodeParser, SectionragRetriever

    retriever = SectionragRetriever(pipeline=Pipeline.open("./index"), k=5)
    for hit in retriever.retrieve("What was total revenue in 2025?"):
        hit.score, hit.node.metadata["section"], hit.node.metadata["page_start"]

    parser = SectionragNodeParser(chunker=sectionrag.chunker("section", size=256))
    nodes = parser.get_nodes_from_documents(documents)  # exact start_char_idx / end_char_idx

Nodes carry ``start_char_idx``/``end_char_idx`` (the span in the source text,
recorded while splitting, never searched for) and metadata ``section_path``
(a list of titles), ``section`` (joined with ``" > "``), ``page_start`` and
``page_end``; retrieved nodes also ``source``, ``doc_id`` and the chunk's
enrichment. Bookkeeping keys (ids, spans, ranks) are kept out of what the
embedding model and the LLM see; ``source`` and ``section`` are not.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    from llama_index.core.node_parser import NodeParser
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import (
        BaseNode,
        Document,
        MetadataMode,
        NodeRelationship,
        NodeWithScore,
        QueryBundle,
        RelatedNodeInfo,
        TextNode,
    )
except ImportError as e:  # pragma: no cover - exercised without the extra installed
    raise MissingDependencyError(
        'sectionrag.integrations.llama_index needs llama-index-core: pip install "sectionrag[llama-index]"'
    ) from e

__all__ = ["SectionragNodeParser", "SectionragRetriever"]

#: metadata that cites or ranks a chunk but means nothing to an embedding model or an LLM
_BOOKKEEPING = [
    "doc_id",
    "chunk_id",
    "chunk_index",
    "start_index",
    "end_index",
    "section_path",
    "token_count",
    "score",
    "rank",
    "forced_split",
    "enriched_by",
    "enrichment_error",
]


class SectionragRetriever(BaseRetriever):
    """A LlamaIndex retriever that searches a sectionrag :class:`~sectionrag.Pipeline`.

    Every query goes through :meth:`Pipeline.search` (the query string; an
    embedding LlamaIndex computed with another model is not used), so the
    results are the pipeline's own. Each hit is a ``NodeWithScore`` whose
    ``TextNode`` has the chunk id, text, exact ``start_char_idx`` /
    ``end_char_idx``, its document as ``SOURCE`` relationship and the citation
    metadata (``source``, ``section_path``, ``section``, ``page_start``,
    ``page_end``, ``score``, ``rank`` and the chunk's enrichment).

    Args:
        pipeline: The pipeline to search (``Pipeline.open(db)`` for an existing index).
        k: Results per query (default 5; with ``max_chars``, at most 50).
        max_chars: A budget of characters per query: the best results while their
            text adds up to at most this many (the best one always).
        mode: ``vector``, ``text`` or ``hybrid``; ``None``: the pipeline's default.
        where: A filter for every query (``{"source": "report.pdf"}``, ``{"section": "Risk"}``).
        **kwargs: Passed to LlamaIndex's ``BaseRetriever`` (``callback_manager``, ``verbose``).
    """

    def __init__(
        self,
        pipeline: Pipeline,
        k: int | None = None,
        mode: SearchMode | None = None,
        where: Where | None = None,
        *,
        max_chars: int | None = None,
        **kwargs: Any,
    ) -> None:
        if not isinstance(pipeline, Pipeline):
            raise TypeError(f"pipeline must be a sectionrag Pipeline, not {type(pipeline).__name__}")
        self.pipeline = pipeline
        self.k = k
        self.max_chars = max_chars
        self.mode = mode
        self.where = where
        super().__init__(**kwargs)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        options: dict[str, Any] = {} if self.mode is None else {"mode": self.mode}
        results = self.pipeline.search(
            query_bundle.query_str, k=self.k, where=self.where, max_chars=self.max_chars, **options
        )
        out: list[NodeWithScore] = []
        for r in results:
            node = TextNode(
                id_=r.chunk_id or f"{r.doc_id}:{r.chunk_index}",
                text=r.text,
                start_char_idx=r.start,
                end_char_idx=r.end,
                metadata=result_metadata(r),
                excluded_embed_metadata_keys=list(_BOOKKEEPING),
                excluded_llm_metadata_keys=list(_BOOKKEEPING),
                relationships={NodeRelationship.SOURCE: RelatedNodeInfo(node_id=r.doc_id)},
            )
            out.append(NodeWithScore(node=node, score=r.score))
        return out


class SectionragNodeParser(NodeParser):
    """A LlamaIndex ``NodeParser`` that chunks with any sectionrag chunker.

    A document's sections come from its headings (see ``structure``), so the
    ``section`` strategy keeps chunks inside sections. Each node's
    ``start_char_idx``/``end_char_idx`` are the chunk's span, recorded while
    splitting (LlamaIndex's own post-processing, which searches for each
    node's text, is not allowed to move them): ``text[start:end] == node.text``
    even when passages repeat.

    Args:
        chunker: A sectionrag chunker, or a registered strategy name (default ``section``).
        structure: How to find sections: ``auto`` (Markdown headings for a ``.md``
            ``file_name``/``file_path``/``source`` or a text that has them, plain-text
            headings otherwise; reStructuredText titles for a ``.rst`` one), ``markdown``, ``rst``,
            ``text`` or ``none``.
        **kwargs: LlamaIndex ``NodeParser`` fields (``include_metadata``,
            ``include_prev_next_rel``, ``id_func``, ``callback_manager``).
    """

    chunker: Chunker
    structure: Structure = "auto"

    def __init__(
        self, chunker: Chunker | str = DEFAULT_STRATEGY, *, structure: Structure = "auto", **kwargs: Any
    ) -> None:
        super().__init__(chunker=build_chunker(chunker, {}), structure=structure, **kwargs)  # type: ignore[call-arg]

    @classmethod
    def class_name(cls) -> str:
        """Name LlamaIndex serialises this parser under."""
        return "SectionragNodeParser"

    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        out: list[BaseNode] = []
        for parent in nodes:
            text = parent.get_content(metadata_mode=MetadataMode.NONE)
            meta = parent.metadata
            source = str(meta.get("file_path") or meta.get("file_name") or meta.get("source") or "<memory>")
            source_info = parent.as_related_node_info()
            for i, chunk in enumerate(
                chunk_text(self.chunker, text, source=source, structure=self.structure)
            ):
                node = TextNode(
                    id_=self.id_func(i, parent),
                    text=chunk.text,
                    start_char_idx=chunk.start,
                    end_char_idx=chunk.end,
                    metadata=chunk_metadata(chunk),
                    excluded_embed_metadata_keys=[*parent.excluded_embed_metadata_keys, *_BOOKKEEPING],
                    excluded_llm_metadata_keys=[*parent.excluded_llm_metadata_keys, *_BOOKKEEPING],
                    metadata_separator=parent.metadata_separator,
                    metadata_template=parent.metadata_template,
                    text_template=getattr(parent, "text_template", None) or TextNode().text_template,
                    relationships={NodeRelationship.SOURCE: source_info},
                )
                out.append(node)
        return out

    def _postprocess_parsed_nodes(
        self, nodes: list[BaseNode], parent_doc_map: dict[str, Document]
    ) -> list[BaseNode]:
        spans = [(n.start_char_idx, n.end_char_idx) if isinstance(n, TextNode) else None for n in nodes]
        nodes = super()._postprocess_parsed_nodes(nodes, parent_doc_map)  # metadata and prev/next links
        for node, span in zip(nodes, spans, strict=True):
            if span is not None and isinstance(node, TextNode):
                node.start_char_idx, node.end_char_idx = span
        return nodes
