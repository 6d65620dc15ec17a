"""The stages an ingest runs, handed to the runner as one value: :class:`Stages`."""

from __future__ import annotations

from dataclasses import dataclass

from sectionrag._checks import check_int
from sectionrag.defaults import DEFAULT_BATCH_SIZE
from sectionrag.protocols import Chunker, Embedder, Enricher, Parser, VectorStore

__all__ = ["Stages"]


@dataclass(frozen=True, slots=True)
class Stages:
    """What ingestion needs: the stages in data-flow order, and how many texts to embed per call.

    :class:`~sectionrag.pipeline.Pipeline` builds one for each ingest; a
    runner (in this process today, distributed later) needs nothing else.
    It holds the stages themselves, so it pickles when they do.

    Attributes:
        parser: Turns a source into a Document (an :class:`~sectionrag.parsers.AutoParser`
            picks one per file type).
        chunker: Splits a Document into chunks.
        embedder: Embeds chunk texts.
        store: Holds chunks and vectors.
        enricher: Adds metadata to chunks before embedding, or ``None``.
        batch_size: Chunk texts per ``embed_documents`` call.
    """

    parser: Parser
    chunker: Chunker
    embedder: Embedder
    store: VectorStore
    enricher: Enricher | None = None
    batch_size: int = DEFAULT_BATCH_SIZE

    def __post_init__(self) -> None:
        for value, proto, label in (
            (self.parser, Parser, "parser"),
            (self.chunker, Chunker, "chunker"),
            (self.embedder, Embedder, "embedder"),
            (self.store, VectorStore, "store"),
        ):
            if not isinstance(value, proto):
                raise TypeError(
                    f"{label} must implement sectionrag.{proto.__name__}, got {type(value).__name__}"
                )
        if self.enricher is not None and not isinstance(self.enricher, Enricher):
            raise TypeError(
                f"enricher must implement sectionrag.Enricher, got {type(self.enricher).__name__}"
            )
        check_int("batch_size", self.batch_size, minimum=1)
