"""Merging enrichment into a chunk (private; shared by the enrichers)."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from sectionrag.protocols import TokenCounter
from sectionrag.tokenizers import WordTokenizer
from sectionrag.types import Chunk

__all__ = ["apply_enrichment", "with_tokenizer"]

_WORDS = WordTokenizer()
_Stage = TypeVar("_Stage")


def with_tokenizer(stage: _Stage, tokenizer: TokenCounter) -> _Stage:
    """Return ``stage`` if its ``tokenizer`` is set, else a shallow copy of it that counts with ``tokenizer``.

    The copy shares everything else (statistics, caches, the LLM), so what the
    pipeline's copy records is seen on the original.
    """
    if getattr(stage, "tokenizer", None) is not None:
        return stage
    bound = copy.copy(stage)
    bound.tokenizer = tokenizer  # type: ignore[attr-defined]
    return bound


def apply_enrichment(
    chunk: Chunk,
    values: Mapping[str, Any],
    *,
    embed_summary: bool = False,
    tokenizer: TokenCounter | None = None,
) -> Chunk:
    """Return ``chunk`` with ``values`` merged into its metadata (enrichment keys win).

    With ``embed_summary`` and a non-empty ``summary``, the summary is added
    to the chunk's ``context`` (the header embedded ahead of the text, never
    stored in it), and ``token_count`` grows by the summary's tokens: counted
    with ``tokenizer`` when given, else by words and punctuation.
    """
    metadata = MappingProxyType({**chunk.metadata, **values})
    summary = values.get("summary")
    if not (embed_summary and isinstance(summary, str) and summary.strip()):
        return dataclasses.replace(chunk, metadata=metadata)
    context = f"{chunk.context}\n{summary}" if chunk.context else summary
    if tokenizer is not None:
        embedded = f"{context}\n{chunk.text}"
        token_count = tokenizer.count_tokens(embedded)
    else:
        token_count = chunk.token_count + _WORDS.count_tokens(summary)
    return dataclasses.replace(chunk, metadata=metadata, context=context, token_count=token_count)
